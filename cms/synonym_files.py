"""Synonym sets as files: CSV (one set a row: kind, source, terms...) and Solr's synonyms.txt
("a, b, c" multi-way; "a => b, c" one-way; "#" comments). Pure functions: text in, sets out."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass

from cms.models import SynonymKind

CSV_HEADER = ["kind", "source", "terms..."]


@dataclass(frozen=True)
class SynonymRow:
    kind: str
    source: str
    terms: list[str]
    line: int


def synonyms_parse(text: str, *, file_format: str) -> list[SynonymRow]:
    """The sets a file holds, unchecked (cms.services.synonym_set_check checks each)."""
    rows: list[SynonymRow] = []
    if file_format == "solr":
        for number, raw in enumerate(text.splitlines(), start=1):
            line = raw.split("#", 1)[0].strip()
            if not line:
                continue
            if "=>" in line:
                left, right = line.split("=>", 1)
                terms = [t.strip() for t in right.split(",") if t.strip()]
                for source in (s.strip() for s in left.split(",") if s.strip()):
                    rows.append(SynonymRow(SynonymKind.ONE_WAY, source, terms, number))
            else:
                rows.append(SynonymRow(SynonymKind.MULTI_WAY, "", [t.strip() for t in line.split(",")], number))
        return rows
    for number, record in enumerate(csv.reader(io.StringIO(text)), start=1):
        if not record or (number == 1 and record[0].strip().lower() == "kind"):
            continue
        kind, source, terms = record[0].strip(), (record[1].strip() if len(record) > 1 else ""), record[2:]
        rows.append(SynonymRow(kind, source, [t.strip() for t in terms if t.strip()], number))
    return rows


def synonyms_render(sets: list[tuple[str, str, list[str]]], *, file_format: str) -> str:
    """(kind, source, terms) of each set as a file."""
    if file_format == "solr":
        lines = [f"{source} => {', '.join(terms)}" if kind == SynonymKind.ONE_WAY else ", ".join(terms)
                 for kind, source, terms in sets]
        return "\n".join(lines) + ("\n" if lines else "")
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_HEADER)
    for kind, source, terms in sets:
        writer.writerow([kind, source, *terms])
    return out.getvalue()
