"""Which device the table profile expects on a line, and the check that refuses any other."""

from __future__ import annotations

from dataclasses import dataclass, field

from .errors import DeviceRefused
from .protocol.challenge import answered
from .protocol.common import Ident
from .protocol.frame import PROTOCOL_VERSION


@dataclass(frozen=True)
class Expected:
    """The device a table profile approves: kind, model and firmware hashes (empty: any).

    ``device=None`` accepts any kind (the probe uses it); a table always names one. ``key`` is
    the device's hello key: with it, the hello must answer the host's fresh nonce
    (``protocol.challenge``); never shown in a repr or a message.
    """

    device: str | None
    model: str | None = None
    firmware_hashes: frozenset[str] = frozenset()
    allow_seeded: bool = True
    key: bytes | None = field(default=None, repr=False)


def check_identity(ident: Ident, expected: Expected) -> None:
    """Raise ``DeviceRefused`` naming the first field of ``ident`` that ``expected`` refuses."""
    if ident.proto != PROTOCOL_VERSION:
        raise DeviceRefused(
            f"{ident.model} {ident.serial}: protocol {ident.proto!r}, this host speaks "
            f"{PROTOCOL_VERSION}"
        )
    if expected.device is not None and ident.device != expected.device:
        raise DeviceRefused(f"expected a {expected.device}, the line has a {ident.device!r}")
    if expected.model is not None and ident.model != expected.model:
        raise DeviceRefused(
            f"{ident.device}: model {ident.model!r} is not the approved {expected.model!r}"
        )
    if expected.firmware_hashes and ident.fw_hash not in expected.firmware_hashes:
        raise DeviceRefused(
            f"{ident.device} {ident.serial}: firmware hash {ident.fw_hash!r} is not approved"
        )
    if ident.rng == "seeded" and not expected.allow_seeded:
        raise DeviceRefused(
            f"{ident.device} {ident.serial}: seeded randomness (seed {ident.seed}) is for "
            "tests and replay only"
        )


def check_same_device(first: Ident, again: Ident) -> None:
    """Raise ``DeviceRefused`` unless ``again`` (after a reconnect) is the device first seen."""
    for name in ("device", "model", "serial", "fw_hash"):
        if getattr(first, name) != getattr(again, name):
            raise DeviceRefused(
                f"another device answered after a reconnect: {name} "
                f"{getattr(again, name)!r}, was {getattr(first, name)!r}"
            )


def check_answer(ident: Ident, nonce: str, expected: Expected, where: str) -> None:
    """Raise ``DeviceRefused`` unless ``ident`` answers ``nonce`` with the expected key (when
    the table names one): a hello copied from another exchange, or signed with another key."""
    if expected.key is None or answered(expected.key, nonce, ident):
        return
    how = "no answer to" if ident.mac is None else "a wrong answer to"
    raise DeviceRefused(f"{ident.device} {ident.serial} at {where}: {how} the hello's challenge "
                        f"(a copied hello, or not the device whose key the table names)")
