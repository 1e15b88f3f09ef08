"""Pin maps of a table's GPIO devices: pure, frozen and validated once from configuration.

A table hardware config (``config/tables/*.toml``) gives BCM pin numbers by name in a
``[panel]`` table (the dealer panel) and an optional ``[shaker_lines]`` table (the dice
shaker's lid switch, motor and player button).  Unknown or missing names, non-integer pins,
pins outside 0..27 and a pin used twice are errors that name the bad key and value.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any, Self

from ..config_check import unknown_keys
from ..errors import DeviceConfigError

BCM_PINS = range(28)
"""The BCM GPIO numbers of a Raspberry Pi's 40-pin header."""


class PinMapError(DeviceConfigError):
    """A pin map that is incomplete, names an unknown line, or uses a pin badly."""


def _check_pin(section: str, name: str, value: object) -> int:
    # bool is an int subclass: `confirm = true` must not become pin 1.
    if isinstance(value, bool) or not isinstance(value, int):
        raise PinMapError(f"[{section}] {name} = {value!r}: a pin must be an integer BCM number")
    if value not in BCM_PINS:
        raise PinMapError(f"[{section}] {name} = {value!r}: BCM pins are 0..27")
    return value


def _check_unique(section: str, pins: Mapping[str, int]) -> None:
    seen: dict[int, str] = {}
    for name, pin in pins.items():
        if pin in seen:
            raise PinMapError(f"[{section}] pin {pin} is used twice: by {seen[pin]!r} and {name!r}")
        seen[pin] = name


class _PinMap:
    """Shared behaviour of the pin-map dataclasses below (each names its TOML section)."""

    __slots__ = ()
    SECTION = ""

    def __post_init__(self) -> None:
        pins = self.to_mapping()
        for name, pin in pins.items():
            _check_pin(self.SECTION, name, pin)
        _check_unique(self.SECTION, pins)

    @classmethod
    def names(cls) -> tuple[str, ...]:
        """The line names this map requires, in declaration order."""
        return tuple(f.name for f in fields(cls))  # type: ignore[arg-type]

    @classmethod
    def from_mapping(cls, data: Mapping[str, object]) -> Self:
        """Validate a section (name -> BCM pin); every error names the bad key or value."""
        if not isinstance(data, Mapping):
            raise PinMapError(f"[{cls.SECTION}] must be a table of pins, not {data!r}")
        known = cls.names()
        unknown = unknown_keys(data, known)
        if unknown:  # all of them: a miswired panel file usually has more than one
            raise PinMapError(f"[{cls.SECTION}] unknown key(s) {unknown!r}; known: {list(known)}")
        missing = [name for name in known if name not in data]
        if missing:
            raise PinMapError(f"[{cls.SECTION}] missing pin(s) {missing!r}")
        pins: dict[str, Any] = {name: _check_pin(cls.SECTION, name, data[name]) for name in known}
        return cls(**pins)

    def to_mapping(self) -> dict[str, int]:
        """The map as plain data (name -> pin), the form ``from_mapping`` reads."""
        return {f.name: getattr(self, f.name) for f in fields(self)}  # type: ignore[arg-type]


@dataclass(frozen=True, slots=True)
class PanelPins(_PinMap):
    """BCM pins of the dealer panel: five buttons, the tower light's lamps and the buzzer."""

    SECTION = "panel"

    new_round: int
    shake: int
    confirm: int
    void: int
    call_supervisor: int
    light_green: int
    light_amber: int
    light_red: int
    buzzer: int


@dataclass(frozen=True, slots=True)
class ShakerPins(_PinMap):
    """BCM pins of the dice shaker's GPIO lines: lid switch, motor and the player's button."""

    SECTION = "shaker_lines"

    lid_switch: int
    motor: int
    shake_button: int


@dataclass(frozen=True, slots=True)
class TablePins:
    """Every GPIO line of one table; no pin serves two lines, across sections too."""

    panel: PanelPins
    shaker: ShakerPins | None = None

    def __post_init__(self) -> None:
        _check_unique("panel/shaker_lines", self.by_name())

    @classmethod
    def from_config(cls, data: Mapping[str, object]) -> TablePins:
        """Read ``[panel]`` and the optional ``[shaker_lines]`` of a parsed table config.

        Other sections of the file (serial URLs, ...) belong to their own models.
        """
        if "panel" not in data:
            raise PinMapError("table config: missing [panel] section")
        panel = PanelPins.from_mapping(_section(data, "panel"))
        shaker = None
        if "shaker_lines" in data:
            shaker = ShakerPins.from_mapping(_section(data, "shaker_lines"))
        return cls(panel, shaker)

    def by_name(self) -> dict[str, int]:
        """Every line as ``section.name`` -> pin, e.g. ``panel.confirm``."""
        lines = {f"panel.{name}": pin for name, pin in self.panel.to_mapping().items()}
        if self.shaker is not None:
            lines.update({f"shaker_lines.{n}": p for n, p in self.shaker.to_mapping().items()})
        return lines


def _section(data: Mapping[str, object], key: str) -> Mapping[str, object]:
    value = data[key]
    if not isinstance(value, Mapping):
        raise PinMapError(f"[{key}] must be a table of pins, not {value!r}")
    return value
