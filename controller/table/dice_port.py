"""The engine's ``DicePort`` on a dice shaker driver: three faces, or why the shake is no game.

A shake whose dice are cocked, unchanged since the last shake or shaken too weakly does not
count: the port returns a ``DiceRoll`` with the reason, and the engine records a no-game.
"""

from __future__ import annotations

from firmware_interfaces.link_config import Timing
from firmware_interfaces.protocol.shaker import ShakeResult
from firmware_interfaces.shaker import ShakerDriver

from ..round.ports import DiceRoll
from .device_calls import SerialPort, check_fault, device_call, silence_for

SHAKER_FAULTS = ("lost", "no_game")
"""Faults ``inject`` makes a simulated shaker produce (the names the round fakes use)."""


def no_game_reason(result: ShakeResult) -> str:
    """Why a shake that is not a game does not count, in words."""
    if result.result == "cocked":
        return "cocked die"
    if result.result == "unchanged":
        return f"dice unchanged since the last shake ({_faces(result)})"
    if result.result == "weak":
        return f"weak shake (quality {result.quality})"
    return f"shake result {result.result!r}"


def _faces(result: ShakeResult) -> str:
    return "-" if result.dice is None else ",".join(str(d) for d in result.dice)


class SerialDicePort(SerialPort[ShakerDriver]):
    """A ``DicePort`` on a ``ShakerDriver``; ``history`` keeps what it answered."""

    def __init__(self, driver: ShakerDriver, name: str = "shaker-1",
                 timing: Timing | None = None) -> None:
        super().__init__(driver, name, timing)
        self.calls = {"roll": ("shake", self.driver.shake)}

    def roll(self) -> DiceRoll:
        """Shake once: three faces, or the no-game reason."""
        result: ShakeResult = self._call("roll")
        self.history.append(f"shake {result.shake}: {result.result} {_faces(result)}")
        if not result.game:
            return DiceRoll(None, no_game_reason(result))
        assert result.dice is not None
        a, b, c = result.dice
        return DiceRoll((a, b, c))

    def control(self, **settings: str | int | float | bool) -> None:
        """Simulator fault injection (``cocked=1``, ``lid=True``, ``door=True``)."""
        device_call(self._name, "take a control command",
                    lambda: self.driver.control(**settings))

    def inject(self, fault: str) -> None:
        """Make the simulator fail the next shake: ``lost`` (silent through every retry) or
        ``no_game`` (a cocked die)."""
        check_fault(self._name, fault, SHAKER_FAULTS)
        if fault == "lost":
            self.control(silence=silence_for(self._timing))
        else:
            self.control(cocked=1)
        self.history.append(f"inject {fault}")

    def close(self) -> None:
        """Release the line."""
        self.driver.close()
