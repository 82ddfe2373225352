"""Figures that tests print at the end of the run (request counts, cases per interface).

pytest hides a passing test's output; lines recorded here appear in a "figures" section of
the terminal summary, so `make test` shows them.
"""

from __future__ import annotations

FIGURES: list[str] = []


def figure_record(line: str) -> None:
    FIGURES.append(line)
