"""What every simulated device shares: identity, randomness, door, counters, control keys."""

from __future__ import annotations

import hashlib
import random
import secrets
from abc import ABC, abstractmethod

from ..protocol.challenge import answer
from ..protocol.common import (
    ClearCmd,
    Cleared,
    Door,
    Err,
    Fault,
    HelloCmd,
    Ident,
    Ok,
    PingCmd,
    Pong,
)
from ..protocol.frame import PROTOCOL_VERSION
from ..protocol.records import Catalogue, Record

FIRMWARE_VERSION = "1.0.0"


def firmware_hash(model: str, version: str = FIRMWARE_VERSION) -> str:
    """The firmware hash a simulated ``model`` reports (what a table profile would approve)."""
    digest = hashlib.sha256(f"paigow-table simulator {model} {version}".encode()).hexdigest()
    return f"sha256:{digest}"


def make_rng(seed: int | None) -> random.Random:
    """Seeded ``random.Random`` for repeatable runs, else ``secrets.SystemRandom`` (production)."""
    return secrets.SystemRandom() if seed is None else random.Random(seed)


def parse_bool(value: str) -> bool:
    """``1``/``0``, ``open``/``closed``, ``true``/``false``, ``on``/``off``."""
    lowered = value.lower()
    if lowered in ("1", "open", "true", "on", "yes"):
        return True
    if lowered in ("0", "closed", "false", "off", "no"):
        return False
    raise ValueError(f"{value!r} is not 0/1 or open/closed")


def parse_count(value: str) -> int:
    """A non-negative integer setting."""
    number = int(value)
    if number < 0:
        raise ValueError(f"{value!r} is negative")
    return number


class SimDevice(ABC):
    """The logic of one simulated device: requests in, a reply and events out (no I/O)."""

    DEVICE: str
    REQUESTS: Catalogue

    def __init__(self, model: str, seed: int | None, serial: str | None = None,
                 caps: tuple[str, ...] = ()) -> None:
        self.seed = seed
        self.rng = make_rng(seed)
        tag = f"{seed:06d}" if seed is not None else secrets.token_hex(3).upper()
        self.ident = Ident(
            device=self.DEVICE, model=model, serial=serial or f"SIM-{tag}",
            proto=PROTOCOL_VERSION, fw=FIRMWARE_VERSION, fw_hash=firmware_hash(model),
            rng="secrets" if seed is None else "seeded", seed=seed, caps=caps,
        )
        self.door_open = False
        self.door_opens = 0
        self.power_ons = 1
        self.key: bytes | None = None
        """The hello key (``--key-file``): without one the hello answers no challenge."""

    def hello(self, nonce: str | None) -> Ident:
        """The identity, answering ``nonce`` with the key when both are there."""
        if self.key is None or nonce is None:
            return self.ident
        return answer(self.key, nonce, self.ident)

    def handle(self, request: Record) -> tuple[Record, list[Record]]:
        """The reply to ``request`` and any events it raised."""
        if isinstance(request, HelloCmd):
            return self.hello(request.nonce), []
        if isinstance(request, PingCmd):
            return Pong(), []
        if isinstance(request, ClearCmd):
            return Ok(), self.clear()
        return self.handle_own(request)

    def control(self, key: str, value: str) -> list[Record]:
        """Apply one control setting; ``ValueError`` for an unknown key or a bad value."""
        if key == "door":
            return self.set_door(parse_bool(value))
        return self.control_own(key, value)

    def set_door(self, is_open: bool) -> list[Record]:
        """Open or close the service door (an event when it changes)."""
        if is_open == self.door_open:
            return []
        self.door_open = is_open
        self.door_opens += is_open
        return [Door(is_open), Fault("door_open") if is_open else Cleared("door_open")]

    def refuse(self, request: Record, code: str) -> tuple[Record, list[Record]]:
        """An ``ERR`` reply refusing ``request``."""
        return Err(request.NAME, code), []

    @abstractmethod
    def handle_own(self, request: Record) -> tuple[Record, list[Record]]:
        """Handle the device's own commands (and status / counters)."""

    @abstractmethod
    def control_own(self, key: str, value: str) -> list[Record]:
        """Apply a device-specific control setting."""

    @abstractmethod
    def clear(self) -> list[Record]:
        """The operator cleared the fault: events for what was cleared."""
