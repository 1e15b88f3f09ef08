"""Ports that answer with what a journal recorded: replay's devices and camera.

Each is built from a round's records in order and hands back, call by call, what the real
device answered then (a count, a packet, a roll, a reading) or fails again where it was lost.
A call the recording has no answer for raises ``ReplayScriptError``.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from typing import Any

from ..journal import Randomness, Record
from ..round.errors import DeviceLostError, PortError
from ..round.ports import DiceRoll


class ReplayScriptError(PortError):
    """The replayed round asked a device for more, or other, than the recording holds."""


class _Recorded:
    def __init__(self, name: str, randomness: Randomness | None) -> None:
        self.name = name
        self.randomness = randomness
        self.script: deque[tuple[str, Any]] = deque()

    def _next(self, call: str) -> Any:
        if not self.script:
            raise ReplayScriptError(f"{self.name}: the recording has no answer to {call}")
        what, value = self.script.popleft()
        if what == "lost":
            raise DeviceLostError(str(value))  # the recorded text, so the fault is the same
        if what != call:
            raise ReplayScriptError(f"{self.name}: asked to {call}, the recording has {what}")
        return value


class RecordedShuffler(_Recorded):
    """The shuffler's recorded counts and packets."""

    def shuffle(self) -> int:
        """The recorded count."""
        count: int = self._next("shuffle")
        return count

    def next_packet(self) -> tuple[str, ...]:
        """The recorded packet."""
        cards: tuple[str, ...] = self._next("next_packet")
        return cards


class RecordedDice(_Recorded):
    """The shaker's recorded rolls."""

    def roll(self) -> DiceRoll:
        """The recorded roll or no-game."""
        roll: DiceRoll = self._next("roll")
        return roll


class RecordedCamera(_Recorded):
    """The camera's recorded readings."""

    def read(self, position: int) -> str | None:
        """The recorded reading (the position must match too)."""
        at, text = self._next("read")
        if at != position:
            raise ReplayScriptError(f"{self.name}: asked to read {position}, recorded {at}")
        value: str | None = text
        return value

    def read_dice(self) -> tuple[int, ...] | None:
        """The recorded dice reading."""
        values: list[int] | None = self._next("read_dice")
        return None if values is None else tuple(values)


def recorded_ports(records: Iterable[Record]) -> tuple[RecordedShuffler, RecordedDice,
                                                       RecordedCamera | None]:
    """The three ports scripted from one round's records (no camera if it never read)."""
    shuffler = RecordedShuffler("shuffler", None)
    dice = RecordedDice("shaker", None)
    camera = RecordedCamera("camera", None)
    seen_camera = False
    for record in records:
        data = record.payload()
        if record.kind == "shuffled":
            shuffler.name, shuffler.randomness = record.actor, record.randomness
            shuffler.script.append(("shuffle", data["count"]))
        elif record.kind == "packet":
            shuffler.name = record.actor
            shuffler.script.append(("next_packet", tuple(data["cards"])))
        elif record.kind == "roll":
            dice.name, dice.randomness = record.actor, record.randomness
            faces = data["dice"]
            dice.script.append(("roll", DiceRoll((faces[0], faces[1], faces[2]))))
        elif record.kind == "dice_no_game":
            dice.name = record.actor
            dice.script.append(("roll", DiceRoll(None, data["reason"])))
        elif record.kind == "camera_read":
            camera.name, seen_camera = record.actor, True
            camera.script.append(("read", (data["position"], data.get("raw"))))
        elif record.kind == "camera_dice":
            camera.name, seen_camera = record.actor, True
            camera.script.append(("read_dice", data.get("dice")))
        elif record.kind == "fault_raised" and data.get("code") == "device_lost":
            port = {"shuffle": shuffler, "deal_packet": shuffler, "roll": dice,
                    "read_camera": camera, "read_dice": camera}.get(str(data.get("act")))
            if port is not None:
                port.name = record.actor
                port.script.append(("lost", data.get("text")))
                seen_camera = seen_camera or port is camera
    return shuffler, dice, camera if seen_camera else None
