"""A text progress bar for long analyses, drawn only on a terminal."""

from __future__ import annotations

import sys
import time
from collections.abc import Sequence
from types import TracebackType
from typing import Protocol, TextIO


class Progress(Protocol):
    """Told how much of the work is done: ``progress(done, total)``."""

    def __call__(self, done: int, total: int) -> None:
        """Record progress."""


class ProgressBar:
    """``[#######.......]  52%  1.3 s`` redrawn in place on ``stream``; silent unless it is a
    terminal, so pipes and logs get no control characters. Use as a context manager."""

    def __init__(self, label: str, stream: TextIO | None = None, width: int = 30) -> None:
        self.stream = sys.stderr if stream is None else stream
        self.label = label
        self.width = width
        self.enabled = self.stream.isatty()
        self._start = time.perf_counter()
        self._shown = -1

    def __call__(self, done: int, total: int) -> None:
        """Redraw when the shown percentage changes."""
        if not self.enabled or total <= 0:
            return
        percent = 100 * done // total
        if percent == self._shown:
            return
        self._shown = percent
        filled = self.width * done // total
        bar = "#" * filled + "." * (self.width - filled)
        seconds = time.perf_counter() - self._start
        self.stream.write(f"\r{self.label} [{bar}] {percent:3d}%  {seconds:.1f} s")
        self.stream.flush()

    def __enter__(self) -> ProgressBar:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        if self.enabled and self._shown >= 0:
            self.stream.write("\r\033[K")  # clear the bar's line
            self.stream.flush()


class Stages:
    """One progress report over several stages of work, each given a rough relative cost."""

    def __init__(self, progress: Progress | None, costs: Sequence[float]) -> None:
        self.progress = progress
        total = sum(costs)
        self._starts = [sum(costs[:i]) / total for i in range(len(costs))]
        self._shares = [cost / total for cost in costs]

    def stage(self, index: int) -> Progress | None:
        """The progress callback for stage ``index`` (None when nothing listens)."""
        progress = self.progress
        if progress is None:
            return None
        start, share = self._starts[index], self._shares[index]

        def report(done: int, total: int) -> None:
            progress(round(1000 * (start + share * done / max(total, 1))), 1000)

        return report
