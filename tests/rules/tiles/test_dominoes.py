"""The 32 tiles: text round trip, names, the set check naming the bad tile, red pips."""

from __future__ import annotations

import pickle
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from controller.rules.errors import NotationError, RulesError
from controller.rules.tiles.dominoes import (
    FACES,
    GROUP_NAMES,
    SET_SIZE,
    Tile,
    TileSetError,
    check_full_set,
    check_one_set,
    format_tiles,
    full_set,
    parse_tiles,
)

# The tile set (docs/sources.md: [T1], [T2]), one row per face.
NAMES = {
    "6-6": "Teen", "1-1": "Day", "4-4": "Yun", "1-3": "Gor", "5-5": "Mooy", "3-3": "Chong",
    "2-2": "Bon", "5-6": "Foo", "4-6": "Ping", "1-6": "Tit", "1-5": "Look",
    "4-5": "Chop Gow", "3-6": "Chop Gow", "3-5": "Chop Bot", "2-6": "Chop Bot",
    "3-4": "Chop Chit", "2-5": "Chop Chit", "1-4": "Chop Ng", "2-3": "Chop Ng",
    "1-2": "Gee Joon", "2-4": "Gee Joon",
}  # fmt: skip
# Red pips per tile: every one and four is red; the 6-6 has three red per end (section 1.1).
RED = {
    "1-2": 1, "2-4": 4, "6-6": 6, "1-1": 2, "4-4": 8, "1-3": 1, "5-5": 0, "3-3": 0, "2-2": 0,
    "5-6": 0, "4-6": 4, "1-6": 1, "1-5": 1, "4-5": 4, "3-6": 0, "3-5": 0, "2-6": 0, "3-4": 4,
    "2-5": 0, "1-4": 5, "2-3": 0,
}  # fmt: skip


def test_twenty_one_faces_thirty_two_tiles() -> None:
    assert len(FACES) == 21 and len(full_set()) == SET_SIZE == 32
    civil = [t for t in FACES if t.civil]
    assert len(civil) == 11 and all(t.copies == 2 for t in civil)
    assert {str(t) for t in FACES} == set(NAMES)


@pytest.mark.parametrize("text", sorted(NAMES))
def test_text_round_trip_and_name(text: str) -> None:
    tile = Tile.parse(text)
    assert str(tile) == text
    assert Tile.parse(str(tile)) is tile
    assert tile.name == NAMES[text]
    assert eval(repr(tile), {"Tile": Tile}) is tile  # repr is the parse call
    assert pickle.loads(pickle.dumps(tile)) is tile


@given(st.sampled_from(FACES))
def test_either_order_reads_the_same_tile(tile: Tile) -> None:
    low, high = tile.ends
    assert Tile.parse(f"{high}-{low}") is tile
    assert Tile.parse(f" {low} - {high} ") is tile


def test_pips_groups_and_gee_joon() -> None:
    assert Tile.parse("6-6").pips == 12 and Tile.parse("1-2").pips == 3
    assert [Tile.parse(t).is_gee_joon for t in ("1-2", "2-4", "3-3")] == [True, True, False]
    # The 16 pair groups, Gee Joon first: the mixed ones hold two different faces.
    groups = Counter(t.group for t in full_set())
    assert len(groups) == 16 and set(groups.values()) == {2}
    assert GROUP_NAMES[Tile.parse("3-5").group] == "Chop Bot"
    assert Tile.parse("3-5").group == Tile.parse("2-6").group
    assert Tile.parse("4-4").group != Tile.parse("3-5").group  # eight pips, not a pair


@pytest.mark.parametrize(("text", "red"), sorted(RED.items()))
def test_red_pips(text: str, red: int) -> None:
    assert Tile.parse(text).red_pips == red


def test_pips_and_red_pips_tell_the_scoring_classes_apart() -> None:
    """Section 0 fact 10: (pips, red pips) identifies each pair group, but 2-6 and 3-5."""
    seen: dict[tuple[int, int], set[int]] = {}
    for tile in FACES:
        seen.setdefault((tile.pips, tile.red_pips), set()).add(tile.group)
    assert all(len(groups) == 1 for groups in seen.values())
    assert len({(t.pips, t.red_pips) for t in FACES}) == 20  # 21 faces, 2-6 = 3-5


@pytest.mark.parametrize(
    ("text", "named"),
    [("7-7", "'7-7'"), ("0-3", "'0-3'"), ("66", "'66'"), ("6-6-6", "'6-6-6'"), ("", "''"),
     ("a-b", "'a-b'")],
)
def test_unknown_tiles_are_named(text: str, named: str) -> None:
    with pytest.raises(NotationError, match=named):
        Tile.parse(text)


def test_tile_errors_are_rules_errors_and_value_errors() -> None:
    with pytest.raises(ValueError):
        Tile.parse("9-9")
    assert issubclass(TileSetError, RulesError)
    with pytest.raises(NotationError, match="21"):
        Tile(21)


def test_parse_tiles_and_format() -> None:
    tiles = parse_tiles("6-6, 4-5  2-1 3-3")
    assert format_tiles(tiles) == "6-6 4-5 1-2 3-3"
    assert parse_tiles(["6-6", Tile.parse("1-1")]) == (Tile.parse("6-6"), Tile.parse("1-1"))
    with pytest.raises(TileSetError, match="needs 4 tiles, got 3: '6-6 4-5 1-2'"):
        parse_tiles("6-6 4-5 1-2", 4)


@pytest.mark.parametrize(
    ("text", "named"),
    [("6-6 6-6 6-6", "'6-6' appears 3 times"), ("4-5 5-4", "'4-5' appears 2 times"),
     ("1-2 2-1", "'1-2' appears 2 times")],
)
def test_one_set_names_the_duplicated_tile(text: str, named: str) -> None:
    with pytest.raises(TileSetError, match=named):
        parse_tiles(text)
    with pytest.raises(TileSetError, match=named):
        check_one_set([Tile.parse(t) for t in text.split()])


def test_full_set_check_passes_a_set_in_any_order() -> None:
    tiles = list(full_set())
    check_full_set(reversed(tiles))
    check_full_set(tiles[16:] + tiles[:16])


@pytest.mark.parametrize(
    ("change", "named"),
    [
        (lambda t: t[:-1], "missing tile '1-2'"),  # the set ends with the Gee Joon 1-2
        (lambda t: [*t, Tile.parse("3-6")], "extra tile '3-6': 2 in the set"),
        (lambda t: [*t[1:], Tile.parse("2-4")], "extra tile '2-4'"),  # a 6-6 out, a 2-4 twice
        (lambda t: [Tile.parse("1-1") if x == Tile.parse("6-6") else x for x in t],
         "extra tile '1-1': 4 in the set"),
        (lambda t: [x for x in t if x != Tile.parse("5-5")], "missing tile '5-5': 0"),
    ],
)
def test_full_set_check_names_the_missing_extra_or_duplicated_tile(
    change: object, named: str
) -> None:
    assert callable(change)
    with pytest.raises(TileSetError, match=named):
        check_full_set(change(list(full_set())))
