"""The table cache: a round trip, a key that follows its inputs, and no use of a bad file."""

from __future__ import annotations

import numpy as np
import pytest

from controller.analysis.poker import cache as poker_cache
from controller.rules.poker.hand_rules import PokerRules, Wheel


@pytest.fixture
def folder(tmp_path, monkeypatch):
    monkeypatch.setenv("PAIGOW_CACHE", str(tmp_path))
    return tmp_path


def table(n: int, seed: int):
    rng = np.random.default_rng(seed)
    return (rng.integers(0, 1 << 21, n, dtype=np.int32),
            rng.integers(0, 1 << 24, n, dtype=np.int32))


def test_round_trip(folder):
    low, high = table(50, 1)
    poker_cache.store("simple", PokerRules(), (low, high))
    got = poker_cache.load("simple", PokerRules(), 50)
    assert got is not None and (got[0] == low).all() and (got[1] == high).all()
    assert len(list(folder.glob("simple-*.npz"))) == 1


def test_key_follows_the_way_and_the_rules(folder):
    poker_cache.store("simple", PokerRules(), table(50, 1))
    assert poker_cache.load("foxwoods", PokerRules(), 50) is None
    assert poker_cache.load("simple", PokerRules(wheel=Wheel.LOWEST), 50) is None
    assert poker_cache.load("simple", PokerRules(), 51) is None  # another deck's classes
    keys = {poker_cache.table_key(w, PokerRules()) for w in ("simple", "foxwoods")}
    assert len(keys) == 2


def test_a_damaged_file_is_not_used(folder):
    poker_cache.store("simple", PokerRules(), table(50, 1))
    (path,) = folder.glob("simple-*.npz")
    path.write_bytes(b"not a table")
    assert poker_cache.load("simple", PokerRules(), 50) is None


def test_off_means_off(tmp_path, monkeypatch):
    monkeypatch.setenv("PAIGOW_CACHE", "off")
    assert poker_cache.cache_dir() is None
    poker_cache.store("simple", PokerRules(), table(5, 2))
    assert poker_cache.load("simple", PokerRules(), 5) is None
    assert list(tmp_path.iterdir()) == []
