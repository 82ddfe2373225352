"""Progress for operator commands: a tqdm bar on a terminal, plain lines otherwise.

Verbosity 0 prints nothing; 1 prints a bar (TTY) or a line every few seconds and at the end;
2 and more print a line per step.
"""

from __future__ import annotations

import time
from typing import TextIO


class Progress:
    LINE_INTERVAL_SECONDS = 5.0

    def __init__(self, *, stream: TextIO, label: str, total: int | None, verbosity: int, unit: str = "chunks"):
        self.stream = stream
        self.label = label
        self.total = total
        self.unit = unit
        self.verbosity = verbosity
        self.done = 0
        self._last_line = time.monotonic()
        self._bar = None
        is_tty = hasattr(stream, "isatty") and stream.isatty()
        if verbosity >= 1 and is_tty:
            from tqdm import tqdm

            self._bar = tqdm(total=total, desc=label, unit=f" {unit}", file=stream, dynamic_ncols=True)

    def __call__(self, step: int) -> None:
        self.done += step
        if self._bar is not None:
            self._bar.update(step)
            return
        now = time.monotonic()
        if self.verbosity >= 2 or (self.verbosity == 1 and now - self._last_line >= self.LINE_INTERVAL_SECONDS):
            self._line()
            self._last_line = now

    def _line(self) -> None:
        of = f"/{self.total}" if self.total is not None else ""
        self.stream.write(f"{self.label}: {self.done}{of} {self.unit}\n")
        self.stream.flush()

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()
        elif self.verbosity >= 1 and self.done:
            self._line()

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
