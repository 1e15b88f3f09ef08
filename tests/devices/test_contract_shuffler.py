"""The card shuffler contract, run against every back end (fake, pty, TCP, ``--hardware``)."""

from __future__ import annotations

import pytest

from firmware_interfaces.errors import DeviceFault
from firmware_interfaces.protocol.common import Cleared, Door, Fault
from firmware_interfaces.protocol.shuffler import CARD, DECK_SIZE, PACKETS, standard_deck
from firmware_interfaces.shuffler import ShufflerDriver
from tests.devices.helpers import Backend, next_event


def open_ready(b: Backend) -> ShufflerDriver:
    shuffler = b.open(ShufflerDriver)
    result = shuffler.shuffle()
    assert result.ok, result
    return shuffler


def test_hello_names_the_device(shuffler_backend: Backend) -> None:
    hello = shuffler_backend.open(ShufflerDriver).hello
    assert hello.device == "shuffler" and hello.proto == 2
    assert hello.model and hello.serial and hello.fw
    assert hello.fw_hash.startswith("sha256:") and len(hello.fw_hash) == 71


def test_a_shuffle_counts_53_cards(shuffler_backend: Backend) -> None:
    shuffler = shuffler_backend.open(ShufflerDriver)
    result = shuffler.shuffle()
    assert (result.count, result.deck, result.cards, result.ok) == (DECK_SIZE, "ok", (), True)
    status = shuffler.status()
    assert (status.state, status.shuffle, status.packets, status.count) == (
        "ready", result.shuffle, 0, DECK_SIZE)


def test_seven_packets_of_seven_distinct_cards_then_empty(shuffler_backend: Backend) -> None:
    shuffler = open_ready(shuffler_backend)
    dealt: list[str] = []
    for n in range(1, PACKETS + 1):
        packet = shuffler.deal()
        assert (packet.n, packet.count) == (n, 7)
        if shuffler.reads_cards:
            assert packet.cards is not None and all(CARD.fullmatch(c) for c in packet.cards)
            dealt += packet.cards
    if shuffler.reads_cards:
        assert len(set(dealt)) == 49 and set(dealt) <= set(standard_deck())
    with pytest.raises(DeviceFault) as caught:
        shuffler.deal()
    assert caught.value.code == "empty"
    assert shuffler.status().state == "empty"


def test_deal_before_shuffle_is_refused(shuffler_backend: Backend) -> None:
    shuffler_backend.require_control()
    shuffler = shuffler_backend.open(ShufflerDriver)
    with pytest.raises(DeviceFault, match="need_shuffle"):
        shuffler.deal()


def test_counters_count_use(shuffler_backend: Backend) -> None:
    shuffler = shuffler_backend.open(ShufflerDriver)
    before = shuffler.counters()
    shuffler.shuffle()
    shuffler.deal()
    after = shuffler.counters()
    assert after.shuffles == before.shuffles + 1
    assert (after.packets, after.cards) == (before.packets + 1, before.cards + 7)
    assert after.power_ons >= 1


def test_jam_after_two_packets_then_clear(shuffler_backend: Backend) -> None:
    shuffler_backend.require_control()
    shuffler = open_ready(shuffler_backend)
    shuffler.control(jam_after=2)
    assert [shuffler.deal().n for _ in range(2)] == [1, 2]
    with pytest.raises(DeviceFault) as caught:
        shuffler.deal()
    assert caught.value.code == "jam"
    assert next_event(shuffler, lambda e: e.record == Fault("jam"))
    assert shuffler.status().state == "jammed"
    with pytest.raises(DeviceFault, match="jam"):
        shuffler.shuffle()
    shuffler.clear()
    assert next_event(shuffler, lambda e: e.record == Cleared("jam"))
    assert shuffler.deal().n == 3
    assert shuffler.counters().jams == 1


@pytest.mark.parametrize(
    ("settings", "count", "deck", "named"),
    [
        ({"cards": 52}, 52, "missing", 1),
        ({"cards": 54}, 54, "extra", 1),
        ({"duplicate": "As"}, 53, "duplicate", 1),
        ({"foreign": True}, 53, "foreign", 0),
    ],
)
def test_a_bad_deck_is_reported_and_not_dealt(
    shuffler_backend: Backend, settings: dict[str, object], count: int, deck: str, named: int
) -> None:
    shuffler_backend.require_control()
    shuffler = shuffler_backend.open(ShufflerDriver)
    shuffler.control(**settings)  # type: ignore[arg-type]
    result = shuffler.shuffle()
    assert (result.count, result.deck, result.ok, len(result.cards)) == (count, deck, False, named)
    if deck == "duplicate":
        assert result.cards == ("As",)
    assert next_event(shuffler, lambda e: e.record == Fault("deck"))
    assert shuffler.status().state == "deck_fault"
    with pytest.raises(DeviceFault) as caught:
        shuffler.deal()
    assert caught.value.code == "deck"


def test_door_open_stops_the_machine(shuffler_backend: Backend) -> None:
    shuffler_backend.require_control()
    shuffler = shuffler_backend.open(ShufflerDriver)
    shuffler.control(door="open")
    assert next_event(shuffler, lambda e: e.record == Door(True))
    assert next_event(shuffler, lambda e: e.record == Fault("door_open"))
    assert shuffler.status().state == "door_open"
    with pytest.raises(DeviceFault, match="door_open"):
        shuffler.shuffle()
    shuffler.control(door="closed")
    assert next_event(shuffler, lambda e: e.record == Cleared("door_open"))
    assert shuffler.shuffle().ok
    assert shuffler.counters().door_opens == 1


def test_unknown_control_is_refused(shuffler_backend: Backend) -> None:
    shuffler_backend.require_control()
    shuffler = shuffler_backend.open(ShufflerDriver)
    with pytest.raises(DeviceFault) as caught:
        shuffler.control(warp_drive=1)
    assert caught.value.code == "bad_control"
    shuffler.ping()
