"""Rounds as the journal sees them: the recall of settled rounds, open rounds, active faults.

Each is a thin fold over records the back end selected; nothing here re-plays a round.  The
recall reads a round's latest ``settle`` record: every seat's setting (the hand as set: its
cards or tiles, low and high), wager, Fortune wager, outcome, commission and net, and the
banker's setting; the round's other records are the intermediate steps, in original order.

A round is described as the table played it: its profile (from ``round_opened``), who banked
and, at a banking rotation, whom the bank was offered to and whether it was declined
(``bank_offered``, ``bank_declined``, ``bank``).  A home-play deal (``mode`` ``"pot"``) has no
banker: its ``pot`` says what was carried in, the antes, and who took the pot or that it carried
over; each seat holds its ante, its setting and whether it held a highest hand.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from ..rules.bank import Settlement
from ..rules.poker.home_pot import PotResult
from ..rules.records import from_json
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

    @property
    def is_pot(self) -> bool:
        """True for a home-play deal (a pot, no bank)."""
        return isinstance(self.settle.payload().get("pot"), dict)

    def settlement(self) -> Settlement[Any] | PotResult[Any]:
        """The rules core's settlement, decoded (and re-checked) from the settle record: a
        ``Settlement``, or for a home-play deal the pot's ``PotResult`` (``is_pot``)."""
        made = from_json(self.settle.payload())
        if not isinstance(made, Settlement | PotResult):
            raise JournalCorruptError(f"record {self.settle.seq} is not a settlement")
        return made

    def _opened(self) -> Json:
        for record in self.records:
            if record.kind == "round_opened":
                return record.payload()
        return {}

    def _bank(self) -> Json | None:
        """The bank offer (rotation) and a player's bank, or None when neither happened."""
        offered: Json | None = None
        for record in self.records:
            data = record.payload()
            if record.kind == "bank_offered":
                offered = {"offered": data.get("position"), "skipped": data.get("skipped", []),
                           "declined": False, "taken_by": None, "amount": None}
            elif record.kind == "bank_declined" and offered is not None:
                offered["declined"] = True
            elif record.kind == "bank":
                offered = offered or {"offered": None, "skipped": [], "declined": False}
                offered.update(taken_by=data.get("position"), amount=data.get("amount"))
        return offered

    def to_json(self) -> Json:
        """Hands (as set), wagers, outcomes and payouts per seat, the banker, and every step."""
        settle = self.settle.payload()
        opened = self._opened()
        head = {
            "round_id": self.round_id, "replay": self.replay, "settled_seq": self.settle.seq,
            "ts": self.settle.ts, "game": settle.get("game", opened.get("game", "poker")),
            "profile": opened.get("profile"), "positions": opened.get("positions"),
            "mode": "pot" if self.is_pot else "bank",
        }
        if self.is_pot:
            return {**head, **_pot_view(settle), "records": [r.to_json() for r in self.records]}
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
            **head, "banker": banker, "banker_setting": settle.get("banker_setting"),
            "banker_net": settle.get("net", {}).get(str(banker)), "bank": self._bank(),
            "seats": seats, "records": [r.to_json() for r in self.records],
        }


def _setting_text(text: object) -> Json | None:
    """A pot hand's ``LOW / HIGH`` text as the recall's ``{"low", "high"}`` setting."""
    if not isinstance(text, str) or text.count("/") != 1:
        return None
    low, high = text.split("/")
    return {"low": low.split(), "high": high.split()}


def _pot_view(settle: Json) -> Json:
    """A home-play deal: the pot (carried in, antes, taken by whom or carried) and each seat."""
    pot = settle.get("pot", {})
    net = settle.get("net", {})
    winner = pot.get("winner")
    best_low, best_high = pot.get("best_low", []), pot.get("best_high", [])
    exempt = pot.get("exempt_next", [])
    seats = []
    for hand in pot.get("hands", []):
        position = hand.get("position")
        outcome = ("carry" if winner is None else "pot" if position == winner else "loss")
        seats.append({
            "position": position, "setting": _setting_text(hand.get("setting")),
            "wager": hand.get("ante"), "ante": hand.get("ante"), "fortune": None,
            "outcome": outcome, "commission": 0, "net": net.get(str(position)),
            "best_low": position in best_low, "best_high": position in best_high,
            "fouled": hand.get("fouled"), "reset_from": _setting_text(hand.get("reset_from")),
            "antes_next": winner is not None or position not in exempt,
        })
    return {
        "banker": None, "banker_setting": None, "banker_net": None, "bank": None,
        "pot": {key: pot.get(key) for key in ("carried", "antes", "total", "winner", "carry",
                                              "best_low", "best_high", "exempt_next")},
        "seats": seats,
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
