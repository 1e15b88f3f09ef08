"""In-memory fakes of the three ports: scriptable, with fault injection and a history.

Demo and tests use them; each keeps ``history``, the calls it answered, and takes faults
queued with ``inject`` (``"lost"`` for a device that stops answering, and the device's own).
"""

from __future__ import annotations

import random
import secrets
from collections import deque
from collections.abc import Iterable, Mapping

from ..journal import Randomness
from ..rules.poker.cards import full_deck
from .errors import DeviceLostError
from .ports import DiceRoll

FAKE_FAULTS = ("lost", "short_count", "duplicate", "no_game")
"""Faults a fake can be told to produce next (each fake takes the ones that fit it)."""


class _Faulty:
    def __init__(self, name: str) -> None:
        self.name = name
        self.history: list[str] = []
        self._faults: deque[str] = deque()

    def inject(self, fault: str) -> None:
        """Make the next call (that this fault fits) fail this way."""
        if fault not in FAKE_FAULTS:
            raise ValueError(f"unknown fault {fault!r}; known: {list(FAKE_FAULTS)}")
        self._faults.append(fault)

    def _take(self, *kinds: str) -> str | None:
        if self._faults and self._faults[0] in kinds:
            return self._faults.popleft()
        return None

    def _lost(self, call: str) -> None:
        if self._take("lost"):
            self.history.append(f"{call}: lost")
            raise DeviceLostError(f"{self.name} stopped answering during {call}")


def _rng(seed: int | None) -> random.Random:
    """A seeded generator (test, replay), or the operating system's ``secrets`` for None."""
    return secrets.SystemRandom() if seed is None else random.Random(seed)


def _randomness(seed: int | None) -> Randomness:
    return Randomness.production() if seed is None else Randomness.seeded(seed)


class FakeShuffler(_Faulty):
    """A shuffler dealing a seeded shuffle of the 53 cards (``seed`` None: drawn from
    ``secrets``); ``short_count`` drops a card, ``duplicate`` repeats a card of the previous
    packet in the next one."""

    def __init__(self, seed: int | None = 0, name: str = "shuffler-1") -> None:
        super().__init__(name)
        self.seed = seed
        self._rng = _rng(seed)
        self._deck: list[str] = []
        self._dealt: list[str] = []

    @property
    def randomness(self) -> Randomness | None:
        """``seeded:N`` (test, replay) or ``secrets``, as the fake was made."""
        return _randomness(self.seed)

    def shuffle(self) -> int:
        """Shuffle a fresh deck and count it."""
        self._lost("shuffle")
        deck = [str(c) for c in full_deck()]
        self._rng.shuffle(deck)
        if self._take("short_count"):
            deck.pop()
        self._deck, self._dealt = deck, []
        self.history.append(f"shuffle: {len(deck)}")
        return len(deck)

    def next_packet(self) -> tuple[str, ...]:
        """The next seven cards."""
        self._lost("next_packet")
        packet = self._deck[len(self._dealt):len(self._dealt) + 7]
        if self._take("duplicate") and self._dealt:
            packet[0] = self._dealt[-1]
        self._dealt.extend(packet)
        self.history.append(f"packet: {' '.join(packet)}")
        return tuple(packet)


class FakeDice(_Faulty):
    """A shaker rolling seeded dice (``seed`` None: drawn from ``secrets``), or the scripted
    rolls first; ``no_game`` spoils one shake."""

    def __init__(self, seed: int | None = 0, script: Iterable[tuple[int, int, int]] = (),
                 name: str = "shaker-1") -> None:
        super().__init__(name)
        self.seed = seed
        self._rng = _rng(seed)
        self._script = deque(script)

    @property
    def randomness(self) -> Randomness | None:
        """``seeded:N`` (test, replay) or ``secrets``, as the fake was made."""
        return _randomness(self.seed)

    def roll(self) -> DiceRoll:
        """The next scripted roll, else three seeded faces."""
        self._lost("roll")
        if self._take("no_game"):
            self.history.append("roll: no game")
            return DiceRoll(None, "cocked die")
        if self._script:
            a, b, c = self._script.popleft()
        else:
            a, b, c = (self._rng.randint(1, 6) for _ in range(3))
        self.history.append(f"roll: {a},{b},{c}")
        return DiceRoll((a, b, c))


class FakeCamera(_Faulty):
    """A camera that sees what it is told: ``see(position, text)``; unknown positions read None."""

    def __init__(self, seen: Mapping[int, str | None] | None = None,
                 name: str = "camera-1") -> None:
        super().__init__(name)
        self.seen: dict[int, str | None] = dict(seen or {})
        self.dice: tuple[int, ...] | None = None

    def see(self, position: int, setting: str | None) -> None:
        """What the camera will read at ``position`` (None: it cannot tell)."""
        self.seen[position] = setting

    def read(self, position: int) -> str | None:
        """What it was told it sees at ``position``."""
        self._lost("read")
        text = self.seen.get(position)
        self.history.append(f"read {position}: {text}")
        return text

    def see_dice(self, values: tuple[int, ...] | None) -> None:
        """What the camera will read in the dice area (None: it cannot tell)."""
        self.dice = values

    def read_dice(self) -> tuple[int, ...] | None:
        """The dice it was told it sees (None unless told)."""
        self._lost("read_dice")
        values = self.dice
        self.history.append(f"read dice: {values}")
        return values
