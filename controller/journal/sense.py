"""What the round engine can never write, checked by ``verify`` after the chain itself.

A chain (keyed or not) shows who could have written a record; these checks show records that
no honest writer would have: a time before the previous record's (the journal never lets the
time go back), one round both real and replayed, a settlement whose payouts, commission and
nets do not balance with the bank, and a record for a round already settled or voided.  The
state kept is one small entry per round id.
"""

from __future__ import annotations

from typing import Final

from ..rules.errors import RulesError
from ..rules.records import from_json
from .canonical import CanonicalError, parse_canonical
from .kinds import CLOSING, SETTLE
from .records import Row

_OPEN: Final = 0


class Sense:
    """Feed rows in sequence order to ``problem``; it returns why one is impossible, or None."""

    def __init__(self) -> None:
        self._last: tuple[int, str] | None = None  # (seq, ts) of the previous record
        self._rounds: dict[str, tuple[int, bool, int, str]] = {}
        # round id -> (first seq, replay flag, closing seq or _OPEN, closing kind)

    def problem(self, row: Row) -> str | None:
        """Why ``row`` (which passed the chain's checks) could not have been written."""
        found = self._time(row) or self._round(row)
        if found is None and row.kind == SETTLE:
            found = _settlement(row)
        self._last = (row.seq, row.ts)
        return found

    def _time(self, row: Row) -> str | None:
        if self._last is not None and row.ts < self._last[1]:
            return (f"its time {row.ts} is before record {self._last[0]}'s {self._last[1]} "
                    f"(the journal's time never goes back)")
        return None

    def _round(self, row: Row) -> str | None:
        if row.round_id is None:
            return None
        known = self._rounds.get(row.round_id)
        if known is None:
            closing = row.seq if row.kind in CLOSING else _OPEN
            self._rounds[row.round_id] = (row.seq, row.replay, closing, row.kind)
            return None
        first, replay, closed, closed_by = known
        if closed != _OPEN:
            return (f"a {row.kind!r} record for round {row.round_id!r} after record {closed} "
                    f"({closed_by}) closed it")
        if row.replay != replay:
            return (f"replay flag {row.replay} in round {row.round_id!r}, whose first record "
                    f"{first} has {replay}: a round is all real or all replayed")
        if row.kind in CLOSING:
            self._rounds[row.round_id] = (first, replay, row.seq, row.kind)
        return None


def _settlement(row: Row) -> str | None:
    """Why a settle record does not balance (nets from its seats, summing to zero with the
    bank), or None."""
    try:
        from_json(parse_canonical(row.event))
    except (RulesError, CanonicalError, ValueError) as err:
        return f"the settlement is not one the rules make: {err}"
    return None
