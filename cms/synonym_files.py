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


class SynonymFileError(ValueError):
    """A file that cannot be read as synonym sets: `line` (1-based) and what is wrong there."""

    def __init__(self, line: int, problem: str):
        super().__init__(f"line {line}: {problem}")
        self.line, self.problem = line, problem


def synonyms_text_decode(data: bytes) -> str:
    """A file's bytes as text: UTF-8 (a byte order mark is dropped), or SynonymFileError naming
    the line of the first byte that is not."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[:exc.start].count(b"\n") + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise SynonymFileError(line, f"not UTF-8 text (byte 0x{data[exc.start]:02x} at byte {column} of the line); "
                                     "save the file as UTF-8") from exc


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
    reader = csv.reader(io.StringIO(text))
    first = True
    while True:
        try:
            record = next(reader)
        except StopIteration:
            return rows
        except csv.Error as exc:  # a cell over csv.field_size_limit() (128 Ki characters), a NUL
            raise SynonymFileError(reader.line_num, _csv_problem(exc)) from exc
        number = reader.line_num  # the record's last line: a quoted cell may span several
        header, first = first, False
        if not record or (header and record[0].strip().lower() == "kind"):
            continue
        record = [csv_cell_restore(cell) for cell in record]
        kind, source, terms = record[0].strip(), (record[1].strip() if len(record) > 1 else ""), record[2:]
        rows.append(SynonymRow(kind, source, [t.strip() for t in terms if t.strip()], number))


def _csv_problem(exc: csv.Error) -> str:
    if "field larger than field limit" in str(exc):
        return f"a cell is longer than {csv.field_size_limit()} characters, the longest the CSV reader takes"
    return f"not CSV the reader can read ({exc})"


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
