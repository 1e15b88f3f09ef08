"""What earlier rounds of a table left behind, read from the journal: wagers, turns, the pot.

A heads-up table's "Deal" repeats a position's last wager ([D4] l.19); a banking rotation
offers the bank to the position after the one offered last ([D3] l.23); home play carries
the pot and the ante exemptions from one deal to the next ([D0] l.23).  All three come
from the journal, never from memory alone, so they survive a restart and replay the same way.
Only rounds of the same game, profile and mode (real or replay) count; a voided round leaves
them as they were (its wagers are returned, its pot is untouched).

The reader never walks the whole journal.  On its first use it notes the journal's head.
Records after it are read forwards, only the kinds that matter (``round_opened``,
``bank_offered``, ``settle``), through the journal's ``(kind, seq)`` index, and always win:
they are newer.  What happened before it is read backwards, a batch of ``round_opened``
records at a time, and only as far as the question needs: the newest rounds of this profile
answer first (``records_of_kind(..., last=N)``), their facts fetched by round id.  So a restart
costs a few indexed queries, not a read of every record.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from ..journal import Journal, Record
from ..rules.poker.dealing import HOUSE
from ..rules.poker.home_pot import PotStatus

_FIRST_BATCH = 16  # rounds opened read backwards at first: the answer is usually among them
_MAX_BATCH = 1024  # each later batch doubles, up to this
_OPENED = "round_opened"
_FACTS = ("bank_offered", "settle")


class TableHistory:
    """The journal's memory of one table profile: last wagers, last bank offer, the pot."""

    def __init__(self, journal: Journal, game: str, profile: str, replay: bool) -> None:
        self.journal = journal
        self.game = game
        self.profile = profile
        self.replay = replay
        self._start: int | None = None  # the head at the first read: forwards above, back below
        self._seen = 0  # forwards: the last record folded
        self._older = 0  # backwards: rounds opened below this record are not read yet
        self._exhausted = False  # backwards: the journal's start is reached
        self._batch = _FIRST_BATCH
        self._mine: dict[str, bool] = {}  # round id: opened by this table profile and mode
        self._wagers: dict[int, int] = {}
        self._offered: int | None = None
        self._offered_known = False
        self._pot: PotStatus | None = None

    # --- reading -----------------------------------------------------------------------------

    def _is_mine(self, opened: Record) -> bool:
        data = opened.payload()
        return (opened.round_id is not None and opened.replay == self.replay
                and data.get("game") == self.game and data.get("profile") == self.profile)

    def _resolve(self, round_ids: Iterable[str]) -> None:
        """Learn which of these rounds (opened before the reader started) are this table's."""
        unknown = [r for r in dict.fromkeys(round_ids) if r not in self._mine]
        if not unknown:
            return
        for opened in self.journal.records_of_kind(_OPENED, round_ids=unknown):
            if opened.round_id is not None:
                self._mine.setdefault(opened.round_id, self._is_mine(opened))
        for round_id in unknown:
            self._mine.setdefault(round_id, False)  # no round_opened: not an engine's round

    def _forward(self) -> None:
        """Fold the records appended since the last read (the first read only notes the head)."""
        if self._start is None:
            self._start = self._seen = self.journal.head()[0]
            self._older = self._start + 1
            return
        chunk = self.journal.records_of_kind((_OPENED, *_FACTS), after=self._seen)
        if not chunk:
            return
        self._resolve(r.round_id for r in chunk if r.round_id is not None and r.kind != _OPENED)
        for record in chunk:
            if record.round_id is None:
                continue
            if record.kind == _OPENED:
                self._mine[record.round_id] = self._is_mine(record)
            elif self._mine.get(record.round_id) and record.replay == self.replay:
                self._fold(record, newer=True)
        self._seen = chunk[-1].seq

    def _backward(self) -> None:
        """Read one batch of older rounds, newest first; facts already known are kept."""
        opened = self.journal.records_of_kind(_OPENED, last=self._batch, before=self._older)
        if not opened:
            self._exhausted = True
            return
        self._older = opened[0].seq
        self._batch = min(2 * self._batch, _MAX_BATCH)
        mine = []
        for record in opened:
            if record.round_id is not None:
                self._mine[record.round_id] = self._is_mine(record)
                if self._mine[record.round_id]:
                    mine.append(record.round_id)
        if not mine:
            return
        assert self._start is not None
        facts = self.journal.records_of_kind(_FACTS, round_ids=mine, before=self._start + 1)
        for record in reversed(facts):
            if record.replay == self.replay:
                self._fold(record, newer=False)

    def _until(self, known: Callable[[], bool]) -> None:
        self._forward()
        while not known() and not self._exhausted:
            self._backward()

    def _fold(self, record: Record, *, newer: bool) -> None:
        """Take a fact in: a newer record replaces what is known, an older one only fills in."""
        data: dict[str, Any] = record.payload()
        if record.kind == "bank_offered":
            if newer or not self._offered_known:
                self._offered, self._offered_known = int(data["position"]), True
        elif isinstance(data.get("pot"), dict):
            if newer or self._pot is None:
                pot = data["pot"]
                self._pot = PotStatus(int(pot["carry"]), frozenset(pot["exempt_next"]))
        else:
            for seat in data.get("seats", []):
                bet = seat.get("bet") or {}
                position, wager = bet.get("position"), bet.get("wager")
                if isinstance(position, int) and position != HOUSE and wager and \
                        (newer or position not in self._wagers):
                    self._wagers[position] = int(wager)

    # --- answers ---------------------------------------------------------------------------

    def last_wager(self, position: int) -> int | None:
        """The main wager ``position`` made in the last settled round it bet in, in cents."""
        self._until(lambda: position in self._wagers)
        return self._wagers.get(position)

    def last_offered(self) -> int | None:
        """The position the bank was last offered to (None before the first offer)."""
        self._until(lambda: self._offered_known)
        return self._offered

    def pot(self) -> PotStatus:
        """The pot the last settled deal left, and who need not ante for the next."""
        self._until(lambda: self._pot is not None)
        return self._pot or PotStatus()
