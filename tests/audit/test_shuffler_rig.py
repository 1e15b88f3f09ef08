"""The shuffler simulator's ``rig`` control, in process (the audit tests drive it over a pty)."""

from __future__ import annotations

import itertools

import pytest

from firmware_interfaces.protocol.shuffler import DealCmd, Packet, ShuffleCmd
from firmware_interfaces.sim import ShufflerFaults, ShufflerSim


def _deal(sim: ShufflerSim) -> list[str]:
    sim.handle(ShuffleCmd())
    cards: list[str] = []
    for _ in range(7):
        reply, _ = sim.handle(DealCmd())
        assert isinstance(reply, Packet) and reply.cards is not None
        cards.extend(reply.cards)
    return cards


@pytest.mark.parametrize("rig", ["none", "bias"])
def test_every_rig_still_deals_a_whole_deck(rig: str) -> None:
    sim = ShufflerSim(seed=3, faults=ShufflerFaults(rig=rig))
    for _ in range(5):
        cards = _deal(sim)
        assert len(cards) == len(set(cards)) == 49


def test_repeat_deals_the_last_order_again_and_none_stops_it() -> None:
    sim = ShufflerSim(seed=3)
    first = _deal(sim)
    sim.control("rig", "repeat")
    assert _deal(sim) == first and _deal(sim) == first
    sim.control("rig", "none")
    assert _deal(sim) != first


def test_leak_keeps_most_neighbours_and_bias_plants_the_joker() -> None:
    sim = ShufflerSim(seed=4, faults=ShufflerFaults(rig="leak"))
    before = _deal(sim)
    after = _deal(sim)
    kept = set(itertools.pairwise(after)) & set(itertools.pairwise(before))
    assert after != before and len(kept) > 20  # a fair shuffle keeps about one
    biased = ShufflerSim(seed=5, faults=ShufflerFaults(rig="bias"))
    assert all("Jk" in _deal(biased)[:7] for _ in range(10))


def test_an_unknown_rig_is_named() -> None:
    with pytest.raises(ValueError, match="rig='loaded'"):
        ShufflerFaults(rig="loaded")
    with pytest.raises(ValueError, match="rig='x'"):
        ShufflerSim(seed=1).control("rig", "x")
