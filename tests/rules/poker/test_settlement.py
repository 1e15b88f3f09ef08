"""Seat outcomes, copies, fouls, commission, limits, player banking, and money that balances."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.rules.errors import CardCountError, ProfileError, SettlementError
from controller.rules.money import Commission, Rounding
from controller.rules.poker.cards import Card, parse_cards
from controller.rules.poker.comparison import (
    FoulPolicy,
    HandResult,
    Outcome,
    Reason,
    Side,
    compare_hands,
    outcome_of,
)
from controller.rules.poker.hands import Evaluator
from controller.rules.poker.setting import SPLITS, Setting, legal_settings, rank_setting
from controller.rules.poker.settlement import Settlement, TableRules, settle
from controller.rules.poker.variants import CLASSIC, VARIANTS, Variant
from controller.rules.seat import Bet, HandSet, SetBy, TableLimits

EV = Evaluator()
FOUL_TO_HOUSE_WAY = TableRules(foul=FoulPolicy.HOUSE_WAY)

# Hands used below. DEALER: pair of sixes behind K-J.
DEALER = "Kd Jh / 6c 6d 9s 5h 2c"
BEATS_BOTH = "As Qd / 8c 8d Ts 4h 3c"  # A-Q over K-J, eights over sixes
COPY_LOW = "Ks Jc / 8h 8s Tc 4d 3h"  # K-J copies K-J, eights win
COPY_BOTH = "Kc Js / 6h 6s 9c 5d 2h"  # copies both hands
FOUL = "Ac Ah / Qs Td 7c 4s 3d"  # aces in front of queen-high


def setting(text: str) -> Setting:
    return Setting.parse(text)


def house_way_stub(cards: Sequence[Card]) -> Setting:
    """Stand-in for the house-way engine: the legal setting with the best high hand."""
    best = max(legal_settings(cards, EV), key=lambda r: (r.high_rank, r.low_rank))
    return best.setting


def one_seat(player: str, wager: int = 10_000, rules: TableRules | None = None) -> Settlement:
    hands = [HandSet(1, setting(DEALER), SetBy.HOUSE_WAY), HandSet(2, setting(player))]
    return settle(hands, [Bet(2, wager)], EV, rules, reset=house_way_stub)


# --- comparing hands ----------------------------------------------------------------------------

def test_compare_hands_five_and_two_cards() -> None:
    high = parse_cards("8c 8d Ts 4h 3c")
    assert compare_hands(high, parse_cards("6c 6d 9s 5h 2c"), EV) == HandResult(Side.PLAYER)
    assert compare_hands(parse_cards("6c 6d 9s 5h 2c"), high, EV) == HandResult(Side.BANKER)
    copy = compare_hands(parse_cards("Ks Jc"), parse_cards("Kd Jh"), EV)
    assert copy == HandResult(Side.BANKER, copy=True)
    # In the low hand the joker is an ace: Jk-A is a pair of aces, and copies A-A.
    assert compare_hands(parse_cards("Jk Ah"), parse_cards("Ac Ad"), EV).copy


def test_compare_hands_needs_matching_sizes() -> None:
    with pytest.raises(CardCountError, match="'As Kd'"):
        compare_hands(parse_cards("As Kd"), parse_cards("Ac Ad 2c 3c 4c"), EV)


@pytest.mark.parametrize(
    ("high", "low", "outcome"),
    [
        (HandResult(Side.PLAYER), HandResult(Side.PLAYER), Outcome.WIN),
        (HandResult(Side.PLAYER), HandResult(Side.BANKER), Outcome.PUSH),
        (HandResult(Side.BANKER), HandResult(Side.PLAYER), Outcome.PUSH),
        (HandResult(Side.PLAYER), HandResult(Side.BANKER, copy=True), Outcome.PUSH),
        (HandResult(Side.BANKER, copy=True), HandResult(Side.BANKER), Outcome.LOSS),
        (HandResult(Side.BANKER, copy=True), HandResult(Side.BANKER, copy=True), Outcome.LOSS),
    ],
)
def test_outcome_rules(high: HandResult, low: HandResult, outcome: Outcome) -> None:
    assert outcome_of(high, low) is outcome


def test_a_copy_cannot_go_to_the_player() -> None:
    with pytest.raises(SettlementError):
        HandResult(Side.PLAYER, copy=True)


# --- one seat against the house ------------------------------------------------------------------

def test_win_pays_even_money_less_five_percent() -> None:
    result = one_seat(BEATS_BOTH)
    seat = result.seats[0]
    assert seat.comparison is not None and seat.comparison.outcome is Outcome.WIN
    assert (seat.gross, seat.commission, seat.net) == (10_000, 500, 9_500)
    assert result.net_by_position() == {1: -9_500, 2: 9_500}
    assert result.commission_total == 500


def test_win_and_copy_pushes_and_copy_both_loses() -> None:
    assert one_seat(COPY_LOW).seats[0].net == 0
    lost = one_seat(COPY_BOTH).seats[0]
    assert lost.comparison is not None and lost.comparison.outcome is Outcome.LOSS
    assert lost.net == -10_000


def test_commission_rounds_as_the_profile_says() -> None:
    up = TableRules(variant=Variant("classic", Commission(500, 25, Rounding.UP)))
    assert one_seat(BEATS_BOTH, 1_300).seats[0].commission == 50
    assert one_seat(BEATS_BOTH, 1_300, up).seats[0].commission == 75


def test_foul_loses_under_the_loss_policy() -> None:
    seat = one_seat(FOUL).seats[0]
    assert seat.comparison is not None
    assert (seat.comparison.outcome, seat.comparison.reason) == (Outcome.LOSS, Reason.FOUL)
    assert seat.net == -10_000


def test_foul_is_reset_by_the_house_way_under_that_policy() -> None:
    seat = one_seat(FOUL, rules=FOUL_TO_HOUSE_WAY).seats[0]
    assert seat.comparison is not None
    assert seat.comparison.reset_from == setting(FOUL)
    assert seat.comparison.setting == house_way_stub(setting(FOUL).cards)
    assert rank_setting(seat.comparison.setting, EV).legal
    assert seat.comparison.reason is Reason.HANDS


def test_house_way_policy_needs_a_sound_reset() -> None:
    hands = [HandSet(1, setting(DEALER)), HandSet(2, setting(FOUL))]
    with pytest.raises(SettlementError, match="no house way"):
        settle(hands, [Bet(2, 1_000)], EV, FOUL_TO_HOUSE_WAY)
    with pytest.raises(SettlementError, match="other cards"):
        settle(hands, [Bet(2, 1_000)], EV, FOUL_TO_HOUSE_WAY,
               reset=lambda cards: setting(BEATS_BOTH))
    with pytest.raises(SettlementError, match="foul too"):
        settle(hands, [Bet(2, 1_000)], EV, FOUL_TO_HOUSE_WAY, reset=lambda cards: setting(FOUL))


def test_a_foul_player_bank_loses_to_every_legal_seat() -> None:
    hands = [HandSet(1, setting(DEALER)), HandSet(2, setting(BEATS_BOTH)),
             HandSet(3, setting(FOUL))]
    result = settle(hands, [Bet(1, 2_000), Bet(2, 1_000)], EV, banker=3)
    assert result.banker_fouled
    assert [s.comparison.reason for s in result.seats if s.comparison] == [Reason.BANK_FOUL] * 2
    assert result.net_by_position() == {1: 2_000 + 50, 2: 950, 3: -3_000}


# --- limits and malformed rounds ----------------------------------------------------------------

@pytest.mark.parametrize("wager", [499, 100_001])
def test_wagers_outside_the_limits_are_named(wager: int) -> None:
    with pytest.raises(SettlementError, match=str(wager)):
        one_seat(BEATS_BOTH, wager)


def test_limits_from_a_profile() -> None:
    limits = TableLimits.from_mapping({"min_bet_cents": 1_000, "max_bet_cents": 50_000})
    assert (limits.min_bet, limits.max_bet) == (1_000, 50_000)
    with pytest.raises(ProfileError, match="'max_bet'"):
        TableLimits.from_mapping({"max_bet": 5})
    with pytest.raises(ProfileError, match="above"):
        TableLimits(min_bet=10_000, max_bet=500)


@pytest.mark.parametrize(
    ("hands", "bets", "named"),
    [
        ([(1, DEALER)], [Bet(2, 1_000)], "no hand set"),
        ([(2, BEATS_BOTH)], [Bet(2, 1_000)], "no hand set"),
        ([(1, DEALER), (1, DEALER)], [], "two hands"),
        ([(1, DEALER), (2, BEATS_BOTH)], [Bet(2, 1_000), Bet(2, 1_000)], "two bets"),
        ([(1, DEALER), (2, BEATS_BOTH)], [Bet(1, 1_000)], "cannot also wager"),
    ],
)
def test_malformed_rounds_are_refused(
    hands: list[tuple[int, str]], bets: list[Bet], named: str
) -> None:
    with pytest.raises(SettlementError, match=named):
        settle([HandSet(p, setting(t)) for p, t in hands], bets, EV)


def test_settlement_rules_from_a_profile() -> None:
    rules = TableRules.from_mapping({
        "variant": {"name": "classic", "commission": {"rate_bp": 400}},
        "foul": "house_way", "limits": {"min_bet_cents": 100}, "fortune": "PT4", "envy": False,
    })
    assert rules.variant.commission.rate_bp == 400
    assert rules.foul is FoulPolicy.HOUSE_WAY
    assert (rules.limits.min_bet, rules.fortune, rules.envy) == (100, "PT4", None)
    bad_tables: list[tuple[dict[str, object], str]] = [
        ({"vig": 5}, "'vig'"), ({"foul": "push"}, "'push'"), ({"fortune": "PT9"}, "'PT9'"),
        ({"variant": "pai-gow-mania"}, "mania"), ({"limits": [1, 2]}, r"\[1, 2\]"),
    ]
    for bad, named in bad_tables:
        with pytest.raises(ProfileError, match=named):
            TableRules.from_mapping(bad)


# --- player banking -----------------------------------------------------------------------------

def test_player_banker_pays_commission_on_its_net_win() -> None:
    hands = [HandSet(1, setting(COPY_BOTH)), HandSet(2, setting(BEATS_BOTH)),
             HandSet(3, setting(DEALER)), HandSet(5, setting(COPY_LOW))]
    bets = [Bet(1, 4_000), Bet(2, 1_000), Bet(5, 2_000)]
    result = settle(hands, bets, EV, banker=3)
    # House copies both (loses 4000, no commission); seat 2 wins 1000 less 50; seat 5 pushes.
    assert result.banker_gross == 3_000
    assert result.banker_commission == 150
    assert result.net_by_position() == {1: -4_000 + 50 + 150, 2: 950, 3: 2_850, 5: 0}


def test_player_banker_losing_overall_pays_no_commission() -> None:
    hands = [HandSet(1, setting(BEATS_BOTH)), HandSet(3, setting(DEALER))]
    result = settle(hands, [Bet(1, 4_000)], EV, banker=3)
    assert result.banker_gross == -4_000
    assert result.banker_commission == 0
    assert result.net_by_position() == {1: 4_000, 3: -4_000}  # the house pays itself nothing


def test_a_bank_must_cover_and_the_variant_must_allow_it() -> None:
    hands = [HandSet(1, setting(BEATS_BOTH)), HandSet(3, setting(DEALER))]
    with pytest.raises(SettlementError, match="does not cover"):
        settle(hands, [Bet(1, 4_000)], EV, banker=3, bank=3_000)
    with pytest.raises(SettlementError, match="'ez'"):
        settle(hands, [Bet(1, 4_000)], EV, TableRules(variant=VARIANTS["ez"]), banker=3)


# --- the whole table, at random -----------------------------------------------------------------

@st.composite
def rounds(draw: st.DrawFn) -> tuple[list[HandSet], list[Bet], TableRules, int]:
    """A random table: hands (some foul), wagers, Fortune bets, a banker and table rules."""
    order = draw(st.permutations(range(53)))
    players = draw(st.sets(st.integers(2, 7), min_size=1))
    hands = []
    for k, position in enumerate([1, *sorted(players)]):
        cards = [Card(i) for i in order[7 * k : 7 * k + 7]]
        (i, j), rest = SPLITS[draw(st.integers(0, 20))]
        hands.append(HandSet(position, Setting.of((cards[i], cards[j]),
                                                  [cards[r] for r in rest])))
    banker = draw(st.sampled_from([1, *sorted(players)]))
    variant = CLASSIC if banker != 1 else draw(st.sampled_from(list(VARIANTS.values())))
    if variant is CLASSIC:
        variant = Variant("classic", Commission(draw(st.integers(0, 1_000)),
                                                draw(st.sampled_from([1, 5, 25])),
                                                draw(st.sampled_from(list(Rounding)))))
    rules = TableRules(variant=variant, foul=draw(st.sampled_from(list(FoulPolicy))))
    bets = []
    for position in sorted(players):
        fortune = draw(st.sampled_from([0, 100, 500, 2_500]))
        wager = 0 if position == banker else draw(st.integers(500, 100_000))
        if wager or fortune:
            bets.append(Bet(position, wager, fortune))
    if banker != 1:
        bets.append(Bet(1, draw(st.integers(1, 100_000))))
    return hands, bets, rules, banker


@settings(max_examples=150, deadline=None)
@given(rounds())
def test_settlement_balances_and_follows_the_rules(
    table: tuple[list[HandSet], list[Bet], TableRules, int],
) -> None:
    hands, bets, rules, banker = table
    result = settle(hands, bets, EV, rules, banker=banker, reset=house_way_stub)
    assert sum(result.net_by_position().values()) == 0

    fee = rules.variant.commission.commission_on
    assert result.banker_commission == (fee(result.banker_gross) if banker != 1 else 0)
    by_position = {h.position: h.setting for h in hands}
    bank_rank = rank_setting(result.banker_setting, EV)
    for seat in result.seats:
        c = seat.comparison
        if c is None:
            assert seat.bet.position == banker
            continue
        expected = {Outcome.WIN: seat.bet.wager, Outcome.PUSH: 0, Outcome.LOSS: -seat.bet.wager}
        assert seat.gross == expected[c.outcome]
        is_house = seat.bet.position == 1
        assert seat.commission == (fee(seat.bet.wager) if c.outcome is Outcome.WIN
                                   and not is_house else 0)
        declared_legal = rank_setting(by_position[seat.bet.position], EV).legal
        if not declared_legal and rules.foul is FoulPolicy.LOSS:
            assert (c.outcome, c.reason) == (Outcome.LOSS, Reason.FOUL)
        if c.reason is Reason.HANDS:
            mine = rank_setting(c.setting, EV)
            high_won = mine.high_rank > bank_rank.high_rank
            low_won = mine.low_rank > bank_rank.low_rank
            assert c.outcome is (Outcome.WIN if high_won and low_won
                                 else Outcome.PUSH if high_won or low_won else Outcome.LOSS)
