"""The byte port a driver talks through, opened from a pyserial URL (or handed in by a fake)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

import serial

from .errors import DeviceConfigError, DeviceError

BAUDRATE = 115200
READ_TIMEOUT = 0.05
WRITE_TIMEOUT = 1.0
"""A device that stops reading must not block the host's write for ever (it fails instead)."""


class Port(Protocol):
    """What a driver needs of a line: pyserial's ``Serial`` has it, so does the in-process fake.

    ``read`` waits at most the port's timeout and may return fewer bytes (``b""`` on timeout);
    a lost line raises ``OSError`` (pyserial's ``SerialException`` is one).
    """

    @property
    def in_waiting(self) -> int:
        """Bytes ready to read without waiting."""
        ...

    def read(self, size: int = 1, /) -> bytes:
        """Up to ``size`` bytes, waiting at most the read timeout."""
        ...

    def write(self, data: bytes, /) -> int | None:
        """Send ``data``."""
        ...

    def close(self) -> None:
        """Release the line."""
        ...


Connector = Callable[[], Port]
"""Opens the line afresh: called once at start and again after every lost line."""


class LineLost(DeviceError, ConnectionError):
    """The line went away (unplugged, peer closed, pty gone)."""


def open_port(url: str, baudrate: int = BAUDRATE, timeout: float = READ_TIMEOUT) -> Port:
    """Open ``url`` with ``serial.serial_for_url``: a device path, a pty, ``socket://``, ``spy://``.

    Raises ``LineLost`` when the line cannot be opened now and ``DeviceConfigError`` for a URL
    that pyserial cannot understand.
    """
    try:
        port = serial.serial_for_url(url, baudrate=baudrate, timeout=timeout,
                                     write_timeout=WRITE_TIMEOUT)
    except ValueError as err:
        raise DeviceConfigError(f"cannot open {url!r}: {err}") from err
    except (serial.SerialException, OSError) as err:
        raise LineLost(str(err)) from err
    return port


def url_connector(url: str, baudrate: int = BAUDRATE) -> Connector:
    """A connector that opens ``url`` each time it is called."""
    if not url:
        raise DeviceConfigError("empty device URL")

    def connect() -> Port:
        return open_port(url, baudrate)

    return connect
