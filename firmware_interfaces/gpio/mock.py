"""Mock pins for tests and the simulated table: press buttons, flip the lid, read the outputs.

``MockLines`` drives a ``MockFactory``'s pins by line name, as wired by a ``TablePins`` map, so
a test or the simulated table says ``press("panel.confirm")`` rather than ``pin(13)``.  It also
injects the faults of a real contact: chatter on a button, a lid wire that breaks.
"""

from __future__ import annotations

from typing import Any

from gpiozero.pins.mock import MockFactory  # type: ignore[import-untyped]

from ..errors import DeviceConfigError
from .lines import PinFactory
from .pins import TablePins


def mock_factory() -> PinFactory:
    """A fresh gpiozero ``MockFactory`` (call its ``reset()`` when done to free every pin)."""
    factory: PinFactory = MockFactory()
    return factory


class MockLines:
    """Drives input pins and reads output pins of a ``MockFactory`` by ``section.name``."""

    def __init__(self, factory: PinFactory, pins: TablePins) -> None:
        self._factory: Any = factory
        self._pins = pins.by_name()

    def _pin(self, line: str) -> Any:
        try:
            return self._factory.pin(self._pins[line])
        except KeyError:
            raise DeviceConfigError(f"unknown line {line!r}; known: {sorted(self._pins)}") from None

    def press(self, line: str) -> None:
        """Close a contact (button pressed, lid closed): drive its pin low."""
        self._pin(line).drive_low()

    def release(self, line: str) -> None:
        """Open a contact (button released, lid opened, wire cut): drive its pin high."""
        self._pin(line).drive_high()

    def click(self, line: str) -> None:
        """Press and release a button."""
        self.press(line)
        self.release(line)

    def chatter(self, line: str, bounces: int) -> None:
        """Press a button whose contact bounces ``bounces`` times before it settles closed."""
        for _ in range(bounces):
            self.press(line)
            self.release(line)
        self.press(line)

    def level(self, line: str) -> bool:
        """The pin's level now (True = high)."""
        return bool(self._pin(line).state)

    def history(self, line: str) -> list[bool]:
        """Every level the pin went through since it was set up or ``clear_history``."""
        return [bool(s.state) for s in self._pin(line).states]

    def clear_history(self, line: str) -> None:
        """Forget a pin's recorded levels (its current level stays the first entry)."""
        self._pin(line).clear_states()
