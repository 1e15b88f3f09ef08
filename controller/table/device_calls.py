"""Driver errors turned into the engine's ``DeviceLostError`` at the port boundary.

The engine pauses the round and journals a fault for a ``DeviceLostError`` only, so every
failure of a device call becomes one, naming the device and what went wrong: no answer within
the bounded retries, a lost or closed line, or a refusal (``jam``, ``door_open``, ``lid_open``)
that leaves the act undone.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from firmware_interfaces.errors import DeviceClosed, DeviceError, DeviceFault, DeviceTimeout
from firmware_interfaces.link_config import Timing
from firmware_interfaces.port import LineLost

from ..round.errors import DeviceLostError

T = TypeVar("T")
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
