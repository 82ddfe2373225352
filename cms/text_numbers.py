"""Whole numbers and dates in text a caller sent (query strings, form fields): ASCII digits only.

`str.isdigit()` accepts '²', '٣' and '１２', and `int()` refuses the first and reads the
others: a view that checks with one and converts with the other fails with a 500, or reads a
number the caller did not write. Every view that turns text into a whole number or a month
calls these, which answer None for anything else; the view says what it refuses.
"""

from __future__ import annotations

import datetime
import re

# Up to 18 digits: every such number fits PostgreSQL's bigint.
_WHOLE_NUMBER = re.compile(r"[0-9]{1,18}")
_MONTH = re.compile(r"([0-9]{4})-([0-9]{2})")


def int_from_text(text: object, *, low: int | None = None, high: int | None = None) -> int | None:
    """The whole number `text` writes in ASCII digits (no sign, no spaces), if within
    [low, high]; else None."""
    if not isinstance(text, str) or not _WHOLE_NUMBER.fullmatch(text):
        return None
    number = int(text)
    if (low is not None and number < low) or (high is not None and number > high):
        return None
    return number


def month_from_text(text: object) -> tuple[datetime.date, datetime.date] | None:
    """For 'YYYY-MM': the month's first day and the next month's first day; None when `text`
    is no such month, or the next month is past the calendar (9999-12)."""
    match = _MONTH.fullmatch(text) if isinstance(text, str) else None
    if match is None:
        return None
    year, month = int(match[1]), int(match[2])
    if not (datetime.MINYEAR <= year and 1 <= month <= 12) or (year, month) == (datetime.MAXYEAR, 12):
        return None
    following = (year + 1, 1) if month == 12 else (year, month + 1)
    return datetime.date(year, month, 1), datetime.date(*following, 1)

