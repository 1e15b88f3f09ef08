"""The tile house-way loader's errors and the engine's generic keys (docs/tile_house_ways.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.config.house_ways import load_tile_way, tile_engine, tile_way_table
from controller.rules.errors import HouseWayError, RulesError
from controller.rules.tiles.codes import matches, parse_code, parse_threshold
from controller.rules.tiles.dominoes import Tile, parse_tiles
from controller.rules.tiles.hands import rank_hand
from controller.rules.tiles.house_way import TileWayEngine
from controller.rules.tiles.house_way_model import TileWay

WAYS = Path(__file__).resolve().parents[3] / "config" / "house_ways" / "tiles"
BASE = (WAYS / "foxwoods.toml").read_text(encoding="utf-8")


def _load(text: str) -> TileWay:
    return TileWay.from_toml(text, "foxwoods")


def _edited(old: str, new: str, base: str = BASE) -> str:
    assert old in base, f"foxwoods.toml no longer holds {old!r}"
    return base.replace(old, new, 1)


def test_the_shipped_ways_load_with_sources_on_every_rule() -> None:
    for name in ("foxwoods", "canberra", "taj-mahal", "jb-player"):
        way = load_tile_way(name)
        rules = [*way.exceptions]
        for section in way.sections.values():
            rules += [section.default, *section.unless]
        assert all(r.source.strip() and r.ident.startswith(f"{name}.") for r in rules)
        assert len({r.ident for r in rules}) == len(rules)
        assert way.notes


@pytest.mark.parametrize(
    ("old", "new", "named"),
    [
        ('version = "1"', 'version = "1"\ncolour = "red"', "unknown key 'colour'"),
        ('{ id = "A", pair', '{ id = "A", pear = "4", pair', "unknown key 'pear'"),
        ('play = "keep"\nsource = "FW pair', 'play = "keep"\nwhen = 1\nsource = "FW pair',
         "unknown key 'when'"),
        ('play = "split", requires = "6/8"', 'play = "splits", requires = "6/8"',
         "unknown play 'splits'"),
        ('others = ["9", "11"]', 'others = ["9", "13"]', "unknown tile code '13'"),
        ('pair = "9"', 'pair = "9|H9"', "unknown tile code 'H9'"),
        ('requires = "6/8"', 'requires = "6/8X8"', "unknown tile code 'X8'"),
        ('requires = "6/8"', 'requires = "six/8"', "unknown hand threshold 'six'"),
        ('requires = "6/8"', 'requires = "6-8"', "expected 'LOW/HIGH'"),
        ('kinds = ["wong"], source = "FW wong/gong/high nine exception A',
         'kinds = ["wang"], source = "FW wong/gong/high nine exception A', "unknown kind 'wang'"),
        ('top_tile = "high"\nsource', 'top_tile = "up"\nsource', "top_tile must be 'high'"),
        ('{ id = "C-9-11"', '{ id = "C"', "rule 'foxwoods.pairs.C' is defined twice"),
        ('name = "foxwoods"', 'name = "foxwood"', "its 'name' says 'foxwood'"),
        ('[other]\nplay = "best_low"', '[other]\nplay = "split"',
         "play 'split' cannot be the default"),
        ('makes = "8/9"', 'makes = "8/9", kinds = ["wong"]', "'kinds' goes with play 'form'"),
        ('tiles = ["2|12", "9", "8", "11"]', 'tiles = ["2|12", "9", "8"]',
         "expected 4 tile codes"),
        ('makes = "8/9"', 'makes = "8/9", points = "8/ten"', "unknown hand value 'ten'"),
        ('makes = "8/9"', 'makes = "8/9", together_points = [7, 9]', "needs 'together'"),
        ('version = "1"', 'version = "1"\n[codes]\n"12" = "6-6"', "alias '12' must be a new"),
    ],
)
def test_bad_files_are_refused_naming_the_value(old: str, new: str, named: str) -> None:
    with pytest.raises(HouseWayError) as err:
        _load(_edited(old, new))
    assert named in str(err.value)
    assert isinstance(err.value, RulesError)


def test_a_missing_section_is_named() -> None:
    text = BASE[: BASE.index("[other]")]
    with pytest.raises(HouseWayError, match=r"has no \[other\] section"):
        _load(text)


def test_bad_toml_is_a_house_way_error() -> None:
    with pytest.raises(HouseWayError, match="bad TOML"):
        _load(BASE + "\n[pairs\n")


def test_an_unknown_way_lists_the_known_ones() -> None:
    with pytest.raises(HouseWayError, match=r"unknown tile house way 'palms'.*foxwoods"):
        load_tile_way("palms")


def test_codes_and_thresholds() -> None:
    def faces(code: int) -> set[str]:
        return {str(t) for t in parse_tiles("1-2 2-4 6-6 1-1 4-4 3-5 2-6 1-6 3-4 2-5")
                if code >> t & 1}

    assert faces(parse_code("8", "x")) == {"4-4", "3-5", "2-6"}
    assert faces(parse_code("L8|2", "x")) == {"3-5", "2-6", "1-1"}
    assert faces(parse_code("gee", "x")) == {"1-2", "2-4"}
    assert faces(parse_code("H2|chop_chit", "x")) == {"6-6", "3-4", "2-5"}
    high3 = parse_threshold("3H6", "x").rank()
    assert rank_hand(parse_tiles("2-2 4-5")) < high3 == rank_hand(parse_tiles("3-3 1-6"))
    assert high3 < rank_hand(parse_tiles("1-3 4-6"))  # a 3 led by the High 4 is above it
    assert parse_threshold("high_nine", "x").rank() == rank_hand(parse_tiles("1-1 1-6"))
    assert matches(parse_tiles("6-6 4-5 3-5 5-6"),
                   [parse_code(c, "x") for c in ("11", "8", "2|12", "9")])
    assert not matches(parse_tiles("6-6 4-5 3-5 5-6"),
                       [parse_code(c, "x") for c in ("11", "8", "8", "9")])


def test_a_new_casino_differing_in_data_only_needs_no_code() -> None:
    """Change when 12s split and the wong/gong order: the same engine follows the new text."""
    text = _edited('pair = ["2", "12"], play = "split", requires = "6/8"',
                   'pair = ["2", "12"], play = "split", requires = "7/9"')
    text = _edited('kinds = ["high_nine", "gong", "wong"]', 'kinds = ["wong", "gong", "high_nine"]',
                   text)
    engine = TileWayEngine(TileWay.from_toml(text.replace('"foxwoods"', '"elsewhere"', 1),
                                             "elsewhere"))
    split = engine.set_hand("6-6 6-6 1-5 1-6")  # the split, 8/high nine, reaches 7/9
    assert split.rule == "elsewhere.pairs.C"
    pair = engine.set_hand("6-6 6-6 2-2 4-4")  # split 6/gong falls short of 7/9: keep the Teens
    assert pair.rule == "elsewhere.pairs" and str(pair.setting.setting) == "4-4 2-2 / 6-6 6-6"
    wong = engine.set_hand("6-6 1-6 4-5 2-2")  # Foxwoods plays 3/high nine
    assert str(wong.setting.setting) == "2-2 1-6 / 6-6 4-5"


def test_the_fast_table_is_cached_and_keyed_by_sorted_faces() -> None:
    table = tile_way_table("foxwoods")
    assert table is tile_way_table("foxwoods") and len(table) == 8_130
    key = tuple(sorted(parse_tiles("6-6 4-5 1-2 3-3")))
    assert table[key] == tile_engine("foxwoods").set_hand("3-3 1-2 4-5 6-6")
    assert tuple(int(t) for t in key) in table  # plain face indices work as keys too
    assert isinstance(next(iter(table))[0], Tile)
