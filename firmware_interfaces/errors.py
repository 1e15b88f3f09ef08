"""The one exception root of ``firmware_interfaces`` and its precise subclasses.

Each class also inherits the matching built-in (gpiozero style), so a caller that only knows
``ValueError`` or ``TimeoutError`` still catches the right thing.
"""

from __future__ import annotations


class DeviceError(Exception):
    """Root of every error raised by ``firmware_interfaces``."""


class ProtocolError(DeviceError, ValueError):
    """Bytes or a message that break the wire protocol (bad frame, CRC, schema)."""


class DeviceTimeout(DeviceError, TimeoutError):
    """A device did not answer within the bounded retries."""


class DeviceInterrupted(DeviceError):
    """The host gave up a call under way (a stop request), whatever the device was doing."""


class DeviceRefused(DeviceError):
    """A device whose hello does not match what the table profile expects."""


class DeviceFault(DeviceError):
    """A device reported a fault or refused a command (jam, door open, bad deck, lost line).

    ``code`` is the protocol's one-word fault code (``"jam"``, ``"door_open"``...) or ``""``.
    """

    def __init__(self, message: str, code: str = "") -> None:
        super().__init__(message)
        self.code = code


class DeviceConfigError(DeviceError, ValueError):
    """A bad device setting (URL, pin number, option) given by the caller."""


class DeviceClosed(DeviceError):
    """An operation on a device that was closed."""


class FrameError(ProtocolError):
    """Bytes that are not one well-formed frame (start byte, header, length, truncation)."""


class ChecksumError(FrameError):
    """A frame whose CRC does not match; ``kind`` and ``seq`` are set when the header was sound."""

    def __init__(self, message: str, kind: int | None = None, seq: int | None = None) -> None:
        super().__init__(message)
        self.kind = kind
        self.seq = seq


class PayloadError(ProtocolError):
    """A payload that is not a known message of the protocol (name, field or value)."""
