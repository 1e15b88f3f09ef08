"""The shuffler never reveals the order of cards not yet dealt: not in its API, not on the wire.

A driver API or a message that could is a defect (COMAR 36.05.02.17 G, docs/sources.md [R2]).
The schema below is pinned: a new field or method must be added here, by someone who thought
about it.
"""

from __future__ import annotations

import inspect
from typing import get_type_hints

from firmware_interfaces.port import Port
from firmware_interfaces.protocol.frame import Frame, Kind
from firmware_interfaces.protocol.records import Record
from firmware_interfaces.protocol.shuffler import DEVICE_CATALOGUE, Packet, ShuffleResult
from firmware_interfaces.protocol.stream import StreamDecoder
from firmware_interfaces.shuffler import ShufflerDriver
from firmware_interfaces.sim import fake_shuffler

DRIVER_API = {
    "open", "hello", "events", "stats", "connected", "reads_cards", "status", "counters",
    "ping", "clear", "control", "shuffle", "deal", "interrupt", "close",
    "CATALOGUE", "COUNTERS", "DEVICE", "STATUS",
}
DEVICE_MESSAGES = {
    "IDENT": {"device", "model", "serial", "proto", "fw", "fw_hash", "rng", "seed", "caps",
              "mac"},
    "OK": set(), "PONG": set(), "ERR": {"cmd", "code"},
    "FAULT": {"code"}, "CLEARED": {"code"}, "DOOR": {"open"},
    "SHUFFLED": {"shuffle", "count", "deck", "cards"},
    "PACKET": {"shuffle", "n", "count", "cards"},
    "STATE": {"state", "door_open", "shuffle", "packets", "count"},
    "USAGE": {"shuffles", "packets", "cards", "jams", "door_opens", "power_ons"},
}
# Lists of words: the dealt packet's cards, the problem cards of a count (sorted: a set, not an
# order), and the capabilities in the hello (fixed at power-on, before any deck is loaded).
WORD_LISTS = {("PACKET", "cards"), ("SHUFFLED", "cards"), ("IDENT", "caps")}


def test_the_driver_api_is_exactly_this() -> None:
    public = {name for name in dir(ShufflerDriver) if not name.startswith("_")}
    assert public == DRIVER_API


def test_no_driver_method_returns_anything_but_known_records() -> None:
    allowed = {"ShuffleResult", "Packet", "ShufflerStatus", "ShufflerCounters", "NoneType", "Self",
               "S", "C", "Ident", "bool", "Queue", "LinkStats"}
    for name in DRIVER_API:
        member = inspect.getattr_static(ShufflerDriver, name)
        func = getattr(member, "fget", None) or getattr(member, "__func__", None) or member
        if not callable(func) or isinstance(func, type):
            continue
        returned = get_type_hints(func).get("return")
        label = getattr(returned, "__name__", str(returned))
        assert label.split("[")[0].split(".")[-1] in allowed, (name, returned)


def test_the_shuffler_message_set_is_pinned() -> None:
    found = {
        name: {f for f in get_type_hints(record) if f != "NAME"}
        for name, record in DEVICE_CATALOGUE.records.items()
    }
    assert found == DEVICE_MESSAGES


def test_only_dealt_cards_and_problem_cards_are_card_lists() -> None:
    word_lists = {
        (name, field)
        for name, record in DEVICE_CATALOGUE.records.items()
        for field, hint in get_type_hints(record).items()
        if "tuple[str" in str(hint)
    }
    assert word_lists == WORD_LISTS


class SpyPort:
    """Wraps a port and keeps every byte the device sent."""

    def __init__(self, port: Port, log: bytearray) -> None:
        self._port, self._log = port, log

    @property
    def in_waiting(self) -> int:
        return self._port.in_waiting

    def read(self, size: int = 1, /) -> bytes:
        data = self._port.read(size)
        self._log.extend(data)
        return data

    def write(self, data: bytes, /) -> int | None:
        return self._port.write(data)

    def close(self) -> None:
        self._port.close()


def cards_on_the_wire(wire: bytes) -> set[str]:
    seen: set[str] = set()
    for item in StreamDecoder().feed(wire):
        assert isinstance(item, Frame)
        if item.kind in (Kind.REPLY, Kind.EVENT):
            record: Record = DEVICE_CATALOGUE.decode(item.payload)
            if isinstance(record, Packet | ShuffleResult):
                seen |= set(record.cards or ())
    return seen


def test_no_card_is_on_the_wire_before_its_packet_is_dealt() -> None:
    wire = bytearray()
    with fake_shuffler(seed=5) as fake:
        shuffler = ShufflerDriver.open(lambda: SpyPort(fake.connect(), wire))
        try:
            shuffler.shuffle()
            shuffler.status()
            shuffler.counters()
            dealt: set[str] = set()
            for _ in range(7):
                assert cards_on_the_wire(bytes(wire)) == dealt  # nothing of what is to come
                packet = shuffler.deal()
                assert packet.cards is not None
                dealt |= set(packet.cards)
            assert len(dealt) == 49
        finally:
            shuffler.close()
