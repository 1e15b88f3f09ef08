"""What a driver's reader thread hands to the controller's loop: one event type for all devices."""

from __future__ import annotations

from dataclasses import dataclass

from .protocol.records import Record

LINK_LOST = "link_lost"
REFUSED = "refused"


@dataclass(frozen=True)
class DeviceEvent:
    """An unsolicited message from device ``source``, or a fault of its line.

    ``record`` is the device's own event (``Fault``, ``Cleared``, ``Door``, ``Lid``, a button
    ``ShakeResult``), or ``Fault(code="link_lost")`` / ``Cleared(code="link_lost")`` raised by
    the driver when the line drops and comes back, or ``Fault(code="refused")`` when another
    device answered after a reconnect. ``detail`` is a one-line explanation, possibly empty.
    """

    source: str
    record: Record
    detail: str = ""

    def __str__(self) -> str:
        tail = f" ({self.detail})" if self.detail else ""
        return f"{self.source}: {self.record}{tail}"
