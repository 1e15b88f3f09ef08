"""Device calls made ahead of their act, outside the table's lock.

An act that calls a device (``shuffle``, ``deal_packet``, ``roll``, the camera's ``read_camera``
and ``read_dice``, which wait for a still felt) would otherwise wait on the device while holding
``Table.lock``, so a slow, hung or hostile device would keep the display's
reads, a supervisor's void and the table loop's stop waiting with it. ``DevicesAhead`` is the
``Table.ahead`` hook: for such an act it checks under the lock that the act can be done, makes
the device call without the lock (bounded by the driver's per-call deadline, ended at once by
``interrupt``), and lets the act take the answer under the lock. If the round moved on
meanwhile (voided from the display), the act refuses as it would have anyway and the answer is
dropped. One device act runs at a time.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator, Mapping
from typing import Any, Protocol

from ..live import Table
from ..round import Who


class AheadPort(Protocol):
    """A port whose device calls can be made ahead of their act (``device_calls.SerialPort``)."""

    def prepare(self, act: str, *args: Any) -> None:
        """Make ``act``'s device call (with the act's arguments) now and keep the answer."""

    def forget(self, act: str, *args: Any) -> None:
        """Drop an answer its act did not take."""

    def interrupt(self) -> None:
        """End the call under way at once."""


class DevicesAhead:
    """``Table.ahead`` for a table whose ports make their calls ahead (acts to ports)."""

    def __init__(self, table: Table, ports: Mapping[str, AheadPort]) -> None:
        self.table = table
        self.ports = dict(ports)
        self._one = threading.Lock()  # one device act at a time: one answer kept per act

    @contextlib.contextmanager
    def __call__(self, act: str, who: Who, *args: Any) -> Iterator[None]:
        """Around ``Table.act``: the device call of ``act`` made before its lock is taken."""
        port = self.ports.get(act)
        if port is None:
            yield
            return
        with self._one:
            with self.table.lock:
                can = getattr(self.table.engine, f"can_{act}", None)
                ready = bool(can(who, *args)) if callable(can) else False
            try:
                if ready:
                    port.prepare(act, *args)  # the device's wait: no lock held
                yield
            finally:
                port.forget(act, *args)

    def interrupt(self) -> None:
        """End every device call under way (the loop's stop request)."""
        for port in set(self.ports.values()):
            port.interrupt()


def devices_ahead(table: Table, devices: Any) -> DevicesAhead | None:
    """The hook for ``devices``' ports that can make their calls ahead, or None (fakes)."""
    ports: dict[str, AheadPort] = {}
    for name in ("shuffler", "dice", "camera"):
        port = getattr(devices, name, None)
        calls = getattr(port, "calls", None)
        if port is not None and callable(getattr(port, "prepare", None)) and calls:
            ports.update(dict.fromkeys(calls, port))
    return DevicesAhead(table, ports) if ports else None


__all__ = ["AheadPort", "DevicesAhead", "devices_ahead"]
