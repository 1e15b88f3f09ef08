"""Commission-free variants: no commission, and the dealer hands that push every bet."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from controller.rules.errors import ProfileError
from controller.rules.poker.cards import Card
from controller.rules.poker.comparison import Outcome, Reason
from controller.rules.poker.hands import Evaluator
from controller.rules.poker.setting import Setting, legal_settings
from controller.rules.poker.settlement import Settlement, TableRules, settle
from controller.rules.poker.variants import CLASSIC, VARIANTS, Variant, variant_named
from controller.rules.seat import Bet, HandSet

EV = Evaluator()
PLAYER_WINS = "As Kd / 8c 8d Ts 4h 3c"


def round_against(dealer: str, variant: str, player: str = PLAYER_WINS) -> Settlement:
    hands = [HandSet(1, Setting.parse(dealer)), HandSet(2, Setting.parse(player))]
    return settle(hands, [Bet(2, 10_000)], EV, TableRules(variant=variant_named(variant)))


def pushes(variant: str, dealer: str) -> bool:
    return VARIANTS[variant].dealer_pushes(Setting.parse(dealer), EV)


@pytest.mark.parametrize(
    ("dealer", "expected"),
    [
        ("Jh 9d / Qs 8c 6h 4d 2c", True),  # queen-high pai gow behind
        ("Jh 9d / Qs 8c 6h 4h 2h", True),  # four hearts is no flush
        ("Jh 9d / Ks 8c 6h 4d 2c", False),  # king high
        ("Jh 9d / Qs Qc 6h 4d 2c", False),  # a pair of queens
        ("Jh 9d / Qs 8s 6s 4s 2s", False),  # a queen-high flush
        ("Jh 9d / Qs Jc Tc 9h 8d", False),  # a queen-high straight
    ],
)
def test_ez_pushes_on_a_queen_high_dealer_hand(dealer: str, expected: bool) -> None:
    assert pushes("ez", dealer) is expected


@pytest.mark.parametrize(
    ("dealer", "expected"),
    [
        ("Kh Qd / As 8c 6h 4d 2c", True),  # ace-high pai gow
        ("Kh Qd / Jk 8c 6h 4d 2c", True),  # the joker with no pair is the ace
        ("Kh 8c / As Qd 6h 4d 2c", True),  # however the seven cards are set
        ("Kh Qd / Ks 8c 6h 4d 2c", False),  # a pair of kings in the seven
        ("Kh Qd / Js 8c 6h 4d 2c", False),  # king high
        ("Kh Qd / As 5c 4h 3d 2c", False),  # a wheel straight
        ("Kh Qd / Ah 8h 6h 4h 2c", False),  # Kh in front makes a heart flush of the seven
    ],
)
def test_face_up_pushes_on_seven_card_ace_high(dealer: str, expected: bool) -> None:
    assert pushes("face-up", dealer) is expected


@pytest.mark.parametrize(
    ("dealer", "expected"),
    [("9s 7d / As Kc Qh 4d 2c", True), ("9s 9d / As Kc Qh 4d 2c", False),
     ("Ts 2d / As Kc Qh 4d 3c", False), ("8s 7d / As Kc Qh 4d 3c", False)],
)
def test_nine_high_pushes_on_a_nine_high_dealer_low_hand(dealer: str, expected: bool) -> None:
    assert pushes("nine-high", dealer) is expected


def test_classic_never_pushes_the_table() -> None:
    assert not pushes("classic", "Jh 9d / Qs 8c 6h 4d 2c")


def test_a_variant_push_settles_every_bet_at_zero() -> None:
    result = round_against("Jh 9d / Qs 8c 6h 4d 2c", "ez")
    seat = result.seats[0]
    assert result.variant_push
    assert seat.comparison is not None
    assert (seat.comparison.outcome, seat.comparison.reason) == (Outcome.PUSH,
                                                                 Reason.VARIANT_PUSH)
    assert seat.net == 0


def test_a_foul_still_loses_when_the_dealer_pushes() -> None:
    result = round_against("Jh 9d / Qs 8c 6h 4d 2c", "ez", player="Ac Ah / Qd Td 7c 4s 3d")
    assert result.seats[0].net == -10_000


@pytest.mark.parametrize("variant", ["ez", "face-up", "nine-high"])
def test_commission_free_variants_pay_wins_in_full(variant: str) -> None:
    result = round_against("Kh Jd / 6c 6d 9s 5h 2c", variant)
    assert result.seats[0].net == 10_000
    assert round_against("Kh Jd / 6c 6d 9s 5h 2c", "classic").seats[0].net == 9_500


def test_variant_from_a_profile() -> None:
    assert Variant.from_mapping({"name": "face-up"}) is VARIANTS["face-up"]
    custom = Variant.from_mapping({"name": "classic", "commission": {"unit_cents": 5}})
    assert (custom.commission.rate_bp, custom.commission.unit_cents) == (500, 5)
    assert CLASSIC.player_banking and not VARIANTS["ez"].player_banking
    with pytest.raises(ProfileError, match="'ez'"):
        Variant.from_mapping({"name": "ez", "commission": {"rate_bp": 500}})
    with pytest.raises(ProfileError, match="'tiger'"):
        Variant.from_mapping({"name": "classic", "tiger": 9})
    with pytest.raises(ProfileError, match="'no-push'"):
        variant_named("no-push")


def _plain_face_up(cards: list[Card]) -> bool:
    """Face Up's push read directly: no rank twice (joker as ace), no straight or flush, an ace."""
    ranks = [c.rank for c in cards]
    naturals = [c for c in cards if not c.is_joker]
    joker = len(naturals) < 7
    if len(set(ranks)) < 7 or 12 not in ranks:
        return False
    suits = [c.suit for c in naturals]
    if any(suits.count(s) + joker >= 5 for s in "cdhs"):
        return False
    present = {c.rank for c in naturals}  # the joker may fill one gap of a straight
    windows = [{12, 0, 1, 2, 3}, *({*range(low, low + 5)} for low in range(9))]
    return not any(len(w - present) <= joker for w in windows)


@given(st.lists(st.integers(0, 52), min_size=7, max_size=7, unique=True))
def test_face_up_push_agrees_with_a_plain_reading(indices: list[int]) -> None:
    cards = [Card(i) for i in indices]
    setting = legal_settings(cards, EV)[0].setting
    assert VARIANTS["face-up"].dealer_pushes(setting, EV) is _plain_face_up(cards)
