"""Synonym sets as files: CSV (one set a row: kind, source, terms...) and Solr's synonyms.txt
("a, b, c" multi-way; "a => b, c" one-way; a line starting with "#" is a comment). Pure
functions: text in, sets out.

Both read back what they write. CSV cells are neutralised against formulas (cms/csv_cells.py)
and restored on import. Solr's format escapes with a backslash, as its SynonymMap parser
(SolrSynonymParser) reads it: a term holding `,`, `=>`, `#` or `\\` is written with `\\,`,
`\\=`, `\\#` and `\\\\`, and the parser splits on unescaped separators only, then unescapes.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass

from cms.csv_cells import csv_cell_neutralise, csv_cell_restore
from cms.models import SynonymKind

CSV_HEADER = ["kind", "source", "terms..."]


@dataclass(frozen=True)
class SynonymRow:
    kind: str
    source: str
    terms: list[str]
    line: int


def _solr_split(text: str, separator: str) -> list[str]:
    """`text` split on `separator` where it is not escaped; escapes kept (SolrSynonymParser.split)."""
    parts, part, pos = [], [], 0
    while pos < len(text):
        if text.startswith(separator, pos):
            parts.append("".join(part))
            part, pos = [], pos + len(separator)
            continue
        if text[pos] == "\\" and pos + 1 < len(text):
            part.append(text[pos])
            pos += 1
        part.append(text[pos])
        pos += 1
    parts.append("".join(part))
    return parts


def _solr_terms(text: str, separator: str = ",") -> list[str]:
    unescaped = (re.sub(r"\\(.)", r"\1", part).strip() for part in _solr_split(text, separator))
    return [term for term in unescaped if term]


def _solr_escape(term: str) -> str:
    return re.sub(r"([\\,#=])", r"\\\1", term)


def synonyms_parse(text: str, *, file_format: str) -> list[SynonymRow]:
    """The sets a file holds, unchecked (cms.services.synonym_set_check checks each)."""
    rows: list[SynonymRow] = []
    if file_format == "solr":
        for number, line in enumerate(text.splitlines(), start=1):
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            sides = _solr_split(line, "=>")
            if len(sides) > 1:
                terms = _solr_terms("=>".join(sides[1:]))
                for source in _solr_terms(sides[0]):
                    rows.append(SynonymRow(SynonymKind.ONE_WAY, source, terms, number))
            else:
                rows.append(SynonymRow(SynonymKind.MULTI_WAY, "", _solr_terms(line), number))
        return rows
    for number, record in enumerate(csv.reader(io.StringIO(text)), start=1):
        if not record or (number == 1 and record[0].strip().lower() == "kind"):
            continue
        record = [csv_cell_restore(cell) for cell in record]
        kind, source, terms = record[0].strip(), (record[1].strip() if len(record) > 1 else ""), record[2:]
        rows.append(SynonymRow(kind, source, [t.strip() for t in terms if t.strip()], number))
    return rows


def synonyms_render(sets: list[tuple[str, str, list[str]]], *, file_format: str) -> str:
    """(kind, source, terms) of each set as a file."""
    if file_format == "solr":
        lines = []
        for kind, source, terms in sets:
            listed = ", ".join(_solr_escape(term) for term in terms)
            lines.append(f"{_solr_escape(source)} => {listed}" if kind == SynonymKind.ONE_WAY else listed)
        return "\n".join(lines) + ("\n" if lines else "")
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n", quoting=csv.QUOTE_ALL)
    writer.writerow(CSV_HEADER)
    for kind, source, terms in sets:
        writer.writerow([csv_cell_neutralise(cell) for cell in (kind, source, *terms)])
    return out.getvalue()
