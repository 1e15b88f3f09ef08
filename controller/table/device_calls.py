"""What the serial ports share: the journal name and randomness of a device, and driver errors
turned into the engine's ``DeviceLostError`` at the port boundary.

The engine pauses the round and journals a fault for a ``DeviceLostError`` only, so every
failure of a device call becomes one, naming the device and what went wrong: no answer within
the bounded retries, a lost or closed line, or a refusal (``jam``, ``door_open``, ``lid_open``)
that leaves the act undone.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar

from firmware_interfaces.device import SerialDevice
from firmware_interfaces.errors import DeviceClosed, DeviceError, DeviceFault, DeviceTimeout
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


def device_call(name: str, what: str, call: Callable[[], T]) -> T:
    """``call()``; a driver error raises ``DeviceLostError`` naming ``name`` and ``what``."""
    try:
        return call()
    except DeviceTimeout as err:
        raise DeviceLostError(f"{name} stopped answering during {what}: {err}") from err
    except (LineLost, DeviceClosed) as err:
        raise DeviceLostError(f"{name} line lost during {what}: {err}") from err
    except DeviceFault as err:
        code = err.code or "refused"
        raise DeviceLostError(f"{name} could not {what} ({code}): {err}") from err
    except DeviceError as err:
        raise DeviceLostError(f"{name} failed during {what}: {err}") from err


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

    @property
    def name(self) -> str:
        """The device's name in the journal."""
        return self._name

    @property
    def randomness(self) -> Randomness | None:
        """``seeded:N`` when the device's hello says so, else ``secrets``."""
        hello = self.driver.hello
        return randomness_of(hello.rng, hello.seed)
