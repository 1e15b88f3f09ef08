"""What a device sent on its own (a door or lid opened, a line lost and back), as a table-level
journal note the floor sees.

The table's loop (``controller.table.live``) journals each such event as the system's note
(``device_event``), and the display (``controller.display``) shows the recent ones as alerts to
the dealer and the supervisor, never to the public.  Both sit on row 6, so the note's one
spelling lives here, below them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

DEVICE_EVENT: Final = "device_event"
"""The kind of the note: a device's unsolicited message, journaled by the system."""

DEVICE_EVENT_ALERTS: Final = 5
"""How many of the latest device events the display shows as alerts at most."""


def device_event(device: str, event: str, text: str) -> dict[str, Any]:
    """The note's payload: the device that sent it (``shuffler-1``), the event's name
    (``door``, ``lid``, ``fault``, ``cleared``) and the event as one line of text."""
    for name, value in (("device", device), ("event", event), ("text", text)):
        if not isinstance(value, str) or not value:
            raise ValueError(f"a device event's {name} must be non-empty text, not {value!r}")
    return {"type": DEVICE_EVENT, "v": 1, "device": device, "event": event, "text": text}


def alert_text(payload: Mapping[str, Any]) -> str:
    """The line an alert shows for a ``device_event`` note's payload."""
    text = str(payload.get("text") or payload.get("event") or "?")
    device = str(payload.get("device") or "")
    return text if not device or text.startswith(f"{device}:") else f"{device}: {text}"


__all__ = ["DEVICE_EVENT", "DEVICE_EVENT_ALERTS", "alert_text", "device_event"]
