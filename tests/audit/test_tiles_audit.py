"""The dealer audit of a tile table: a planted deviation, its realized cost against the same
round played by the house way, and its exact expected cost."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from controller.audit import Scope, Stake, audit_journal, expected_cost, table_rules
from controller.journal import Journal
from controller.profiles.tiles import load_tile_profile
from controller.round import FakeDice, TileRound
from controller.rules.tiles.setting import TileSetting
from tests.audit.helpers import DEALER, SYSTEM, journal_at

PLAYERS = ["2-2 5-6 1-3 4-4", "1-1 5-5 2-4 3-6", "4-6 1-6 2-6 1-4"]
DEALER_TILES = "6-6 4-5 1-2 3-3"


def _play(journal: Journal, dealer_setting: str | None) -> int:
    """One tile round; the dealer sets ``dealer_setting`` (None: the house way).  Returns the
    house's net from the settle record."""
    engine = TileRound(journal, load_tile_profile(), FakeDice(4))
    engine.open_round(DEALER)
    for position, wager in ((3, 2500), (5, 5000), (8, 2500)):
        engine.take_bet(DEALER, position, wager)
    engine.close_bets(DEALER)
    engine.build_woodpile(DEALER)
    engine.roll(SYSTEM)
    assert engine.round is not None
    hands = iter(PLAYERS)
    for position in engine.round.playing():
        if position != 1:
            engine.set_hand(DEALER, position, hand=next(hands))
    if dealer_setting is None:
        engine.expose_dealer(DEALER, hand=DEALER_TILES)
    else:
        engine.expose_dealer(DEALER, setting=dealer_setting)
    net: int = engine.settle(DEALER).payload()["net"]["1"]
    return net


def _off_the_way() -> str:
    way = table_rules("tiles", load_tile_profile().name).house_way(DEALER_TILES.split())
    tiles = DEALER_TILES.split()
    for i in range(4):
        for j in range(i + 1, 4):
            low = [tiles[i], tiles[j]]
            high = [t for k, t in enumerate(tiles) if k not in (i, j)]
            setting = TileSetting.parse(f"{' '.join(low)} / {' '.join(high)}")
            if setting != way:
                return str(setting)
    raise AssertionError("no other setting")


def test_tile_deviation_with_realized_and_exact_expected_cost(tmp_path: Path) -> None:
    twin = journal_at(tmp_path / "twin.db")
    house_way_net = _play(twin, None)
    twin.close()
    journal = journal_at(tmp_path / "tiles.db")
    setting = _off_the_way()
    actual_net = _play(journal, setting)
    audits = audit_journal(journal, str(tmp_path / "tiles.db"), Scope())
    journal.close()
    (audit,) = audits
    assert audit.game == "tiles" and audit.status == "settled"
    dev = audit.deviation
    assert dev is not None and dev.flagged and dev.source == "entered"
    assert TileSetting.parse(dev.actual) == TileSetting.parse(setting)
    assert dev.realized_cents == house_way_net - actual_net
    assert dev.expected is not None and dev.expected.exact
    assert dev.expected.hands == math.comb(28, 4) and dev.expected.staked == 10000
    table = table_rules("tiles", load_tile_profile().name)
    alone = [expected_cost(table, dev.hand, TileSetting.parse(setting),
                           TileSetting.parse(dev.house_way), [stake]).cents
             for stake in (Stake(2500), Stake(5000), Stake(2500))]
    assert dev.expected.cents == pytest.approx(sum(alone), abs=1e-6)  # each seat adds its own
