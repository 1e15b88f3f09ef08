"""The dealer panel on GPIO: five debounced buttons, a tower light and a buzzer.

Each accepted press becomes a frozen ``ButtonPress`` handed to ``on_press``.  On a real pin
factory gpiozero calls it from its own event thread, so the controller passes something
thread-safe such as ``queue.Queue.put`` and its one loop takes the presses from there.
The panel reports presses; whether a press is allowed now is the round's decision.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass
from enum import StrEnum
from types import TracebackType

from ..errors import DeviceClosed
from .buzzer import PanelBuzzer
from .debounce import DEFAULT_DEBOUNCE, Debouncer
from .lines import InputLine, PinFactory
from .pins import PanelPins
from .tower_light import BLINK_OFF, BLINK_ON, TowerLight

Clock = Callable[[], float]
"""A monotonic clock in seconds (``time.monotonic`` unless a test hands in its own)."""


class PanelButton(StrEnum):
    """The dealer panel's buttons; each value is its key in the ``[panel]`` pin map."""

    NEW_ROUND = "new_round"
    SHAKE = "shake"
    CONFIRM = "confirm"
    VOID = "void"
    CALL_SUPERVISOR = "call_supervisor"


@dataclass(frozen=True, slots=True)
class ButtonPress:
    """One accepted press of a panel button, at a monotonic time in seconds."""

    button: PanelButton
    at: float

    def __str__(self) -> str:
        return f"{self.button}@{self.at:.3f}"


class DealerPanel:
    """The dealer panel's devices on one explicit pin factory; close it when done."""

    def __init__(
        self,
        pins: PanelPins,
        factory: PinFactory,
        on_press: Callable[[ButtonPress], None],
        *,
        clock: Clock = time.monotonic,
        debounce: float = DEFAULT_DEBOUNCE,
        blink_on: float = BLINK_ON,
        blink_off: float = BLINK_OFF,
    ) -> None:
        self.pins = pins
        self._on_press = on_press
        self._clock = clock
        self._lock = threading.Lock()
        self._closed = False
        self._debouncers = {button: Debouncer(debounce) for button in PanelButton}
        self._buttons: dict[PanelButton, InputLine] = {}
        with ExitStack() as stack:
            # Anything built before a failure is closed again, so its pins are not left taken.
            for button in PanelButton:
                line = InputLine(button.value, getattr(pins, button.value), factory,
                                 self._edge_handler(button))
                stack.callback(line.close)
                self._buttons[button] = line
            self.light = TowerLight(pins.light_green, pins.light_amber, pins.light_red, factory,
                                    on_time=blink_on, off_time=blink_off)
            stack.callback(self.light.close)
            self.buzzer = PanelBuzzer(pins.buzzer, factory)
            stack.callback(self.buzzer.close)
            self._closer = stack.pop_all()

    def _edge_handler(self, button: PanelButton) -> Callable[[bool], None]:
        def handle(pressed: bool) -> None:
            now = self._clock()
            with self._lock:
                accepted = not self._closed and self._debouncers[button].edge(now, pressed)
            if accepted:
                self._on_press(ButtonPress(button, now))

        return handle

    def is_pressed(self, button: PanelButton) -> bool:
        """Whether a button is held down at this instant (raw, not debounced)."""
        if self._closed:
            raise DeviceClosed("the dealer panel is closed")
        return self._buttons[button].is_active

    @property
    def closed(self) -> bool:
        """True once the panel was closed."""
        return self._closed

    def close(self) -> None:
        """Darken the light, silence the buzzer and release every pin (idempotent)."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
        self._closer.close()

    def __enter__(self) -> DealerPanel:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()
