"""The simulated dice shaker: three dice, lid and door, shake quality, the player's button."""

from __future__ import annotations

from dataclasses import dataclass

from ..protocol.common import CountersCmd, Fault, StatusCmd
from ..protocol.records import Record
from ..protocol.shaker import (
    REQUEST_CATALOGUE,
    Lid,
    ShakeCmd,
    ShakerCounters,
    ShakeResult,
    ShakerStatus,
)
from .base import SimDevice, parse_bool, parse_count

MODEL = "DSH-3"
WEAK_BELOW = 60


@dataclass
class ShakerFaults:
    """How many of the next shakes come out cocked, unchanged or weak."""

    cocked: int = 0
    unchanged: int = 0
    weak: int = 0


class ShakerSim(SimDevice):
    """An automatic dice shaker that reads its three dice after each shake."""

    DEVICE = "shaker"
    REQUESTS = REQUEST_CATALOGUE

    def __init__(self, seed: int | None = None, faults: ShakerFaults | None = None,
                 serial: str | None = None) -> None:
        super().__init__(MODEL, seed, serial, ("button",))
        self.faults = faults or ShakerFaults()
        self.lid_open = False
        self.last: tuple[int, ...] | None = None
        self.usage = {"shakes": 0, "button_shakes": 0, "cocked": 0, "unchanged": 0, "weak": 0,
                      "lid_opens": 0}

    def handle_own(self, request: Record) -> tuple[Record, list[Record]]:
        """Shake, status and counters."""
        if isinstance(request, StatusCmd):
            state = "door_open" if self.door_open else "lid_open" if self.lid_open else "ready"
            return ShakerStatus(state, self.lid_open, self.door_open, self.usage["shakes"]), []
        if isinstance(request, CountersCmd):
            return ShakerCounters(**self.usage, door_opens=self.door_opens,
                                  power_ons=self.power_ons), []
        if isinstance(request, ShakeCmd):
            return self._shake(request, "command")
        return self.refuse(request, "unsupported")

    def _shake(self, request: Record, source: str) -> tuple[Record, list[Record]]:
        if self.door_open:
            return self.refuse(request, "door_open")
        if self.lid_open:
            return self.refuse(request, "lid_open")
        f, usage = self.faults, self.usage
        usage["shakes"] += 1
        usage["button_shakes"] += source == "button"
        quality = self.rng.randint(WEAK_BELOW + 15, 100)
        dice: tuple[int, ...] | None = tuple(self.rng.randint(1, 6) for _ in range(3))
        if f.cocked:
            f.cocked -= 1
            dice, result = None, "cocked"
        elif f.unchanged and self.last is not None:
            f.unchanged -= 1
            dice, result = self.last, "unchanged"
        elif f.weak:
            f.weak -= 1
            quality, result = self.rng.randint(20, WEAK_BELOW - 1), "weak"
        else:
            result = "ok"
        if result != "ok":
            usage[result] += 1
        if dice is not None:
            self.last = dice
        return ShakeResult(usage["shakes"], dice, result, quality, source), []

    def press_button(self) -> list[Record]:
        """The player pressed the button: a shake whose result is an event (or a fault)."""
        reply, events = self._shake(ShakeCmd(), "button")
        if isinstance(reply, ShakeResult):
            return [reply, *events]
        return [Fault(getattr(reply, "code", "refused"))]

    def set_lid(self, is_open: bool) -> list[Record]:
        """Open or close the lid (an event when it changes)."""
        if is_open == self.lid_open:
            return []
        self.lid_open = is_open
        self.usage["lid_opens"] += is_open
        return [Lid(is_open)]

    def clear(self) -> list[Record]:
        """Nothing latches on the shaker: lid and door clear by closing."""
        return []

    def control_own(self, key: str, value: str) -> list[Record]:
        """``cocked``, ``unchanged``, ``weak`` (next N shakes), ``lid``, ``button``."""
        if key in ("cocked", "unchanged", "weak"):
            setattr(self.faults, key, parse_count(value))
            return []
        if key == "lid":
            return self.set_lid(parse_bool(value))
        if key == "button":
            return self.press_button() if parse_bool(value) else []
        raise ValueError(f"unknown shaker control {key!r}")



