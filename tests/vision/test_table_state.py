"""Table states as data: their JSON round trip, what a layout refuses, changes between two."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from vision.cards.codes import CODES
from vision.layout import Layout
from vision.table_video.state import (
    Chips,
    Content,
    Dice,
    Hand,
    Packet,
    StateError,
    TableState,
)
from vision.tiles.faces import CODES as TILE_CODES

ROOT = Path(__file__).resolve().parents[2]
POKER = Layout.load(ROOT / "config" / "layouts" / "paigow-poker.toml")

contents: st.SearchStrategy[Content] = st.one_of(
    st.builds(Hand, st.lists(st.sampled_from(CODES + TILE_CODES), max_size=5).map(tuple)),
    st.builds(Packet, st.integers(0, 9)),
    st.builds(Dice, st.lists(st.integers(1, 6), max_size=3).map(tuple)),
    st.builds(Chips, st.integers(1, 20)))
regions = st.dictionaries(st.sampled_from([n for n, _ in POKER.regions]), contents)


@given(st.sampled_from(["poker", "tiles"]), regions)
def test_json_round_trip(game: str, held: dict[str, Content]) -> None:
    state = TableState.of(game, held)  # type: ignore[arg-type]
    text = json.dumps(state.to_json())
    assert TableState.from_json(json.loads(text)) == state


def test_a_showdown_checks_and_changes() -> None:
    state = TableState.of("poker", {"seat2.high": Hand(("As", "Kd", "Qh", "9s", "9c")),
                                    "seat2.low": Hand(("4d", "Jk")), "seat2.bet": Chips(3),
                                    "dealer.high": Packet(7), "dice": Dice((3, 5, 6))})
    state.check(POKER)
    after = state.put("dealer.high", None).put("seat3.bet", Chips(1))
    assert state.changed(after) == ("dealer.high", "seat3.bet")
    assert after.at("dealer.high") is None and state.hands()["seat2.low"] == ("4d", "Jk")


@pytest.mark.parametrize(("region", "content", "match"), [
    ("seat9.high", Packet(7), "no region 'seat9.high'"),
    ("seat2.bet", Dice((1, 2, 3)), "dice lie in the 'dice' area"),
    ("dice", Chips(2), "chips lie on a bet circle"),
    ("seat2.low", Hand(("As",)), "low hand holds 2"),
    ("seat2.low", Hand(("As", "1-3")), "'1-3' is not a card"),
    ("seat2.high", Packet(4), "packet holds 7"),
    ("dice", Dice((1, 2, 7)), "3 dice of 1..6"),
])
def test_what_a_layout_cannot_show(region: str, content: Content, match: str) -> None:
    with pytest.raises(StateError, match=match):
        TableState.of("poker", {region: content}).check(POKER)


def test_a_card_twice_is_refused() -> None:
    state = TableState.of("poker", {"seat2.low": Hand(("As", "2c")),
                                    "seat3.low": Hand(("As", "3c"))})
    with pytest.raises(StateError, match="'As' lies 2 times"):
        state.check(POKER)


@pytest.mark.parametrize("data", [
    {"game": "dominoes", "regions": {}}, {"game": "poker"},
    {"game": "poker", "regions": {"dice": {"dice": [1, "2", 3]}}},
    {"game": "poker", "regions": {"seat2.high": {"packet": True}}},
    {"game": "poker", "regions": {"seat2.high": {"cards": ["As"]}}},
])
def test_malformed_json_is_named(data: object) -> None:
    with pytest.raises(StateError):
        TableState.from_json(data)
