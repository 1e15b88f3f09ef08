"""Tile rounds settle through the same bank as the cards: outcomes, copies, 0-0, fouls,
commission, player banking, and money that balances."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.rules.bank import BankRules, Settlement
from controller.rules.comparison import FoulPolicy, Outcome, Reason
from controller.rules.errors import ProfileError, SettlementError
from controller.rules.money import Commission, Rounding
from controller.rules.poker.hands import Evaluator
from controller.rules.poker.setting import Setting
from controller.rules.poker.settlement import settle
from controller.rules.seat import Bet, HandSet, SetBy
from controller.rules.tiles.comparison import TileHands
from controller.rules.tiles.dominoes import Tile, TileSetError, full_set
from controller.rules.tiles.hands import GeeJoonTie, TileRules, is_copy, player_wins, rank_hand
from controller.rules.tiles.setting import TILE_SPLITS, TileSetting, tile_settings
from controller.rules.tiles.settlement import settle_tiles

DEALER = "1-3 1-5 / 4-4 5-6"  # 0 (Gor high) / 9 (Yun high)
BEATS_BOTH = "3-4 1-4 / 6-6 3-6"  # 2 over 0, a wong over a nine
ZERO_LOW = "5-5 4-6 / 1-1 4-5"  # 0-0 goes to the banker, the wong wins: push
COPY_BOTH = "2-2 3-3 / 4-4 5-6"  # 0-0 and 9 Yun high against 9 Yun high: loss
FOUL = "6-6 2-6 / 2-3 1-2"  # a gong in front of an 8
HOUSE_WAY = BankRules(foul=FoulPolicy.HOUSE_WAY)


def setting(text: str) -> TileSetting:
    return TileSetting.parse(text)


def house_way_stub(tiles: Sequence[Tile]) -> TileSetting:
    """Stand-in for the tile house-way engine: the setting with the best high hand."""
    return max(tile_settings(tiles), key=lambda r: (r.high_rank, r.low_rank)).setting


def one_seat(
    player: str, wager: int = 10_000, rules: BankRules | None = None
) -> Settlement[TileSetting]:
    hands = [HandSet(1, setting(DEALER), SetBy.HOUSE_WAY), HandSet(2, setting(player))]
    return settle_tiles(hands, [Bet(2, wager)], rules=rules, reset=house_way_stub)


def outcome(player: str) -> Outcome:
    seat = one_seat(player).seats[0]
    assert seat.comparison is not None
    return seat.comparison.outcome


def test_both_higher_wins_even_money_less_five_percent() -> None:
    seat = one_seat(BEATS_BOTH).seats[0]
    assert seat.comparison is not None and seat.comparison.outcome is Outcome.WIN
    assert (seat.gross, seat.commission, seat.net) == (10_000, 500, 9_500)


def test_a_zero_zero_low_pushes_a_winning_high_and_copies_lose() -> None:
    seat = one_seat(ZERO_LOW).seats[0]
    assert seat.comparison is not None and seat.comparison.low is not None
    assert seat.comparison.low.copy  # 0-0 to the banker, Mooy high or not
    assert seat.comparison.outcome is Outcome.PUSH and seat.net == 0
    assert outcome(COPY_BOTH) is Outcome.LOSS
    assert one_seat(COPY_BOTH).seats[0].net == -10_000


def test_commission_rounds_as_the_profile_says() -> None:
    up = BankRules(commission=Commission(500, 25, Rounding.UP))
    assert one_seat(BEATS_BOTH, 1_300).seats[0].commission == 50
    assert one_seat(BEATS_BOTH, 1_300, up).seats[0].commission == 75


def test_a_foul_loses_or_is_reset_by_the_house_way() -> None:
    lost = one_seat(FOUL).seats[0]
    assert lost.comparison is not None
    assert (lost.comparison.outcome, lost.comparison.reason) == (Outcome.LOSS, Reason.FOUL)
    reset = one_seat(FOUL, rules=HOUSE_WAY).seats[0]
    assert reset.comparison is not None and reset.comparison.reset_from == setting(FOUL)
    assert reset.comparison.setting == house_way_stub(setting(FOUL).tiles)
    assert TileHands().legal(reset.comparison.setting)


def test_the_house_way_policy_needs_a_sound_reset() -> None:
    hands = [HandSet(1, setting(DEALER)), HandSet(2, setting(FOUL))]
    with pytest.raises(SettlementError, match="no house way"):
        settle_tiles(hands, [Bet(2, 1_000)], rules=HOUSE_WAY)
    with pytest.raises(SettlementError, match="other tiles"):
        settle_tiles(hands, [Bet(2, 1_000)], rules=HOUSE_WAY,
                     reset=lambda tiles: setting(BEATS_BOTH))
    with pytest.raises(SettlementError, match="foul too"):
        settle_tiles(hands, [Bet(2, 1_000)], rules=HOUSE_WAY, reset=lambda tiles: setting(FOUL))


def test_the_gee_joon_convention_reaches_settlement() -> None:
    """Section 0 fact 5: 2-4 with 1-4 against 1-2 with 2-3, both 8 on a Chop Ng."""
    hands = [HandSet(1, setting("1-2 2-3 / 5-5 5-5")), HandSet(2, setting("2-4 1-4 / 6-6 6-6"))]
    casino = settle_tiles(hands, [Bet(2, 1_000)]).seats[0].comparison
    by_pips = settle_tiles(hands, [Bet(2, 1_000)], TileRules(GeeJoonTie.BY_PIPS)).seats[0]
    assert casino is not None and by_pips.comparison is not None
    assert casino.outcome is Outcome.PUSH  # the low hands copy: a Gee Joon tile has no value
    assert by_pips.comparison.outcome is Outcome.WIN  # the 2-4 ranks above the 1-2


def test_player_banker_pays_commission_on_its_net_win() -> None:
    hands = [HandSet(1, setting(COPY_BOTH)), HandSet(2, setting(BEATS_BOTH)),
             HandSet(3, setting(DEALER)), HandSet(8, setting(ZERO_LOW))]
    bets = [Bet(1, 4_000), Bet(2, 3_000), Bet(8, 2_500)]
    result = settle_tiles(hands, bets, banker=3)
    # The house copies both (loses 4000, no commission); seat 2 wins 3000 less 150; 8 pushes.
    assert result.banker_gross == 1_000 and result.banker_commission == 50
    assert result.net_by_position() == {1: -4_000 + 150 + 50, 2: 2_850, 3: 950, 8: 0}
    with pytest.raises(SettlementError, match="does not cover"):
        settle_tiles(hands, bets, banker=3, bank=9_000)


@pytest.mark.parametrize(
    ("hands", "bets", "named"),
    [
        ([(1, DEALER)], [Bet(2, 1_000)], "no hand set"),
        ([(1, DEALER), (2, BEATS_BOTH)], [Bet(2, 1_000, fortune=100)], "no Fortune bets"),
        ([(1, DEALER), (2, BEATS_BOTH)], [Bet(2, 100)], "outside the limits"),
        ([(1, DEALER), (1, BEATS_BOTH)], [], "two hands"),
    ],
)
def test_malformed_tile_rounds_are_refused(
    hands: list[tuple[int, str]], bets: list[Bet], named: str
) -> None:
    with pytest.raises(SettlementError, match=named):
        settle_tiles([HandSet(p, setting(t)) for p, t in hands], bets)


def test_tiles_that_cannot_come_from_one_set_are_named() -> None:
    hands = [HandSet(1, setting(DEALER)), HandSet(2, setting("1-3 1-5 / 1-3 2-2"))]
    with pytest.raises(TileSetError, match="'1-3' appears 3 times"):
        settle_tiles(hands, [Bet(2, 1_000)])


def test_eight_positions_for_tiles_seven_for_cards() -> None:
    hands = [HandSet(1, setting(DEALER)), HandSet(8, setting(BEATS_BOTH))]
    assert settle_tiles(hands, [Bet(8, 1_000)]).net_by_position()[8] == 950
    cards = [HandSet(1, Setting.parse("Kd Jh / 6c 6d 9s 5h 2c")),
             HandSet(8, Setting.parse("As Qd / 8c 8d Ts 4h 3c"))]
    with pytest.raises(SettlementError, match=r"1\.\.7 at this table"):
        settle(cards, [Bet(8, 1_000)], Evaluator())


def test_bank_rules_from_a_profile() -> None:
    rules = BankRules.from_mapping({
        "commission": {"rate_bp": 400, "unit_cents": 5, "mode": "nearest"},
        "foul": "house_way", "limits": {"min_bet_cents": 100},
    })
    assert rules.commission == Commission(400, 5, Rounding.NEAREST)
    assert rules.foul is FoulPolicy.HOUSE_WAY and rules.limits.min_bet == 100
    bad: list[tuple[dict[str, object], str]] = [
        ({"vig": 5}, "'vig'"), ({"foul": "push"}, "'push'"), ({"limits": [1]}, r"\[1\]"),
        ({"limits": {"fortune_min_cents": 100}}, "'fortune_min_cents'"),
        ({"commission": {"rate": 5}}, "'rate'"), ({"commission": 5}, "5"),
    ]
    for data, named in bad:
        with pytest.raises(ProfileError, match=named):
            BankRules.from_mapping(data)


# --- the whole table, at random -----------------------------------------------------------------

@st.composite
def tile_rounds(
    draw: st.DrawFn,
) -> tuple[list[HandSet[TileSetting]], list[Bet], BankRules, TileRules, int]:
    """A random tile table: hands from one shuffled set (some foul), wagers, banker, rules."""
    order = draw(st.permutations(full_set()))
    players = draw(st.sets(st.integers(2, 8), min_size=1))
    hands = []
    for k, position in enumerate([1, *sorted(players)]):
        tiles = order[4 * k : 4 * k + 4]
        (i, j), (m, n) = TILE_SPLITS[draw(st.integers(0, 2))]
        low, high = (tiles[i], tiles[j]), (tiles[m], tiles[n])
        if draw(st.booleans()):
            low, high = high, low  # may be foul
        hands.append(HandSet(position, TileSetting.of(low, high)))
    banker = draw(st.sampled_from([1, *sorted(players)]))
    rules = BankRules(
        Commission(draw(st.integers(0, 1_000)), draw(st.sampled_from([1, 5, 25])),
                   draw(st.sampled_from(list(Rounding)))),
        draw(st.sampled_from(list(FoulPolicy))),
    )
    bets = [Bet(p, draw(st.integers(500, 100_000))) for p in sorted(players) if p != banker]
    if banker != 1:
        bets.append(Bet(1, draw(st.integers(1, 100_000))))
    tile_rules = draw(st.sampled_from([TileRules(), TileRules(GeeJoonTie.BY_PIPS)]))
    return hands, bets, rules, tile_rules, banker


@settings(max_examples=200, deadline=None)
@given(tile_rounds())
def test_settlement_conserves_money_and_follows_the_rules(
    table: tuple[list[HandSet[TileSetting]], list[Bet], BankRules, TileRules, int],
) -> None:
    hands, bets, rules, tile_rules, banker = table

    def reset(tiles: Sequence[Tile]) -> TileSetting:
        return max(tile_settings(tiles, tile_rules), key=lambda r: r.high_rank).setting

    result = settle_tiles(hands, bets, tile_rules, rules, banker=banker, reset=reset)
    assert sum(result.net_by_position().values()) == 0
    fee = rules.commission.commission_on
    assert result.banker_commission == (fee(result.banker_gross) if banker != 1 else 0)
    bank = result.banker_setting
    declared = {h.position: h.setting for h in hands}
    for seat in result.seats:
        c = seat.comparison
        assert c is not None
        expected = {Outcome.WIN: seat.bet.wager, Outcome.PUSH: 0, Outcome.LOSS: -seat.bet.wager}
        assert seat.gross == expected[c.outcome]
        assert seat.commission == (fee(seat.bet.wager) if c.outcome is Outcome.WIN
                                   and seat.bet.position != 1 else 0)
        if not TileHands(tile_rules).legal(declared[seat.bet.position]):
            if rules.foul is FoulPolicy.LOSS:
                assert (c.outcome, c.reason) == (Outcome.LOSS, Reason.FOUL)
            else:
                assert c.reset_from == declared[seat.bet.position]
        if c.reason is Reason.HANDS:
            won = [player_wins(rank_hand(mine, tile_rules), rank_hand(theirs, tile_rules))
                   for mine, theirs in ((c.setting.high, bank.high), (c.setting.low, bank.low))]
            assert c.outcome is (Outcome.WIN if all(won) else Outcome.PUSH if any(won)
                                 else Outcome.LOSS)
            assert c.high is not None and c.high.copy == is_copy(
                rank_hand(c.setting.high, tile_rules), rank_hand(bank.high, tile_rules))
