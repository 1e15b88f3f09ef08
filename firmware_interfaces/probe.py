"""Probe a line: who answers (hello) and in what state, for a technician or a test."""

from __future__ import annotations

from dataclasses import dataclass

from .identity import Expected
from .port import url_connector
from .protocol import shaker, shuffler
from .protocol.common import EVENTS, REPLIES, Ident, StatusCmd
from .protocol.records import Catalogue, Record
from .serial_driver import LinkStats, SerialLink, Timing

COMMON = Catalogue((*REPLIES, *EVENTS))
KINDS: dict[str, tuple[Catalogue, type[Record]]] = {
    "shuffler": (shuffler.DEVICE_CATALOGUE, shuffler.ShufflerStatus),
    "shaker": (shaker.DEVICE_CATALOGUE, shaker.ShakerStatus),
}


@dataclass(frozen=True)
class ProbeReport:
    """What a probe found: the hello, the status (``None`` for an unknown kind), line costs."""

    hello: Ident
    status: Record | None
    stats: LinkStats
    keyed: bool = False  # the hello answered the challenge with the key given


def probe(url: str, timing: Timing | None = None, key: bytes | None = None) -> ProbeReport:
    """Connect to ``url``, read the hello and the status, and hang up.

    With ``key``, the hello must answer the challenge with it (``DeviceRefused`` if not).
    Raises ``LineLost`` when the line cannot be opened, ``DeviceTimeout`` when nothing
    answers, ``ProtocolError`` when something answers in another language.
    """
    link = SerialLink(url_connector(url), COMMON, Expected(None, key=key), name="probe",
                      timing=timing)
    try:
        hello = link.start()
        kind = KINDS.get(hello.device)
        status = None
        if kind is not None:
            link.catalogue = kind[0]
            status = link.call(StatusCmd(), kind[1])
        return ProbeReport(hello, status, link.stats, key is not None)
    finally:
        link.close()
