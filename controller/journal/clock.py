"""Where a record's time comes from: an injectable clock and the one text form of a time.

The journal never reads the time itself; it calls the clock it was handed, so tests and replay
can pass ``StepClock`` and get the same timestamps on every run.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

Clock = Callable[[], datetime]
"""A function returning the current time, timezone-aware."""

_TS = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{6}Z")


def system_clock() -> datetime:
    """The machine's clock, in UTC."""
    return datetime.now(UTC)


def format_ts(moment: datetime) -> str:
    """A time as stored: UTC, microseconds, ``2025-01-31T18:04:05.123456Z``."""
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise ValueError(f"the clock gave a time without a timezone: {moment!r}")
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def parse_ts(text: str) -> datetime:
    """The time a stored timestamp names; ValueError if it is not in the stored form."""
    if not isinstance(text, str) or not _TS.fullmatch(text):
        raise ValueError(f"not a journal timestamp: {text!r}")
    return datetime.fromisoformat(text[:-1]).replace(tzinfo=UTC)


class StepClock:
    """A clock for tests and replay: starts at ``start`` and moves ``step`` on every call."""

    def __init__(self, start: datetime | None = None, step: timedelta = timedelta(seconds=1)):
        self.now = start or datetime(2025, 1, 1, tzinfo=UTC)
        self.step = step

    def __call__(self) -> datetime:
        """The current time, then advance."""
        moment = self.now
        self.now += self.step
        return moment
