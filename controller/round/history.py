"""What earlier rounds of a table left behind, read from the journal: wagers, turns, the pot.

A heads-up table's "Deal" repeats a position's last wager (seed 004 line 19); a banking rotation
offers the bank to the position after the one offered last (seed 003 line 23); home play carries
the pot and the ante exemptions from one deal to the next (seed 000 line 23).  All three come
from the journal, never from memory alone, so they survive a restart and replay the same way.
Only rounds of the same game, profile and mode (real or replay) count; a voided round leaves
them as they were (its wagers are returned, its pot is untouched).  Records are read once, in
order, and the reader keeps its place, so a long journal is not read again for every round.
"""

from __future__ import annotations

from ..journal import Journal, Record
from ..rules.dealing import HOUSE
from ..rules.home_pot import PotStatus

_BATCH = 1000
_KINDS = frozenset({"round_opened", "bank_offered", "settle"})


class TableHistory:
    """The journal's memory of one table profile: last wagers, last bank offer, the pot."""

    def __init__(self, journal: Journal, game: str, profile: str, replay: bool) -> None:
        self.journal = journal
        self.game = game
        self.profile = profile
        self.replay = replay
        self._seen = 0
        self._mine: set[str] = set()
        self._wagers: dict[int, int] = {}
        self._offered: int | None = None
        self._pot = PotStatus()

    def _read(self) -> None:
        while chunk := self.journal.records(after=self._seen, limit=_BATCH):
            for record in chunk:
                self._fold(record)
            self._seen = chunk[-1].seq

    def _fold(self, record: Record) -> None:
        if record.round_id is None or record.replay != self.replay or \
                record.kind not in _KINDS:
            return
        data = record.payload()
        if record.kind == "round_opened":
            if data.get("game") == self.game and data.get("profile") == self.profile:
                self._mine.add(record.round_id)
            return
        if record.round_id not in self._mine:
            return
        if record.kind == "bank_offered":
            self._offered = int(data["position"])
        elif record.kind == "settle" and isinstance(data.get("pot"), dict):
            pot = data["pot"]
            self._pot = PotStatus(int(pot["carry"]), frozenset(pot["exempt_next"]))
        elif record.kind == "settle":
            for seat in data.get("seats", []):
                bet = seat.get("bet") or {}
                position, wager = bet.get("position"), bet.get("wager")
                if isinstance(position, int) and position != HOUSE and wager:
                    self._wagers[position] = int(wager)

    def last_wager(self, position: int) -> int | None:
        """The main wager ``position`` made in the last settled round it bet in, in cents."""
        self._read()
        return self._wagers.get(position)

    def last_offered(self) -> int | None:
        """The position the bank was last offered to (None before the first offer)."""
        self._read()
        return self._offered

    def pot(self) -> PotStatus:
        """The pot the last settled deal left, and who need not ante for the next."""
        self._read()
        return self._pot
