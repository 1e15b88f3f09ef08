"""The typed layer over gpiozero: one input or output line on an explicit pin factory.

gpiozero has no type hints; everything else in this package talks to these two small classes.
Every line takes its pin factory as an argument (the real one on a table, ``MockFactory`` in
tests and in the simulated table) and never falls back to the global ``Device.pin_factory``.
gpiozero's errors are translated into this package's root at this boundary.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from gpiozero import (  # type: ignore[import-untyped]
    DigitalInputDevice,
    DigitalOutputDevice,
)
from gpiozero.exc import GPIOZeroError  # type: ignore[import-untyped]

from ..errors import DeviceClosed, DeviceConfigError, DeviceError


class PinFactory(Protocol):
    """A gpiozero pin factory: ``gpiozero.pins.mock.MockFactory``, ``LGPIOFactory``, ..."""

    def close(self) -> None:
        """Release the factory's resources."""


class GpioError(DeviceError):
    """A GPIO line could not be set up or driven; the message names the line and its pin."""


def _require_factory(factory: PinFactory | None, name: str) -> None:
    # gpiozero reads `pin_factory=None` as "use the global default": never here.
    if factory is None:
        raise DeviceConfigError(f"line {name!r}: an explicit pin factory is required")


class _Line:
    """What input and output lines share: a name, a pin, close and the closed check."""

    _dev: Any

    def __init__(self, name: str, pin: int) -> None:
        self.name = name
        self.pin = pin

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r} GPIO{self.pin}>"

    @property
    def closed(self) -> bool:
        """True once the line was closed."""
        return bool(self._dev.closed)

    def close(self) -> None:
        """Release the pin (idempotent)."""
        self._dev.close()

    def _check_open(self) -> None:
        if self._dev.closed:
            raise DeviceClosed(f"line {self.name!r} (GPIO{self.pin}) is closed")


class InputLine(_Line):
    """A contact wired to ground with the internal pull-up: active while the contact is closed.

    A broken wire reads as an open contact, which the callers treat as the safe state.
    ``on_change(active)`` runs on gpiozero's event thread (synchronously under ``MockFactory``).
    """

    def __init__(
        self, name: str, pin: int, factory: PinFactory, on_change: Callable[[bool], None]
    ) -> None:
        super().__init__(name, pin)
        _require_factory(factory, name)
        try:
            self._dev = DigitalInputDevice(pin, pull_up=True, pin_factory=factory)
        except GPIOZeroError as err:
            raise GpioError(f"input {name!r} on GPIO{pin}: {err}") from err
        self._dev.when_activated = lambda: on_change(True)
        self._dev.when_deactivated = lambda: on_change(False)

    @property
    def is_active(self) -> bool:
        """True while the contact is closed (the pin reads low)."""
        self._check_open()
        return bool(self._dev.is_active)


class OutputLine(_Line):
    """A digital output, active high and off from the start."""

    def __init__(self, name: str, pin: int, factory: PinFactory) -> None:
        super().__init__(name, pin)
        _require_factory(factory, name)
        try:
            self._dev = DigitalOutputDevice(pin, initial_value=False, pin_factory=factory)
        except GPIOZeroError as err:
            raise GpioError(f"output {name!r} on GPIO{pin}: {err}") from err

    @property
    def is_active(self) -> bool:
        """True while the output is on."""
        self._check_open()
        return bool(self._dev.is_active)

    def on(self) -> None:
        """Switch on (stops any blinking)."""
        self._check_open()
        self._dev.on()

    def off(self) -> None:
        """Switch off (stops any blinking)."""
        self._check_open()
        self._dev.off()

    def blink(self, on_time: float, off_time: float, n: int | None, *, wait: bool) -> None:
        """Switch on and off ``n`` times (forever when None); ``wait`` blocks until done."""
        self._check_open()
        if wait and n is None:
            raise DeviceConfigError(f"line {self.name!r}: cannot wait for endless blinking")
        self._dev.blink(on_time=on_time, off_time=off_time, n=n, background=not wait)
