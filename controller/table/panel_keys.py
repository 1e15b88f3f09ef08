"""The dealer's buttons as the table loop uses them: new round, shake, confirm.

On a simulated table the loop presses them itself on the ``MockFactory`` pins and takes the
press back from the panel, so every such act goes through the GPIO side; on a real panel it
waits for the dealer's hand.  Whichever button the press names decides the act.
"""

from __future__ import annotations

import contextlib
import queue
import threading
import time
from collections.abc import Callable
from typing import Any

from firmware_interfaces.gpio import DEFAULT_DEBOUNCE, ButtonPress, DealerPanel, PanelButton

from .errors import TableError

PRESS_ACTS = {PanelButton.NEW_ROUND: "open_round", PanelButton.SHAKE: "roll",
              PanelButton.CONFIRM: "settle"}
"""The dealer's acts that have a button on the panel."""

PRESS_WAIT = 1.0
"""Seconds to wait for a clicked button's press to come through the panel."""


class PanelKeysError(TableError):
    """A button clicked on the mock pins gave no press (a panel that is not listening)."""


class PanelKeys:
    """Presses (or awaits) a panel button and says which act the press stands for."""

    def __init__(self, panel: DealerPanel | None, factory: Any,
                 presses: queue.Queue[ButtonPress], stop: threading.Event,
                 out: Callable[[str], None]) -> None:
        self.panel = panel
        self.factory = factory
        self.presses = presses
        self.stop = stop
        self.out = out
        self._clicked: dict[PanelButton, float] = {}

    @property
    def mock(self) -> bool:
        """True when the panel's pins can be driven from here (gpiozero's ``MockFactory``)."""
        if self.factory is None or self.panel is None:
            return False
        return hasattr(self.factory.pin(self.panel.pins.new_round), "drive_low")

    def act_for(self, button: PanelButton) -> str | None:
        """The act to do for ``button``: clicked on mock pins, awaited on real ones, given
        straight away without a panel; None when stopped or the press has no act."""
        if self.panel is None:
            return PRESS_ACTS[button]
        press = self.click(button) if self.mock else self.await_press(button)
        return None if press is None else PRESS_ACTS.get(press.button)

    def await_press(self, button: PanelButton) -> ButtonPress | None:
        """Wait for the dealer to press a button (any: the press says which); None once
        stopped."""
        self.out(f"  waiting for the dealer to press {button.value!r}")
        while not self.stop.is_set():
            try:
                return self.presses.get(timeout=0.2)
            except queue.Empty:
                continue
        return None

    def click(self, button: PanelButton) -> ButtonPress:
        """Press and release ``button`` on the mock pins; the press the panel reports."""
        assert self.panel is not None
        pin = self.factory.pin(getattr(self.panel.pins, button.value))
        for _ in range(3):
            # A press counts only after its line was quiet for the debounce window.
            quiet = self._clicked.get(button, -DEFAULT_DEBOUNCE) + DEFAULT_DEBOUNCE * 1.2
            if time.monotonic() < quiet:
                time.sleep(quiet - time.monotonic())
            pin.drive_low()
            pin.drive_high()
            self._clicked[button] = time.monotonic()
            try:
                press: ButtonPress = self.presses.get(timeout=PRESS_WAIT)
                return press
            except queue.Empty:
                continue  # swallowed by the debounce window: press again
        raise PanelKeysError(f"the panel's {button.value!r} button gave no press")

    def call_supervisor(self) -> None:
        """The dealer calls the supervisor (a courtesy press: the fault is journaled anyway)."""
        if self.mock:
            with contextlib.suppress(PanelKeysError):
                self.click(PanelButton.CALL_SUPERVISOR)


__all__ = ["PRESS_ACTS", "PanelKeys", "PanelKeysError"]
