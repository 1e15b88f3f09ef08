"""The dice shaker's GPIO lines: lid switch, motor and the player's shake button.

The shaker's result comes over serial; these lines only sense the lid, run the motor and read
the player's button.  The motor never runs with the lid open: a start is refused while the lid
is open, and the lid opening cuts a running motor at once (before any event is reported).  This
software interlock backs up, and does not replace, a lid switch wired in the motor's supply.

Events (``LidChanged``, ``ShakeButtonPress``, ``MotorCut``) are frozen records handed to
``on_event``, from gpiozero's event thread on real pins: pass something thread-safe such as
``queue.Queue.put``.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass
from types import TracebackType

from ..errors import DeviceClosed, DeviceConfigError, DeviceError
from .debounce import DEFAULT_DEBOUNCE, Debouncer
from .lines import InputLine, OutputLine, PinFactory
from .pins import ShakerPins

Clock = Callable[[], float]
"""A monotonic clock in seconds (``time.monotonic`` unless a test hands in its own)."""


class InterlockError(DeviceError):
    """The motor was asked to run while the shaker's lid is open."""


@dataclass(frozen=True, slots=True)
class LidChanged:
    """The lid switch changed: ``closed`` is its new state, ``at`` a monotonic time."""

    closed: bool
    at: float

    def __str__(self) -> str:
        return f"lid {'closed' if self.closed else 'open'}@{self.at:.3f}"


@dataclass(frozen=True, slots=True)
class ShakeButtonPress:
    """The player pressed the shaker's button (debounced)."""

    at: float

    def __str__(self) -> str:
        return f"shake button@{self.at:.3f}"


@dataclass(frozen=True, slots=True)
class MotorCut:
    """The interlock stopped a running motor because the lid opened; that shake is void."""

    at: float

    def __str__(self) -> str:
        return f"motor cut@{self.at:.3f}"


ShakerEvent = LidChanged | ShakeButtonPress | MotorCut
"""Any event of the shaker's lines."""


class ShakerLines:
    """The shaker's lid switch, motor and button on one explicit pin factory."""

    def __init__(
        self,
        pins: ShakerPins,
        factory: PinFactory,
        on_event: Callable[[ShakerEvent], None],
        *,
        clock: Clock = time.monotonic,
        debounce: float = DEFAULT_DEBOUNCE,
    ) -> None:
        self.pins = pins
        self._on_event = on_event
        self._clock = clock
        self._lock = threading.Lock()
        self._closed = False
        self._lid_reported = False
        self._timer: threading.Timer | None = None
        self._run_id = 0
        self._button_debounce = Debouncer(debounce)
        with ExitStack() as stack:
            # The motor line comes first and off, so no lid edge can find it half-built.
            self._motor = OutputLine("motor", pins.motor, factory)
            stack.callback(self._motor.close)
            self._lid = InputLine("lid_switch", pins.lid_switch, factory, self._lid_edge)
            stack.callback(self._lid.close)
            self._button = InputLine("shake_button", pins.shake_button, factory,
                                     self._button_edge)
            stack.callback(self._button.close)
            self._lid_reported = self._lid.is_active
            self._closer = stack.pop_all()

    @property
    def lid_closed(self) -> bool:
        """Whether the lid switch reads closed at this instant."""
        self._check_open()
        return self._lid.is_active

    @property
    def motor_running(self) -> bool:
        """Whether the motor's output is on at this instant."""
        self._check_open()
        return self._motor.is_active

    def verify_run_motor(self) -> None:
        """Raise ``InterlockError`` (or ``DeviceClosed``) unless the motor may start now."""
        self._check_open()
        if not self._lid.is_active:
            raise InterlockError("the shaker's lid is open: the motor may not run")

    def can_run_motor(self) -> bool:
        """Whether the motor may start now (the lid is closed)."""
        try:
            self.verify_run_motor()
        except DeviceError:
            return False
        return True

    def run_motor(self, seconds: float | None = None) -> None:
        """Start the motor, for ``seconds`` (stopped by a timer) or until ``stop_motor``."""
        if seconds is not None and not seconds > 0:
            raise DeviceConfigError(f"motor run time {seconds!r}: must be > 0 seconds")
        with self._lock:
            # Checked under the lock the lid handler takes, so the lid cannot open in between;
            # the motor is on when this returns (no thread left to switch it on later).
            self.verify_run_motor()
            self._cancel_timer()
            self._motor.on()
            if seconds is not None:
                self._run_id += 1
                timer = threading.Timer(seconds, self._timed_stop, args=(self._run_id,))
                timer.daemon = True
                timer.name = "shaker-motor-timer"
                self._timer = timer
                timer.start()

    def stop_motor(self) -> None:
        """Stop the motor (also ends a timed run early)."""
        with self._lock:
            self._check_open()
            self._cancel_timer()
            self._motor.off()

    def _timed_stop(self, run_id: int) -> None:
        with self._lock:
            # A timer that lost the race with stop_motor or a newer run must not stop that run.
            if not self._closed and run_id == self._run_id and self._timer is not None:
                self._timer = None
                self._motor.off()

    def _cancel_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _lid_edge(self, closed: bool) -> None:
        now = self._clock()
        events: list[ShakerEvent] = []
        with self._lock:
            if self._closed:
                return
            cut = False
            if not closed:
                cut = self._motor.is_active
                self._cancel_timer()
                self._motor.off()
            if closed != self._lid_reported:
                self._lid_reported = closed
                events.append(LidChanged(closed, now))
            if cut:
                events.append(MotorCut(now))
        for event in events:
            self._on_event(event)

    def _button_edge(self, pressed: bool) -> None:
        now = self._clock()
        with self._lock:
            accepted = not self._closed and self._button_debounce.edge(now, pressed)
        if accepted:
            self._on_event(ShakeButtonPress(now))

    def _check_open(self) -> None:
        if self._closed:
            raise DeviceClosed("the shaker's lines are closed")

    @property
    def closed(self) -> bool:
        """True once the lines were closed."""
        return self._closed

    def close(self) -> None:
        """Stop the motor and release every pin (idempotent)."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            self._cancel_timer()
            self._motor.off()
        self._closer.close()

    def __enter__(self) -> ShakerLines:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()
