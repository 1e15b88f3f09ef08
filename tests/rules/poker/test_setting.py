"""Settings: the 21 splits, legality, and the text form."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from controller.rules.errors import CardCountError, DuplicateCardError, FoulError, NotationError
from controller.rules.poker.cards import Card, full_deck, parse_cards
from controller.rules.poker.hands import Evaluator
from controller.rules.poker.setting import Setting, all_settings, check_legal, legal_settings

EV = Evaluator()
seven_cards = st.lists(st.sampled_from(full_deck()), min_size=7, max_size=7, unique=True)


@given(seven_cards)
def test_21_distinct_splits_and_at_least_one_legal(cards: list[Card]) -> None:
    splits = all_settings(cards, EV)
    assert len(splits) == 21
    assert len({frozenset(map(int, s.setting.low)) for s in splits}) == 21
    for s in splits:
        assert sorted(map(int, s.setting.cards)) == sorted(map(int, cards))
    legal = legal_settings(cards, EV)
    assert legal and all(EV.high_beats_low(s.high_rank, s.low_rank) for s in legal)


def test_setting_text_round_trip() -> None:
    s = Setting.parse("kd QH / as jk 9S 9c 4d")
    assert str(s) == "Kd Qh / Jk As 9s 9c 4d"
    assert Setting.parse(str(s)) == s


@pytest.mark.parametrize(
    ("text", "error", "named"),
    [
        ("Kd Qh As Jk 9s 9c 4d", NotationError, "one '/'"),
        ("Kd / As Jk 9s 9c 4d Qh", CardCountError, "low hand needs 2"),
        ("Kd Qh / As Jk 9s 9c", CardCountError, "high hand needs 5"),
        ("Kd Qh / As Kd 9s 9c 4d", DuplicateCardError, "'Kd'"),
    ],
)
def test_bad_setting_text_is_named(text: str, error: type[Exception], named: str) -> None:
    with pytest.raises(error, match=named):
        Setting.parse(text)


def test_foul_is_detected_and_named() -> None:
    with pytest.raises(FoulError, match="Ad Ac / Kc Qd 9h 7s 4c"):
        check_legal(Setting.parse("Ac Ad / Kc Qd 9h 7s 4c"), EV)
    assert check_legal(Setting.parse("Kc Qd / Ac Ad 9h 7s 4c"), EV).legal


def test_no_pair_hand_has_legal_and_foul_splits() -> None:
    cards = parse_cards("Ac Kd 9h 7s 5c 4d 2h")
    legal = {str(s.setting) for s in legal_settings(cards, EV)}
    assert "Kd 9h / Ac 7s 5c 4d 2h" in legal
    assert "Ac Kd / 9h 7s 5c 4d 2h" not in legal
