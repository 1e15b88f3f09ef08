"""Messages every device speaks: hello, status poll, ping, clear, control, errors, faults, door."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Self

from ..errors import PayloadError
from .frame import PROTOCOL_VERSION
from .payload import KEY, VALUE, Message
from .records import Record, check

_HASH = re.compile(r"sha256:[0-9a-f]{64}")
_NONCE = re.compile(r"[0-9a-f]{32}")
_MAC = re.compile(r"[0-9a-f]{64}")


# --- requests (host to device) ---------------------------------------------------------------


@dataclass(frozen=True)
class HelloCmd(Record):
    """Ask the device who it is.

    ``session`` names the host's link (random, fixed for its lifetime): a device forgets the
    replies it keeps for resent requests when a new session says hello, and keeps them when
    the same host says hello again after a reconnect, so a request resent across a dropped
    line is answered from memory, never done twice.
    """

    NAME = "HELLO"
    proto: int = PROTOCOL_VERSION
    session: str | None = None
    nonce: str | None = None
    """A fresh random challenge (16 bytes, 32 hex digits) the device answers with its key."""

    def __post_init__(self) -> None:
        if self.nonce is not None:
            check(bool(_NONCE.fullmatch(self.nonce)), self.NAME,
                  f"nonce {self.nonce!r} is not 32 lower-case hex digits")


@dataclass(frozen=True)
class StatusCmd(Record):
    """Ask for the device's state (answered by its ``STATE`` record)."""

    NAME = "STATUS"


@dataclass(frozen=True)
class CountersCmd(Record):
    """Ask for the usage counters (answered by its ``USAGE`` record)."""

    NAME = "COUNTERS"


@dataclass(frozen=True)
class PingCmd(Record):
    """Check the line is alive (answered by ``PONG``)."""

    NAME = "PING"


@dataclass(frozen=True)
class ClearCmd(Record):
    """The operator fixed the fault (cleared a jam, closed the door): resume."""

    NAME = "CLEAR"


@dataclass(frozen=True)
class ControlCmd(Record):
    """Simulator control (fault injection); real devices answer ``ERR code=unsupported``."""

    NAME = "CTRL"
    settings: tuple[tuple[str, str], ...] = ()

    def __post_init__(self) -> None:
        for key, value in self.settings:
            check(bool(KEY.fullmatch(key)), self.NAME, f"bad setting name {key!r}")
            check(bool(VALUE.fullmatch(value)), self.NAME, f"bad value {value!r} for {key!r}")

    def to_message(self) -> Message:
        """The settings as the message's fields, in order."""
        return Message(self.NAME, self.settings)

    @classmethod
    def from_message(cls, message: Message) -> Self:
        """Any fields are accepted here; the simulator checks names and values."""
        if message.name != cls.NAME:
            raise PayloadError(f"expected a {cls.NAME} message, got {message.name!r}")
        return cls(message.fields)


# --- replies (device to host) ----------------------------------------------------------------


@dataclass(frozen=True)
class Ident(Record):
    """Who the device is: kind, model, serial, protocol and firmware versions, firmware hash.

    ``rng`` is ``secrets`` for production randomness or ``seeded`` (then ``seed`` is set): a
    seeded device must never take part in real play. ``mac`` answers the hello's nonce:
    HMAC-SHA256 with the device's key over the nonce and every field before it
    (``protocol.challenge``), so a hello copied from another exchange is refused.
    """

    NAME = "IDENT"
    device: str
    model: str
    serial: str
    proto: int
    fw: str
    fw_hash: str
    rng: str
    seed: int | None = None
    caps: tuple[str, ...] = ()
    mac: str | None = None

    def __post_init__(self) -> None:
        check(bool(_HASH.fullmatch(self.fw_hash)), self.NAME,
              f"fw_hash {self.fw_hash!r} is not sha256:<64 hex digits>")
        check(self.rng in ("secrets", "seeded", "hardware"), self.NAME,
              f"rng {self.rng!r} is not secrets, seeded or hardware")
        check((self.seed is not None) == (self.rng == "seeded"), self.NAME,
              "seed is given exactly when rng is seeded")
        check(self.mac is None or bool(_MAC.fullmatch(self.mac)), self.NAME,
              f"mac {self.mac!r} is not 64 lower-case hex digits")


@dataclass(frozen=True)
class Ok(Record):
    """The command was done and has nothing more to say."""

    NAME = "OK"


@dataclass(frozen=True)
class Pong(Record):
    """Answer to ``PING``."""

    NAME = "PONG"


@dataclass(frozen=True)
class Err(Record):
    """The device refused ``cmd`` for the reason ``code`` (``jam``, ``door_open``...)."""

    NAME = "ERR"
    cmd: str
    code: str


# --- events (device to host, unsolicited) ----------------------------------------------------


@dataclass(frozen=True)
class Fault(Record):
    """A fault was raised on the device (``jam``, ``door_open``, ``deck``...)."""

    NAME = "FAULT"
    code: str


@dataclass(frozen=True)
class Cleared(Record):
    """A fault raised earlier is gone."""

    NAME = "CLEARED"
    code: str


@dataclass(frozen=True)
class Door(Record):
    """The service door was opened or closed."""

    NAME = "DOOR"
    open: bool


REQUESTS: tuple[type[Record], ...] = (
    HelloCmd, StatusCmd, CountersCmd, PingCmd, ClearCmd, ControlCmd,
)
REPLIES: tuple[type[Record], ...] = (Ident, Ok, Pong, Err)
EVENTS: tuple[type[Record], ...] = (Fault, Cleared, Door)
