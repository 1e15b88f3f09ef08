"""The simulated card shuffler: a 53-card deck, seven packets of seven, and its faults."""

from __future__ import annotations

from dataclasses import dataclass

from ..protocol.common import Cleared, CountersCmd, Fault, StatusCmd
from ..protocol.records import Record
from ..protocol.shuffler import (
    CARD,
    DECK_SIZE,
    PACKET_SIZE,
    PACKETS,
    REQUEST_CATALOGUE,
    DealCmd,
    Packet,
    ShuffleCmd,
    ShufflerCounters,
    ShuffleResult,
    ShufflerStatus,
    card_sort_key,
    standard_deck,
)
from .base import SimDevice, parse_bool, parse_count

READING_MODEL = "PGS-7R"
PLAIN_MODEL = "PGS-7"
FOREIGN = "??"
RIGS = ("none", "repeat", "leak", "bias")
"""Misbehaviours for the randomness audit: ``repeat`` deals the previous shuffle's order again,
``leak`` only riffles the previous order once (its runs carry over), ``bias`` always puts the
joker in packet 1."""


@dataclass
class ShufflerFaults:
    """Faults of the next shuffles and deals (``jam_after`` fires once, then resets)."""

    jam_after: int | None = None
    cards: int = DECK_SIZE
    duplicate: str | None = None
    foreign: bool = False
    rig: str = "none"

    def __post_init__(self) -> None:
        if self.rig not in RIGS:
            raise ValueError(f"rig={self.rig!r} is not one of {', '.join(RIGS)}")
        if self.cards not in (DECK_SIZE - 1, DECK_SIZE, DECK_SIZE + 1):
            raise ValueError(f"cards={self.cards!r}: the simulator loads 52, 53 or 54 cards")
        if self.duplicate is not None and not CARD.fullmatch(self.duplicate):
            raise ValueError(f"duplicate={self.duplicate!r} is not a card code like As or Jk")


class ShufflerSim(SimDevice):
    """A Pai Gow Poker shuffler: counts the deck at each shuffle, deals packets, jams on cue."""

    DEVICE = "shuffler"
    REQUESTS = REQUEST_CATALOGUE

    def __init__(self, seed: int | None = None, faults: ShufflerFaults | None = None,
                 reads_cards: bool = True, serial: str | None = None) -> None:
        super().__init__(READING_MODEL if reads_cards else PLAIN_MODEL, seed, serial,
                         ("read_cards",) if reads_cards else ())
        self.faults = faults or ShufflerFaults()
        self.reads_cards = reads_cards
        self._deck: list[str] = []  # private: never sent, never exposed
        self._deck_ok = False
        self.shuffle_no = 0
        self.packets = 0
        self.count = 0
        self.jammed = False
        self.usage = {"shuffles": 0, "packets": 0, "cards": 0, "jams": 0}

    def handle_own(self, request: Record) -> tuple[Record, list[Record]]:
        """Shuffle, deal, status and counters."""
        if isinstance(request, StatusCmd):
            return self._status(), []
        if isinstance(request, CountersCmd):
            return ShufflerCounters(**self.usage, door_opens=self.door_opens,
                                    power_ons=self.power_ons), []
        if isinstance(request, ShuffleCmd | DealCmd):
            if self.door_open:
                return self.refuse(request, "door_open")
            if self.jammed:
                return self.refuse(request, "jam")
            return self._shuffle() if isinstance(request, ShuffleCmd) else self._deal(request)
        return self.refuse(request, "unsupported")

    def _status(self) -> ShufflerStatus:
        if self.door_open:
            state = "door_open"
        elif self.jammed:
            state = "jammed"
        elif not self.shuffle_no:
            state = "need_shuffle"
        elif not self._deck_ok:
            state = "deck_fault"
        else:
            state = "empty" if self.packets == PACKETS else "ready"
        return ShufflerStatus(state, self.door_open, self.shuffle_no, self.packets, self.count)

    def _shuffle(self) -> tuple[Record, list[Record]]:
        deck, problem, cards = self._load()
        deck = self._mix(deck)
        self._deck, self._deck_ok = deck, problem == "ok"
        self.shuffle_no += 1
        self.usage["shuffles"] += 1
        self.packets, self.count = 0, len(deck)
        shown = tuple(sorted(cards, key=card_sort_key)) if self.reads_cards else ()
        events: list[Record] = [] if self._deck_ok else [Fault("deck")]
        return ShuffleResult(self.shuffle_no, len(deck), problem, shown), events

    def _mix(self, deck: list[str]) -> list[str]:
        """Shuffle ``deck``, or misbehave as the rig says (after a first fair shuffle)."""
        rig, previous = self.faults.rig, self._deck
        if rig in ("repeat", "leak") and self._deck_ok and sorted(previous) == sorted(deck):
            if rig == "repeat":
                return list(previous)
            cut = len(previous) // 2 + self.rng.randint(-4, 4)
            left, right, mixed = previous[:cut], previous[cut:], []
            while left or right:  # drop from each half in proportion to what it holds
                pile = left if self.rng.randrange(len(left) + len(right)) < len(left) else right
                mixed.append(pile.pop(0))
            return mixed
        self.rng.shuffle(deck)
        if rig == "bias" and "Jk" in deck:
            deck.remove("Jk")
            deck.insert(self.rng.randrange(PACKET_SIZE), "Jk")
        return deck

    def _load(self) -> tuple[list[str], str, list[str]]:
        """The cards in the machine after the faults: the deck, its problem and problem cards."""
        deck = list(standard_deck())
        f = self.faults
        if f.cards < DECK_SIZE:
            missing = deck.pop(self.rng.randrange(len(deck)))
            return deck, "missing", [missing]
        if f.cards > DECK_SIZE:
            extra = self.rng.choice(deck)
            return [*deck, extra], "extra", [extra]
        if f.duplicate is not None:
            others = [i for i, c in enumerate(deck) if c != f.duplicate]
            deck[self.rng.choice(others)] = f.duplicate
            return deck, "duplicate", [f.duplicate]
        if f.foreign:
            deck[self.rng.randrange(len(deck))] = FOREIGN
            return deck, "foreign", []
        return deck, "ok", []

    def _deal(self, request: Record) -> tuple[Record, list[Record]]:
        if not self.shuffle_no:
            return self.refuse(request, "need_shuffle")
        if not self._deck_ok:
            return self.refuse(request, "deck")
        if self.packets == PACKETS:
            return self.refuse(request, "empty")
        if self.faults.jam_after is not None and self.packets >= self.faults.jam_after:
            self.faults.jam_after = None
            self.jammed = True
            self.usage["jams"] += 1
            return self.refuse(request, "jam")[0], [Fault("jam")]
        start = self.packets * PACKET_SIZE
        cards = tuple(self._deck[start : start + PACKET_SIZE])
        self.packets += 1
        self.usage["packets"] += 1
        self.usage["cards"] += len(cards)
        shown = cards if self.reads_cards else None
        return Packet(self.shuffle_no, self.packets, len(cards), shown), []

    def clear(self) -> list[Record]:
        """Clear a jam: the packet that jammed is delivered by the next deal."""
        if not self.jammed:
            return []
        self.jammed = False
        return [Cleared("jam")]

    def control_own(self, key: str, value: str) -> list[Record]:
        """``jam_after``, ``cards``, ``duplicate``, ``foreign``, ``rig``."""
        f = self.faults
        if key == "jam_after":
            f.jam_after = None if value == "-" else parse_count(value)
        elif key == "cards":
            f.cards = ShufflerFaults(cards=int(value)).cards
        elif key == "duplicate":
            f.duplicate = ShufflerFaults(duplicate=None if value == "-" else value).duplicate
        elif key == "foreign":
            f.foreign = parse_bool(value)
        elif key == "rig":
            f.rig = ShufflerFaults(rig=value).rig
        else:
            raise ValueError(f"unknown shuffler control {key!r}")
        return []
