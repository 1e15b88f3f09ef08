"""The house-way loader's error messages and the engine's generic behaviour (docs/house_ways.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.rules.errors import HouseWayError
from controller.rules.poker.hand_rules import PokerRules
from controller.rules.poker.hand_shape import Pattern
from controller.rules.poker.hands import Evaluator
from controller.rules.poker.house_way import HouseWayEngine
from controller.rules.poker.house_way_model import HouseWay
from controller.rules.poker.setting import Setting

WAYS = Path(__file__).resolve().parents[3] / "config" / "house_ways" / "poker"
BASE = (WAYS / "trump-plaza.toml").read_text(encoding="utf-8")


def _load(text: str) -> HouseWay:
    return HouseWay.from_toml(text, "trump-plaza")


def _edited(old: str, new: str) -> str:
    assert old in BASE, f"trump-plaza.toml no longer holds {old!r}"
    return BASE.replace(old, new, 1)


def test_the_model_file_loads() -> None:
    way = _load(BASE)
    assert set(way.sections) == set(Pattern)
    assert way.sections[Pattern.QUADS].foul_fallback is not None


@pytest.mark.parametrize(
    ("old", "new", "named"),
    [
        ('version = "1"', 'version = "1"\ncolour = "red"', "'colour'"),
        ('play = "keep"', 'play = "keep"\nwhen = "always"', "'when'"),
        ('{ rank = "A", play = "split"', '{ rank = "A", kickr_min = "K", play = "split"',
         "'kickr_min'"),
    ],
)
def test_unknown_key_is_named(old: str, new: str, named: str) -> None:
    with pytest.raises(HouseWayError, match=f"unknown key {named}"):
        _load(_edited(old, new))


def test_unknown_play_is_named() -> None:
    text = _edited('play = "highest_pair_front"', 'play = "best_pair_front"')
    with pytest.raises(HouseWayError, match="unknown play 'best_pair_front'") as err:
        _load(text)
    assert "three_pair" in str(err.value)


def test_unknown_straight_play_is_named() -> None:
    text = _edited('no_pair = { play = "straight"', 'no_pair = { play = "wheel"')
    with pytest.raises(HouseWayError, match="unknown play 'wheel'"):
        _load(text)


@pytest.mark.parametrize("bad", ['"Z"', '"1"', '"KK"'])
def test_bad_rank_is_named(bad: str) -> None:
    text = _edited('high_pair = ["2", "6"], kicker_min = "K"',
                   f'high_pair = ["2", {bad}], kicker_min = "K"')
    with pytest.raises(HouseWayError, match=f"unknown rank {bad.replace(chr(34), chr(39))}"):
        _load(text)


def test_bad_front_threshold_is_named() -> None:
    text = _edited('front_min = "AK"', 'front_min = "KA"')
    with pytest.raises(HouseWayError, match="'KA'"):
        _load(text)


def test_missing_section_is_named() -> None:
    start = BASE.index("[quads_trips]")
    end = BASE.index("[five_aces]")
    with pytest.raises(HouseWayError, match=r"no \[quads_trips\] section"):
        _load(BASE[:start] + BASE[end:])


def test_missing_straights_entry_is_named() -> None:
    lines = [ln for ln in BASE.splitlines() if not ln.startswith("quads_trips = {")]
    with pytest.raises(HouseWayError, match="no 'quads_trips' entry"):
        _load("\n".join(lines))


def test_unknown_straights_pattern_is_named() -> None:
    text = BASE + (
        'unless = [ { pattern = "two_pairs", play = "pattern", source = "x" } ]\n'
    )
    with pytest.raises(HouseWayError, match="unknown pattern 'two_pairs'"):
        _load(text)


def test_name_must_match_the_file() -> None:
    with pytest.raises(HouseWayError, match="'other'"):
        HouseWay.from_toml(BASE, "other")


# The engine: a play names ranks; the cards of those ranks that go forward leave the best back.

@pytest.mark.parametrize("equal_ok", [True, False])
def test_split_aces_keep_the_joker_flush_behind(equal_ok: bool) -> None:
    engine = HouseWayEngine(_load(BASE), Evaluator(PokerRules(high_may_equal_low=equal_ok)))
    choice = engine.set_hand("Ah Jk As Ac Jh 2h Kh")
    assert choice.rule == "trump-plaza.quads"  # four aces always split, no fallback needed
    assert choice.setting.setting == Setting.parse("As Ac / Ah Jk Kh Jh 2h")
    assert choice.setting.words() == ("pair of aces", "flush, ace high")


def test_without_a_better_back_naturals_go_forward_and_the_joker_stays() -> None:
    engine = HouseWayEngine(_load(BASE), Evaluator())
    choice = engine.set_hand("Ac Ad Ah Jk 9s 6d 4c")
    assert choice.setting.setting == Setting.parse("Ah Ad / Ac Jk 9s 6d 4c")


def test_strict_ruleset_falls_back_where_a_split_would_foul() -> None:
    engine = HouseWayEngine(_load(BASE), Evaluator(PokerRules(high_may_equal_low=False)))
    choice = engine.set_hand("Ac Ad Ah As Kd 9c 2h")
    assert choice.rule == "trump-plaza.quads.foul_fallback"
    assert choice.setting.setting == Setting.parse("Kd 9c / Ac Ad Ah As 2h")
