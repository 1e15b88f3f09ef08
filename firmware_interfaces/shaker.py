"""The dice shaker driver: shake on command; button shakes arrive as events."""

from __future__ import annotations

from .device import SerialDevice
from .protocol.shaker import (
    DEVICE_CATALOGUE,
    ShakeCmd,
    ShakerCounters,
    ShakeResult,
    ShakerStatus,
)

SHAKE_TIMEOUT = 15.0


class ShakerDriver(SerialDevice[ShakerStatus, ShakerCounters]):
    """An automatic dice shaker on a serial line.

    A shake started by the player's button arrives as a ``DeviceEvent`` whose record is a
    ``ShakeResult`` with ``source == "button"``; lid and door changes arrive the same way.
    """

    DEVICE = "shaker"
    CATALOGUE = DEVICE_CATALOGUE
    STATUS = ShakerStatus
    COUNTERS = ShakerCounters

    def shake(self) -> ShakeResult:
        """Shake now; check ``result.game`` (not cocked, changed, strong enough)."""
        return self._link.call(ShakeCmd(), ShakeResult, SHAKE_TIMEOUT)
