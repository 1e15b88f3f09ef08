"""Rounds as the journal sees them: the recall of settled rounds, open rounds, active faults.

Each is a thin fold over records the back end selected; nothing here re-plays a round.  The
recall reads a round's latest ``settle`` record: every seat's setting (the hand as set: its
cards or tiles, low and high), wager, Fortune wager, outcome, commission and net, and the
banker's setting; the round's other records are the intermediate steps, in original order.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from ..rules.bank import Settlement
from ..rules.events import from_json
from .canonical import Json
from .errors import JournalCorruptError
from .kinds import FAULT_CLEARED, FAULT_RAISED, SETTLE
from .records import Record


def by_round(records: Iterable[Record]) -> dict[str, list[Record]]:
    """Records grouped by round id, rounds in order of their first record (table-level dropped)."""
    rounds: dict[str, list[Record]] = {}
    for record in records:
        if record.round_id is not None:
            rounds.setdefault(record.round_id, []).append(record)
    return rounds


@dataclass(frozen=True, slots=True)
class OpenRound:
    """A round with records but no closing one: resume it or void it after a restart."""

    round_id: str
    replay: bool
    records: tuple[Record, ...]


@dataclass(frozen=True, slots=True)
class RoundRecall:
    """A settled round: all its records and the settlement they ended with."""

    round_id: str
    replay: bool
    records: tuple[Record, ...]
    settle: Record

    def settlement(self) -> Settlement[Any]:
        """The rules core's settlement, decoded (and re-checked) from the settle record."""
        made = from_json(self.settle.payload())
        if not isinstance(made, Settlement):
            raise JournalCorruptError(f"record {self.settle.seq} is not a settlement")
        return made

    def to_json(self) -> Json:
        """Hands (as set), wagers, outcomes and payouts per seat, the banker, and every step."""
        settle = self.settle.payload()
        seats = []
        for seat in settle.get("seats", []):
            bet, comparison = seat.get("bet", {}), seat.get("comparison") or {}
            position = bet.get("position")
            seats.append({
                "position": position, "setting": comparison.get("setting"),
                "wager": bet.get("wager"), "fortune": bet.get("fortune"),
                "outcome": comparison.get("outcome"), "commission": seat.get("commission"),
                "net": settle.get("net", {}).get(str(position)),
            })
        banker = settle.get("banker")
        return {
            "round_id": self.round_id, "replay": self.replay, "settled_seq": self.settle.seq,
            "ts": self.settle.ts, "game": settle.get("game", "poker"), "banker": banker,
            "banker_setting": settle.get("banker_setting"),
            "banker_net": settle.get("net", {}).get(str(banker)), "seats": seats,
            "records": [r.to_json() for r in self.records],
        }


def recalls(records: Iterable[Record]) -> list[RoundRecall]:
    """The settled rounds among records, oldest settlement first (the latest settle counts)."""
    made = []
    for round_id, steps in by_round(records).items():
        settles = [r for r in steps if r.kind == SETTLE]
        if settles:
            made.append(RoundRecall(round_id, steps[0].replay, tuple(steps), settles[-1]))
    return sorted(made, key=lambda r: r.settle.seq)


def open_rounds(records: Iterable[Record]) -> list[OpenRound]:
    """Each round's records, as an open round, in order of their first record."""
    return [OpenRound(round_id, steps[0].replay, tuple(steps))
            for round_id, steps in by_round(records).items()]


def active_faults(records: Iterable[Record]) -> list[Record]:
    """The ``fault_raised`` records not followed by a ``fault_cleared`` of the same id."""
    active: dict[str, Record] = {}
    for record in records:
        fault = record.payload().get("fault")
        if not isinstance(fault, str):
            continue
        if record.kind == FAULT_RAISED:
            active.setdefault(fault, record)
        elif record.kind == FAULT_CLEARED:
            active.pop(fault, None)
    return sorted(active.values(), key=lambda r: r.seq)
