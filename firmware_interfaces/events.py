"""What a driver's reader thread hands to the controller's loop: one event type for all devices."""

from __future__ import annotations

import queue
import threading
from dataclasses import dataclass

from .protocol.records import Record

EVENT_LIMIT = 256
"""Events kept unread per queue: a device flooding events (a storm) costs the oldest unread
ones, never the host's memory; a loop reading them as they come never reaches the limit."""

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


class EventQueue(queue.Queue[DeviceEvent]):
    """A queue of device events that keeps the newest ``limit`` and counts what it dropped.

    ``put`` never blocks the reader thread that calls it: when the queue is full the oldest
    unread event gives way, so a device that floods events can neither stall its own line nor
    grow the host without bound.
    """

    def __init__(self, limit: int = EVENT_LIMIT) -> None:
        super().__init__(limit)
        self.dropped = 0
        self._offer = threading.Lock()  # one full-queue swap at a time

    def put(self, item: DeviceEvent, block: bool = True, timeout: float | None = None) -> None:
        """Keep ``item``, dropping the oldest unread event if the queue is full."""
        with self._offer:
            while True:
                try:
                    super().put(item, block=False)
                    return
                except queue.Full:
                    try:
                        self.get_nowait()
                        self.dropped += 1
                    except queue.Empty:
                        pass
