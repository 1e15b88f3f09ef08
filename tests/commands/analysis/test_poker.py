"""``paigow analyze poker`` and ``paigow ev poker``: output shapes and one-line errors."""

from __future__ import annotations

import json

import pytest

from controller.analysis.poker import distribution as poker_distribution
from controller.analysis.poker.classes import build_classes
from controller.cli import main
from controller.rules.poker.cards import RANKS


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    try:
        code = main(argv)
    except SystemExit as stop:
        code = int(stop.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(("argv", "named"), [
    (["analyze", "poker", "--way", "nope", "--exhaustive"], "'nope'"),
    (["analyze", "poker", "--way", "simple", "--vs", "nope"], "'nope'"),
    (["analyze", "poker", "--way", "simple", "--vs", "optimal"], "optimal"),
    (["analyze", "poker", "--way", "simple", "--rounds", "0"], "0"),
    (["analyze", "poker", "--way", "simple", "--seed", "-3"], "-3"),
    (["analyze", "poker", "--way", "simple", "--exhaustive", "--seed", "3"], "--seed"),
    (["analyze", "poker", "--way", "simple", "--exhaustive", "--banking"], "--banking"),
    (["analyze", "poker", "--way", "simple", "--profile", "nope"], "nope"),
    (["analyze", "tiles", "--way", "foxwoods", "--rounds", "5"], "--rounds"),
    (["analyze", "tiles", "--way", "foxwoods", "--exhaustive"], "--exhaustive"),
    (["ev", "poker", "As", "Kd", "Qh", "9s", "9c", "4d"], "7 cards"),
    (["ev", "poker", "As", "As", "Qh", "9s", "9c", "4d", "Jk"], "'As'"),
    (["ev", "poker", "As", "Kd", "Qh", "9s", "9c", "4d", "Zz"], "'Zz'"),
    (["ev", "poker", "As", "Kd", "Qh", "9s", "9c", "4d", "Jk", "--vs", "nope"], "'nope'"),
    (["ev", "poker"], "seven cards"),
])
def test_bad_input_is_one_line_exit_2(argv, named, capsys):
    code, out, err = run(argv, capsys)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("paigow: error: ") and named in err


def test_exhaustive_json_shape(monkeypatch, capsys):
    """On a 21-card deck (patched in), the JSON has every key and the counts add up."""
    small = build_classes([RANKS.index(r) for r in "TJQKA"])
    monkeypatch.setattr(poker_distribution, "poker_classes", lambda: small)
    monkeypatch.setenv("PAIGOW_WORKERS", "1")
    code, out, _ = run(["analyze", "poker", "--way", "foxwoods", "--exhaustive", "--json"], capsys)
    assert code == 0
    got = json.loads(out)
    assert got["hands"] == small.hands == 116_280 and got["way"] == "foxwoods"
    assert sum(got["high"].values()) == sum(got["low"].values()) == got["hands"]
    assert list(got["low"])[:3] == ["A-A", "K-K", "Q-Q"] and "3-2" in got["low"]
    assert got["low"]["3-2"] == 0  # no deuce or trey in this deck
    assert set(got["high"]) >= {"high-card", "pair", "straight", "flush", "five-aces"}


def test_exhaustive_text(monkeypatch, capsys):
    small = build_classes([RANKS.index(r) for r in "A2345"])
    monkeypatch.setattr(poker_distribution, "poker_classes", lambda: small)
    monkeypatch.setenv("PAIGOW_WORKERS", "1")
    code, out, _ = run(["analyze", "poker", "--way", "simple", "--exhaustive"], capsys)
    assert code == 0
    assert "house way simple: 116,280 hands" in out and "straight" in out and "pair A-A" in out
