"""Software debouncing for momentary buttons, pure: the caller hands in every edge's time."""

from __future__ import annotations

from ..errors import DeviceConfigError

DEFAULT_DEBOUNCE = 0.05
"""Seconds a button's line must be quiet before a press counts (contact bounce lasts ~1-20 ms)."""


class Debouncer:
    """Accepts a press only when its line saw no edge for ``window`` seconds before it.

    Every edge, press or release, restarts the window, so the chatter of a contact closing or
    opening never counts as a second press.  Done in software with the caller's clock (rather
    than gpiozero's ``bounce_time``, which ``MockFactory`` ignores) so it behaves the same on
    every pin factory and tests are deterministic.
    """

    __slots__ = ("_last_edge", "window")

    def __init__(self, window: float = DEFAULT_DEBOUNCE) -> None:
        if not window >= 0:
            raise DeviceConfigError(f"debounce window {window!r}: must be >= 0 seconds")
        self.window = window
        self._last_edge: float | None = None

    def edge(self, now: float, pressed: bool) -> bool:
        """Record an edge seen at ``now``; True when it is a press that counts."""
        quiet = self._last_edge is None or now - self._last_edge >= self.window
        self._last_edge = now
        return pressed and quiet
