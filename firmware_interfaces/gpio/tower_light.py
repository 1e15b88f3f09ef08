"""The dealer panel's tower light: green, amber and red lamps, each off, steady or blinking.

Patterns are small frozen values with a text form (``red=blink``, ``green=on,amber=blink``,
``off``) and names for the signals the table uses; which signal to show is the controller's
choice.  All blinking lamps share one timing, set when the light is built.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from types import MappingProxyType

from ..errors import DeviceConfigError
from .lines import OutputLine, PinFactory

BLINK_ON = 0.5
"""Seconds a blinking lamp is lit in each cycle."""
BLINK_OFF = 0.5
"""Seconds a blinking lamp is dark in each cycle."""

LAMPS = ("green", "amber", "red")
"""The lamps of the tower, in the order patterns list and print them."""


class LampMode(StrEnum):
    """What one lamp does."""

    OFF = "off"
    ON = "on"
    BLINK = "blink"


@dataclass(frozen=True, slots=True)
class LightPattern:
    """What each lamp of the tower does; prints as ``green=on,red=blink`` (``off`` if dark)."""

    green: LampMode = LampMode.OFF
    amber: LampMode = LampMode.OFF
    red: LampMode = LampMode.OFF

    def modes(self) -> dict[str, LampMode]:
        """Lamp name -> mode, green first."""
        return {lamp: getattr(self, lamp) for lamp in LAMPS}

    def __str__(self) -> str:
        lit = [f"{lamp}={mode}" for lamp, mode in self.modes().items() if mode is not LampMode.OFF]
        return ",".join(lit) or "off"

    @classmethod
    def parse(cls, text: str) -> LightPattern:
        """Parse a signal name (``fault``) or the lamp form (``green=on,red=blink``, ``off``)."""
        word = text.strip().lower()
        if word in SIGNALS:
            return SIGNALS[word]
        modes: dict[str, LampMode] = {}
        for item in word.split(","):
            lamp, sep, mode = (part.strip() for part in item.partition("="))
            if not sep or lamp not in LAMPS or lamp in modes:
                raise DeviceConfigError(
                    f"light pattern {text!r}: bad item {item!r}; expected lamp=mode with lamps "
                    f"{list(LAMPS)} once each, or a signal {sorted(SIGNALS)}"
                )
            try:
                modes[lamp] = LampMode(mode)
            except ValueError as err:
                known = [m.value for m in LampMode]
                raise DeviceConfigError(
                    f"light pattern {text!r}: lamp mode {mode!r}; known: {known}"
                ) from err
        return cls(**modes)

    def without_blinking(self) -> LightPattern:
        """The same pattern with its blinking lamps dark."""
        dark = {k: LampMode.OFF for k, m in self.modes().items() if m is LampMode.BLINK}
        return replace(self, **dark)


ALL_OFF = LightPattern()
"""Every lamp dark (table closed)."""
ROUND_OPEN = LightPattern(green=LampMode.ON)
"""A round is open."""
ATTENTION = LightPattern(amber=LampMode.ON)
"""The dealer must act (a non-critical warning, such as the shaker lid left open)."""
SUPERVISOR_CALLED = LightPattern(amber=LampMode.BLINK)
"""The dealer called a supervisor."""
FAULT = LightPattern(red=LampMode.BLINK)
"""A device fault is active."""
LOCKED = LightPattern(red=LampMode.ON)
"""Play stopped on a critical fault until it is cleared."""
LAMP_TEST = LightPattern(LampMode.ON, LampMode.ON, LampMode.ON)
"""Every lamp lit (power-on lamp test)."""

SIGNALS: Mapping[str, LightPattern] = MappingProxyType({
    "off": ALL_OFF,
    "round_open": ROUND_OPEN,
    "attention": ATTENTION,
    "supervisor_called": SUPERVISOR_CALLED,
    "fault": FAULT,
    "locked": LOCKED,
    "lamp_test": LAMP_TEST,
})
"""The named signals of the tower light."""


class TowerLight:
    """Three lamps on output lines; ``show`` a pattern, blinking in the background."""

    def __init__(
        self,
        green: int,
        amber: int,
        red: int,
        factory: PinFactory,
        *,
        on_time: float = BLINK_ON,
        off_time: float = BLINK_OFF,
    ) -> None:
        if not (on_time > 0 and off_time > 0):
            raise DeviceConfigError(f"blink times {on_time!r}/{off_time!r}: must be > 0 seconds")
        self.on_time = on_time
        self.off_time = off_time
        self._lock = threading.Lock()
        self._pattern = ALL_OFF
        self._lamps: dict[str, OutputLine] = {}
        try:
            for lamp, pin in zip(LAMPS, (green, amber, red), strict=True):
                self._lamps[lamp] = OutputLine(f"light_{lamp}", pin, factory)
        except BaseException:
            self.close()
            raise

    @property
    def pattern(self) -> LightPattern:
        """The pattern shown now."""
        return self._pattern

    def lamp_is_lit(self, lamp: str) -> bool:
        """Whether one lamp's output is on at this instant."""
        return self._lamps[lamp].is_active

    def show(self, pattern: LightPattern, *, cycles: int | None = None) -> None:
        """Show a pattern; blinking lamps blink until the next ``show``.

        With ``cycles``, blinking lamps blink that many times together, the call returns when
        they are done, and they stay dark (a lamp test, or a deterministic check in tests).
        Showing the pattern already shown is a no-op, so blinking keeps its rhythm.
        """
        if cycles is not None and cycles < 1:
            raise DeviceConfigError(f"blink cycles {cycles!r}: must be >= 1")
        with self._lock:
            if cycles is None and pattern == self._pattern:
                return
            blinking: list[OutputLine] = []
            for lamp, mode in pattern.modes().items():
                line = self._lamps[lamp]
                if mode is LampMode.ON:
                    line.on()
                elif mode is LampMode.OFF:
                    line.off()
                else:
                    blinking.append(line)
            if cycles is None:
                for line in blinking:
                    line.blink(self.on_time, self.off_time, None, wait=False)
                self._pattern = pattern
            else:
                self._blink_together(blinking, cycles)
                self._pattern = pattern.without_blinking()

    def _blink_together(self, lines: list[OutputLine], cycles: int) -> None:
        # Each gpiozero blink in the foreground blocks; run them side by side and join them all.
        workers = [
            threading.Thread(
                target=line.blink,
                args=(self.on_time, self.off_time, cycles),
                kwargs={"wait": True},
                name=f"blink-{line.name}",
            )
            for line in lines
        ]
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join()

    def close(self) -> None:
        """Switch every lamp off and release its pin (idempotent)."""
        for line in self._lamps.values():
            if not line.closed:
                line.off()
                line.close()
        self._pattern = ALL_OFF
