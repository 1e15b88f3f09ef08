"""Dice shaker messages: shake on command or on the player's button, three dice, lid and door.

A shake's ``result`` is ``ok``, ``unchanged`` (the dice did not move or change since the last
shake: no game), ``cocked`` (a die is not flat: no game, ``dice`` is ``-``) or ``weak`` (the
shake quality fell below the device's threshold: no game).
"""

from __future__ import annotations

from dataclasses import dataclass

from .common import EVENTS, REPLIES, REQUESTS
from .records import Catalogue, Record, check

RESULTS = ("ok", "unchanged", "cocked", "weak")
SOURCES = ("command", "button")
STATES = ("ready", "lid_open", "door_open")


@dataclass(frozen=True)
class ShakeCmd(Record):
    """Shake the dice now."""

    NAME = "SHAKE"


@dataclass(frozen=True)
class ShakeResult(Record):
    """One shake: its number, the three dice (``None`` when cocked), result, quality, source."""

    NAME = "DICE"
    shake: int
    dice: tuple[int, ...] | None
    result: str
    quality: int
    source: str

    def __post_init__(self) -> None:
        check(self.result in RESULTS, self.NAME, f"result {self.result!r} is not one of "
              f"{', '.join(RESULTS)}")
        check(self.source in SOURCES, self.NAME, f"source {self.source!r} is not command or button")
        check(0 <= self.quality <= 100, self.NAME, f"quality {self.quality!r} is not 0..100")
        check((self.dice is None) == (self.result == "cocked"), self.NAME,
              "dice are '-' exactly when the result is cocked")
        if self.dice is not None:
            check(len(self.dice) == 3 and all(1 <= d <= 6 for d in self.dice), self.NAME,
                  f"dice {self.dice!r} are not three values 1..6")

    @property
    def game(self) -> bool:
        """True when the shake counts (not cocked, changed, strong enough)."""
        return self.result == "ok"


@dataclass(frozen=True)
class ShakerStatus(Record):
    """The shaker's state, lid and door, and how many shakes it has done."""

    NAME = "STATE"
    state: str
    lid_open: bool
    door_open: bool
    shakes: int

    def __post_init__(self) -> None:
        check(self.state in STATES, self.NAME, f"state {self.state!r} is not one of "
              f"{', '.join(STATES)}")


@dataclass(frozen=True)
class ShakerCounters(Record):
    """Usage counters since manufacture."""

    NAME = "USAGE"
    shakes: int
    button_shakes: int
    cocked: int
    unchanged: int
    weak: int
    lid_opens: int
    door_opens: int
    power_ons: int


@dataclass(frozen=True)
class Lid(Record):
    """The lid (dome) was opened or closed."""

    NAME = "LID"
    open: bool


REQUEST_CATALOGUE = Catalogue((*REQUESTS, ShakeCmd))
DEVICE_CATALOGUE = Catalogue(
    (*REPLIES, *EVENTS, ShakeResult, ShakerStatus, ShakerCounters, Lid)
)
