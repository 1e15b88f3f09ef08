"""What the serial ports share: the journal name and randomness of a device, and driver errors
turned into the engine's ``DeviceLostError`` at the port boundary.

The engine pauses the round and journals a fault for a ``DeviceLostError`` only, so every
failure of a device call becomes one, naming the device and what went wrong: no answer within
the bounded retries, a lost or closed line, or a refusal (``jam``, ``door_open``, ``lid_open``)
that leaves the act undone.

A port's device calls can also be made *ahead* of their act (``prepare``), outside the
table's lock, so a device that takes its time (or never answers) keeps no viewer or supervisor
waiting; the act under the lock then takes the answer (``controller.table.ahead``).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from firmware_interfaces.device import SerialDevice
from firmware_interfaces.errors import (
    DeviceClosed,
    DeviceError,
    DeviceFault,
    DeviceInterrupted,
    DeviceTimeout,
)
from firmware_interfaces.link_config import Timing
from firmware_interfaces.port import LineLost

from ..journal import Randomness
from ..round.errors import DeviceLostError, PortError

T = TypeVar("T")
D = TypeVar("D", bound="SerialDevice[Any, Any]")
SILENCE_MARGIN = 1.0  # a loaded machine may run the retries late


def silence_for(timing: Timing | None) -> float:
    """Seconds a simulator keeps silent so one request runs out of retries, then recovers."""
    t = timing or Timing()
    return round((1 + t.retries) * t.ack_timeout + SILENCE_MARGIN, 3)


def check_fault(name: str, fault: str, known: tuple[str, ...]) -> None:
    """ValueError naming a fault this device cannot be told to produce."""
    if fault not in known:
        raise ValueError(f"{name}: unknown fault {fault!r}; known: {list(known)}")


def lost(name: str, what: str, err: DeviceError) -> DeviceLostError:
    """The engine's ``DeviceLostError`` for a driver error of ``name`` during ``what``."""
    if isinstance(err, DeviceTimeout):
        return DeviceLostError(f"{name} stopped answering during {what}: {err}")
    if isinstance(err, LineLost | DeviceClosed):
        return DeviceLostError(f"{name} line lost during {what}: {err}")
    if isinstance(err, DeviceFault):
        return DeviceLostError(f"{name} could not {what} ({err.code or 'refused'}): {err}")
    return DeviceLostError(f"{name} failed during {what}: {err}")


def device_call(name: str, what: str, call: Callable[[], T]) -> T:
    """``call()``; a driver error raises ``DeviceLostError`` naming ``name`` and ``what``."""
    try:
        return call()
    except DeviceError as err:
        raise lost(name, what, err) from err


@dataclass(frozen=True, slots=True)
class _Answer:
    """What a call made ahead of its act gave: a value or the error the act will raise."""

    value: Any = None
    error: DeviceLostError | None = None


def randomness_of(rng: str, seed: int | None) -> Randomness:
    """The journal's ``Randomness`` for a device hello's ``rng`` and ``seed`` fields."""
    if rng == "seeded":
        if seed is None:
            raise PortError("a device says it is seeded but names no seed")
        return Randomness.seeded(seed)
    return Randomness.production()


class SerialPort(Generic[D]):
    """A port on one driver: its name in the journal, its randomness, what it answered."""

    def __init__(self, driver: D, name: str, timing: Timing | None = None) -> None:
        self.driver = driver
        self._name = name
        self._timing = timing
        self.history: list[str] = []
        self.calls: dict[str, tuple[str, Callable[[], Any]]] = {}
        """The engine's acts this port serves: act name to (what, the device call)."""
        self._ahead: dict[str, _Answer] = {}
        self._interrupted = threading.Event()

    def prepare(self, act: str, *args: Any) -> None:
        """Make ``act``'s device call now (outside the table's lock) and keep its answer for
        the act; ``DeviceLostError`` at once when a stop interrupted it (no act follows)."""
        what, call = self.calls[act]
        self._interrupted.clear()
        try:
            self._ahead[act] = _Answer(call())
        except DeviceInterrupted as err:
            raise lost(self._name, what, err) from err
        except DeviceError as err:
            self._ahead[act] = _Answer(error=lost(self._name, what, err))

    def forget(self, act: str, *args: Any) -> None:
        """Drop an answer made ahead that its act did not take (voided meanwhile)."""
        self._ahead.pop(act, None)

    def interrupt(self) -> None:
        """End the device call under way at once (a stop request)."""
        self._interrupted.set()
        self.driver.interrupt()

    def _call(self, act: str) -> Any:
        """The answer made ahead for ``act``, else the device call made now."""
        answer = self._ahead.pop(act, None)
        if answer is None:
            what, call = self.calls[act]
            return device_call(self._name, what, call)
        if answer.error is not None:
            raise answer.error
        return answer.value

    @property
    def name(self) -> str:
        """The device's name in the journal."""
        return self._name

    @property
    def randomness(self) -> Randomness | None:
        """``seeded:N`` when the device's hello says so, else ``secrets``."""
        hello = self.driver.hello
        return randomness_of(hello.rng, hello.seed)
