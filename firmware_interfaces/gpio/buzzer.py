"""The dealer panel's buzzer: beep patterns as small frozen values, played by gpiozero."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from ..errors import DeviceConfigError
from .lines import OutputLine, PinFactory


@dataclass(frozen=True, slots=True)
class BeepPattern:
    """``count`` beeps of ``on_time`` seconds with ``off_time`` seconds of silence after each."""

    on_time: float
    off_time: float
    count: int = 1

    def __post_init__(self) -> None:
        if not (self.on_time > 0 and self.off_time >= 0) or self.count < 1:
            raise DeviceConfigError(
                f"beep pattern {self.on_time!r}/{self.off_time!r} x{self.count!r}: "
                "needs on_time > 0, off_time >= 0 and count >= 1"
            )

    @property
    def duration(self) -> float:
        """Seconds the whole pattern takes."""
        return self.count * (self.on_time + self.off_time)

    def __str__(self) -> str:
        return f"{self.count}x{self.on_time:g}/{self.off_time:g}s"


KEY = BeepPattern(0.05, 0.05)
"""A short click acknowledging a button."""
CONFIRM = BeepPattern(0.1, 0.1, 2)
"""Two short beeps: an act was accepted."""
REFUSED = BeepPattern(0.4, 0.1)
"""One long beep: a button was pressed when its act is not allowed."""
WARNING = BeepPattern(0.2, 0.2, 3)
"""Three beeps: a non-critical warning."""
ALARM = BeepPattern(0.5, 0.5, 10)
"""Ten long beeps: a fault was raised."""

BEEPS: Mapping[str, BeepPattern] = MappingProxyType({
    "key": KEY,
    "confirm": CONFIRM,
    "refused": REFUSED,
    "warning": WARNING,
    "alarm": ALARM,
})
"""The named beep patterns."""


class PanelBuzzer:
    """A buzzer on one output line; a new beep cuts the one playing."""

    def __init__(self, pin: int, factory: PinFactory) -> None:
        self._line = OutputLine("buzzer", pin, factory)

    @property
    def is_sounding(self) -> bool:
        """Whether the buzzer's output is on at this instant."""
        return self._line.is_active

    def beep(self, pattern: BeepPattern, *, wait: bool = False) -> None:
        """Play a pattern in the background, or return only when it ended if ``wait``."""
        self._line.blink(pattern.on_time, pattern.off_time, pattern.count, wait=wait)

    def silence(self) -> None:
        """Stop any beep now."""
        self._line.off()

    def close(self) -> None:
        """Silence the buzzer and release its pin (idempotent)."""
        if not self._line.closed:
            self._line.off()
            self._line.close()
