"""CSV cells a spreadsheet shows as text, never runs as a formula (OWASP "CSV Injection").

A cell, or any part of it after a `,` or `;` (a spreadsheet told to split on either makes a
new cell there), that starts with = + - @ tab or carriage return (after spaces) gets a `'`
in front; so does a part that starts with `'`, so that `csv_cell_restore` can undo exactly
what `csv_cell_neutralise` did: the synonym CSV is exported and imported again. Writers quote
every cell (csv.QUOTE_ALL), as OWASP also advises.
"""

from __future__ import annotations

import re

_RISKY_START = re.compile(r"(^|[,;])( *)(?=[=+\-@\t\r'])")
_MARKED_START = re.compile(r"(^|[,;])( *)'(?=[=+\-@\t\r'])")


def csv_cell_neutralise(value: object) -> object:
    """`value` as a cell no spreadsheet reads as a formula (text only; numbers as they are)."""
    return _RISKY_START.sub(r"\1\2'", value) if isinstance(value, str) else value


def csv_cell_restore(text: str) -> str:
    """The text `csv_cell_neutralise` was given, from the cell it made."""
    return _MARKED_START.sub(r"\1\2", text)
