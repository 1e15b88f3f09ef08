"""What an audit covers: a time window, a table, a dealer, and how the day splits into shifts.

Times are UTC.  ``--from``/``--to`` take a date (``2026-11-22``) or a date and time
(``2026-11-22T06:00``, optionally with ``Z`` or an offset); a round belongs to the window by
the time it opened, ``from`` inclusive and ``to`` exclusive.  Shifts start at the given whole
hours (default 06, 14 and 22 UTC); a shift that crosses midnight belongs to the day it started.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from .errors import AuditInputError

DEFAULT_SHIFTS = (6, 14, 22)


def parse_time(text: str, what: str = "time") -> datetime:
    """A UTC time from ``YYYY-MM-DD`` or an ISO date and time; AuditInputError naming it."""
    raw = text.strip() if isinstance(text, str) else text
    if not isinstance(raw, str) or not re.fullmatch(r"\d{4}-\d{2}-\d{2}([T ][0-9:.]+"
                                                     r"(Z|[+-]\d{2}:?\d{2})?)?", raw):
        raise AuditInputError(f"{what} {text!r} is not a date (2026-11-22) or a date and time "
                              f"(2026-11-22T06:00Z)")
    try:
        moment = datetime.fromisoformat(raw.replace("Z", "+00:00"))
    except ValueError as err:
        raise AuditInputError(f"{what} {text!r}: {err}") from err
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC)


def parse_shifts(text: str) -> tuple[int, ...]:
    """Shift start hours from ``6,14,22``: distinct whole hours 0..23, at least one."""
    hours: list[int] = []
    for token in text.split(","):
        token = token.strip()
        if not token.isdigit() or not 0 <= int(token) <= 23:
            raise AuditInputError(f"shift start {token!r} in {text!r} is not an hour 0..23")
        hours.append(int(token))
    if len(set(hours)) != len(hours):
        raise AuditInputError(f"shift starts {text!r} repeat an hour")
    return tuple(sorted(hours))


@dataclass(frozen=True, slots=True)
class Scope:
    """Which rounds an audit reads, and how it names shifts."""

    start: datetime | None = None
    end: datetime | None = None
    table: str | None = None
    dealer: str | None = None
    shifts: tuple[int, ...] = DEFAULT_SHIFTS
    replays: bool = False  # replayed rounds are re-runs, not dealing: left out by default

    def __post_init__(self) -> None:
        if self.start is not None and self.end is not None and self.end <= self.start:
            raise AuditInputError(f"--to {self.end.isoformat()} is not after --from "
                                  f"{self.start.isoformat()}")
        if not self.shifts or any(not 0 <= h <= 23 for h in self.shifts):
            raise AuditInputError(f"shift starts {self.shifts!r} must be hours 0..23")

    def admits(self, opened: datetime, table: str, dealer: str | None, replay: bool) -> bool:
        """True when a round opened at ``opened`` at ``table`` by ``dealer`` is in scope."""
        if replay and not self.replays:
            return False
        if self.start is not None and opened < self.start:
            return False
        if self.end is not None and opened >= self.end:
            return False
        if self.table is not None and table != self.table:
            return False
        return self.dealer is None or dealer == self.dealer

    def shift(self, moment: datetime) -> str:
        """The shift ``moment`` falls in, as ``2026-11-22 06-14``."""
        moment = moment.astimezone(UTC)
        starts = self.shifts
        day = moment.date()
        earlier = [h for h in starts if h <= moment.hour]
        if earlier:
            begin = earlier[-1]
        else:
            begin, day = starts[-1], day - timedelta(days=1)
        end = starts[(starts.index(begin) + 1) % len(starts)]
        return f"{day.isoformat()} {begin:02d}-{end:02d}"
