"""What every serial device driver offers: open by URL, hello, status, counters, clear, control."""

from __future__ import annotations

import queue
from collections.abc import Callable
from types import TracebackType
from typing import ClassVar, Generic, Self, TypeVar

from .events import DeviceEvent
from .identity import Expected
from .port import Connector, url_connector
from .protocol.common import ClearCmd, ControlCmd, CountersCmd, Ident, Ok, PingCmd, Pong, StatusCmd
from .protocol.records import Catalogue, Record
from .serial_driver import LinkStats, SerialLink, Timing

S = TypeVar("S", bound=Record)
C = TypeVar("C", bound=Record)


class SerialDevice(Generic[S, C]):
    """A device on a verified serial line; subclasses add the device's own commands."""

    DEVICE: ClassVar[str]
    CATALOGUE: ClassVar[Catalogue]
    STATUS: ClassVar[type[Record]]
    COUNTERS: ClassVar[type[Record]]

    def __init__(self, link: SerialLink) -> None:
        self._link = link

    @classmethod
    def open(cls, url: str | Connector, expected: Expected | None = None, *,
             timing: Timing | None = None, name: str | None = None,
             on_event: Callable[[DeviceEvent], None] | None = None) -> Self:
        """Connect to ``url`` (a pyserial URL, or a connector such as a fake's) and verify it.

        Raises ``DeviceRefused`` when the hello does not match ``expected`` (by default any
        device of this kind), ``DeviceTimeout`` when nothing answers.
        """
        connector = url_connector(url) if isinstance(url, str) else url
        link = SerialLink(connector, cls.CATALOGUE, expected or Expected(cls.DEVICE),
                          name=name, timing=timing, on_event=on_event)
        link.start()
        return cls(link)

    @property
    def hello(self) -> Ident:
        """The device's identity as it answered the last hello."""
        assert self._link.ident is not None
        return self._link.ident

    @property
    def events(self) -> queue.Queue[DeviceEvent]:
        """Events not handed to an ``on_event`` callback (faults, door, lid, button shakes)."""
        return self._link.events

    @property
    def stats(self) -> LinkStats:
        """What the line has cost so far (resends, NAKs, reconnects, noise)."""
        return self._link.stats

    @property
    def connected(self) -> bool:
        """True while the line is up and the device verified."""
        return self._link.connected

    def status(self) -> S:
        """The device's state now."""
        return self._link.call(StatusCmd(), self.STATUS)  # type: ignore[return-value]

    def counters(self) -> C:
        """The device's usage counters."""
        return self._link.call(CountersCmd(), self.COUNTERS)  # type: ignore[return-value]

    def ping(self) -> None:
        """Check the device answers."""
        self._link.call(PingCmd(), Pong)

    def clear(self) -> None:
        """Tell the device the operator fixed its fault (jam cleared, door closed)."""
        self._link.call(ClearCmd(), Ok)

    def control(self, **settings: str | int | float | bool) -> None:
        """Send a simulator control command (fault injection); real devices refuse it."""
        pairs = tuple((k, _text(v)) for k, v in settings.items())
        self._link.call(ControlCmd(pairs), Ok)

    def interrupt(self) -> None:
        """End the call under way at once (``DeviceInterrupted``): a stop request."""
        self._link.interrupt()

    def close(self) -> None:
        """Release the line and stop the reader thread."""
        self._link.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, kind: type[BaseException] | None, err: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()


def _text(value: str | int | float | bool) -> str:
    if isinstance(value, bool):
        return "1" if value else "0"
    return str(value)
