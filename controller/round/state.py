"""A round's state, and how one journal record changes it: the only way state ever changes.

The engine appends a record and folds it here; recovery and replay fold the same records the
same way, so a round rebuilt from its journal is the round that was played.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Generic, TypeVar

from ..journal import Record
from ..rules.dice import Dice
from ..rules.poker.cards import DECK_SIZE
from ..rules.poker.dealing import HOUSE, Deal, deal
from ..rules.poker.home_pot import PotStatus
from ..rules.seat import Bet, SetBy
from .games import GameRules

S = TypeVar("S")


class Phase(StrEnum):
    """Where a round is.  Tiles skip ``shuffled`` and ``dealing``."""

    BETTING = "betting"
    CLOSED = "closed"  # bets closed; poker: shuffle next, tiles: build the woodpile
    SHUFFLED = "shuffled"
    DEALING = "dealing"
    DEALT = "dealt"  # every packet out (poker) or the woodpile built (tiles): roll next
    SETTING = "setting"  # dice rolled, hands go to positions; players set
    EXPOSED = "exposed"  # dealer's hand exposed and its house way computed; camera, then settle
    SETTLED = "settled"
    VOIDED = "voided"


CLOSED_PHASES = frozenset({Phase.SETTLED, Phase.VOIDED})


@dataclass(frozen=True, slots=True)
class Entry(Generic[S]):
    """A position's setting as it stands, the record that set it and who set it."""

    setting: S
    seq: int
    by: SetBy = SetBy.PLAYER


@dataclass(frozen=True, slots=True)
class Exposure(Generic[S]):
    """The dealer's hand: as the dealer set it, and as the house way sets it."""

    setting: S
    house_way: S
    rule: str
    seq: int


@dataclass(slots=True)
class RoundState(Generic[S]):
    """Everything known about one round; changed only by ``fold``."""

    round_id: str
    replay: bool
    phase: Phase = Phase.BETTING
    banker: int = HOUSE
    bank: int | None = None
    bets: dict[int, tuple[Bet, int]] = field(default_factory=dict)
    count: int | None = None
    packets: list[tuple[str, ...]] = field(default_factory=list)
    dice: Dice | None = None
    no_games: int = 0
    plan: Deal | None = None
    settings: dict[int, Entry[S]] = field(default_factory=dict)
    exposure: Exposure[S] | None = None
    camera: dict[int, str | None] = field(default_factory=dict)
    dice_seen: bool = False
    """Whether the camera has read the dice area since the last roll."""
    faults: dict[str, dict[str, Any]] = field(default_factory=dict)
    deviations: list[int] = field(default_factory=list)
    settlement: dict[str, Any] | None = None
    void_reason: str | None = None
    records: list[Record] = field(default_factory=list)
    pot: PotStatus | None = None  # home play: the pot carried in and who need not ante
    bank_offer: int | None = None  # banking rotation: the position offered the bank
    bank_declined: bool = False

    @property
    def closed(self) -> bool:
        """True once settled or voided."""
        return self.phase in CLOSED_PHASES

    @property
    def critical_faults(self) -> list[str]:
        """Ids of the active faults that stop play."""
        return [f for f, p in self.faults.items() if p.get("critical")]

    def vacant(self, positions: int) -> frozenset[int]:
        """Positions with no bet: their hands are collected unseen."""
        return frozenset(p for p in range(2, positions + 1)
                         if p not in self.bets and p != self.banker)

    def playing(self) -> tuple[int, ...]:
        """Positions that play a hand, in order (after the roll)."""
        return tuple(sorted(self.plan.playing)) if self.plan else ()


def fold(state: RoundState[S], record: Record, game: GameRules[S]) -> None:
    """Apply one record of this round to its state."""
    data = record.payload()
    kind = record.kind
    state.records.append(record)
    if kind == "bet":
        bet = Bet(data["position"], data["wager"], data["fortune"])
        state.bets[bet.position] = (bet, record.seq)
    elif kind == "bank":
        state.banker, state.bank = data["position"], data["amount"]
    elif kind == "bets_closed":
        state.phase = Phase.CLOSED
    elif kind == "shuffled":
        state.count, state.packets = data["count"], []
        if data["count"] == DECK_SIZE:
            state.phase = Phase.SHUFFLED
    elif kind == "packet":
        state.packets.append(tuple(data["cards"]))
        state.phase = Phase.DEALT if len(state.packets) == game.positions else Phase.DEALING
    elif kind == "woodpile_built":
        state.phase = Phase.DEALT
    elif kind == "roll":
        state.dice = Dice.of(data["dice"])
        state.plan = deal(state.dice, state.vacant(game.positions), game.positions,
                          state.banker)
        state.phase = Phase.SETTING
        state.dice_seen = False
    elif kind == "dice_no_game":
        state.no_games += 1
    elif kind == "set":
        by = SetBy(data["by"])
        state.settings[data["position"]] = Entry(game.parse(_text(data["setting"])),
                                                 record.seq, by)
    elif kind == "dealer_exposed":
        state.exposure = Exposure(game.parse(data["setting"]), game.parse(data["house_way"]),
                                  data["rule"], record.seq)
        state.phase = Phase.EXPOSED
    elif kind == "camera_read":
        state.camera[data["position"]] = data["setting"]
    elif kind == "camera_dice":
        state.dice_seen = True
    elif kind == "fault_raised":
        state.faults[data["fault"]] = data
    elif kind == "fault_cleared":
        state.faults.pop(data["fault"], None)
    elif kind == "correction":
        _correct(state, data, record.seq, game)
    elif kind == "deviation":
        state.deviations.append(record.seq)
    elif kind == "settle":
        state.settlement, state.phase = data, Phase.SETTLED
    elif kind == "round_voided":
        state.void_reason, state.phase = data["reason"], Phase.VOIDED
    elif kind == "pot_carried":
        state.pot = PotStatus(data["pot"], frozenset(data["exempt"]))
    elif kind == "bank_offered":
        state.bank_offer = data["position"]
    elif kind == "bank_declined":
        state.bank_declined = True


def _text(setting: dict[str, list[str]]) -> str:
    """A setting's JSON form (``{"low", "high"}``) as its text."""
    return f"{' '.join(setting['low'])} / {' '.join(setting['high'])}"


def _correct(state: RoundState[S], data: dict[str, Any], seq: int, game: GameRules[S]) -> None:
    target = data["target"]
    if target == "bet":
        bet = Bet(data["position"], data["wager"], data["fortune"])
        if bet.wager == 0 and bet.fortune == 0:
            state.bets.pop(bet.position, None)
        else:
            state.bets[bet.position] = (bet, seq)
    elif target == "set":
        old = state.settings[data["position"]]
        state.settings[data["position"]] = Entry(game.parse(data["setting"]), seq, old.by)
    elif target == "dealer" and state.exposure is not None:
        old_exposure = state.exposure
        state.exposure = Exposure(game.parse(data["setting"]), old_exposure.house_way,
                                  old_exposure.rule, seq)
