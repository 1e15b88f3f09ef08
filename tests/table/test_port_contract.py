"""The engine's port contract, run against the in-memory fakes and the simulator processes alike.

What the engine relies on: a whole deck counts 53, seven packets of seven distinct cards, a
short deck counts 52 once, a lost device raises ``DeviceLostError``, a no-game shake carries a
reason, and the randomness a seeded device reports.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from controller.journal import Randomness
from controller.round import DeviceLostError, FakeDice, FakeShuffler
from controller.table import SerialDicePort, SerialShufflerPort

from .conftest import OpenTable


@dataclass
class Ports:
    """A shuffler and a shaker of one back end, both able to ``inject`` faults."""

    shuffler: FakeShuffler | SerialShufflerPort
    dice: FakeDice | SerialDicePort
    seed: int


@pytest.fixture(params=["fake", "sim"])
def ports(request: pytest.FixtureRequest, table: OpenTable) -> Iterator[Ports]:
    """The ports on the fakes, then on simulator processes over ptys."""
    if request.param == "fake":
        yield Ports(FakeShuffler(21), FakeDice(21), 21)
        return
    devices = table("poker", seed=21)
    assert devices.shuffler is not None
    yield Ports(devices.shuffler, devices.dice, 21)


def test_a_whole_deck_deals_seven_packets_of_distinct_cards(ports: Ports) -> None:
    assert ports.shuffler.shuffle() == 53
    packets = [ports.shuffler.next_packet() for _ in range(7)]
    assert all(len(p) == 7 for p in packets)
    assert len({c for p in packets for c in p}) == 49
    assert ports.shuffler.randomness == Randomness.seeded(ports.seed)


def test_a_short_deck_counts_52_once(ports: Ports) -> None:
    ports.shuffler.inject("short_count")
    assert ports.shuffler.shuffle() == 52
    assert ports.shuffler.shuffle() == 53


def test_a_lost_shuffler_raises_device_lost(ports: Ports) -> None:
    ports.shuffler.shuffle()
    ports.shuffler.inject("lost")
    with pytest.raises(DeviceLostError, match="shuffler-1"):
        ports.shuffler.next_packet()


def test_dice_roll_three_faces_or_say_why_not(ports: Ports) -> None:
    roll = ports.dice.roll()
    assert roll.faces is not None and all(1 <= f <= 6 for f in roll.faces)
    ports.dice.inject("no_game")
    spoiled = ports.dice.roll()
    assert spoiled.faces is None and spoiled.no_game == "cocked die"
    assert ports.dice.randomness == Randomness.seeded(ports.seed)
    ports.dice.inject("lost")
    with pytest.raises(DeviceLostError, match="shaker-1"):
        ports.dice.roll()
