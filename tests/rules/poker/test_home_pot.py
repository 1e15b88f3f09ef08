"""Home play's pot (rules.home_pot): golden deals cited to docs/sources.md [D0],
properties, named errors."""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.profiles.poker import load_profile
from controller.rules.comparison import FoulPolicy
from controller.rules.errors import ProfileError, RulesError
from controller.rules.poker.cards import full_deck
from controller.rules.poker.home_pot import (
    PokerPotRanks,
    PotError,
    PotRules,
    PotStatus,
    check_ante,
    settle_pot,
)
from controller.rules.poker.setting import Setting
from controller.rules.seat import HandSet

GOLDEN = Path(__file__).parents[2] / "golden" / "profiles" / "home_pot.txt"
PROFILE = load_profile("home")
RULES = PROFILE.play.pot or PotRules()
RANKS = PokerPotRanks(PROFILE.evaluator())


@dataclass(frozen=True)
class Case:
    line: int
    status: PotStatus
    hands: list[HandSet[Setting]]
    winner: int | None
    carry: int
    exempt_next: frozenset[int]
    net: dict[int, int]
    source: str


def _positions(text: str) -> frozenset[int]:
    return frozenset() if text.strip() == "-" else frozenset(int(p) for p in text.split(","))


def _cases() -> list[Case]:
    out = []
    for number, raw in enumerate(GOLDEN.read_text(encoding="utf-8").splitlines(), start=1):
        if not raw.strip() or raw.startswith("#"):
            continue
        carried, exempt, hands, expected, source = (f.strip() for f in raw.split("|"))
        sets = []
        for part in hands.split(";"):
            position, setting = part.split(":", 1)
            sets.append(HandSet(int(position), Setting.parse(setting)))
        fields = dict(f.strip().split(" ", 1) for f in expected.split(";"))
        net = {int(p): int(n) for p, n in (x.split(":") for x in fields["net"].split())}
        winner = None if fields["winner"] == "-" else int(fields["winner"])
        out.append(Case(number, PotStatus(int(carried), _positions(exempt)), sets, winner,
                        int(fields["carry"]), _positions(fields["next"]), net, source))
    return out


CASES = _cases()


def test_the_golden_file_has_every_kind_of_deal() -> None:
    assert len(CASES) >= 7
    assert {c.winner is None for c in CASES} == {True, False}
    assert any(c.status.exempt for c in CASES) and all("[D0] l." in c.source for c in CASES)


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"line{c.line}")
def test_golden_deal(case: Case) -> None:
    antes = {h.position: case.status.ante_due(h.position, RULES) for h in case.hands}
    result = settle_pot(case.hands, antes, case.status, RULES, RANKS)
    assert result.winner == case.winner, case.source
    assert result.carry == case.carry, case.source
    assert result.exempt_next == case.exempt_next, case.source
    assert result.net_by_position() == case.net, case.source
    assert result.balance == 0
    assert result.status() == PotStatus(case.carry, case.exempt_next)


def _random_setting(rng: random.Random, cards: list[object]) -> Setting:
    low = rng.sample(range(7), 2)
    return Setting.of([cards[i] for i in low], [c for i, c in enumerate(cards) if i not in low])  # type: ignore[misc]


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 6), pot=st.integers(0, 50_000),
       exempt_bits=st.integers(0, 127))
def test_the_pot_goes_to_the_only_holder_of_both_best_hands(seed: int, players: int, pot: int,
                                                            exempt_bits: int) -> None:
    rng = random.Random(seed)
    deck = list(full_deck())
    rng.shuffle(deck)
    positions = rng.sample(range(2, 8), players)
    hands = [HandSet(p, _random_setting(rng, deck[7 * i:7 * i + 7]))  # type: ignore[arg-type]
             for i, p in enumerate(positions)]
    status = PotStatus(pot, frozenset(p for p in range(2, 8) if exempt_bits >> p & 1))
    antes = {p: status.ante_due(p, RULES) for p in positions}
    result = settle_pot(hands, antes, status, RULES, RANKS)

    ev = PROFILE.evaluator()
    live = {h.position: (ev.rank2(h.setting.low), ev.rank5(h.setting.high)) for h in hands
            if ev.high_beats_low(ev.rank5(h.setting.high), ev.rank2(h.setting.low))}
    only_best = [p for p, (lo, hi) in live.items()
                 if all(lo > o_lo and hi > o_hi for q, (o_lo, o_hi) in live.items() if q != p)]
    assert result.winner == (only_best[0] if only_best else None)
    assert result.balance == 0
    assert result.total == pot + sum(antes.values())
    nets = result.net_by_position()
    for position in positions:
        expected = -antes[position] + (result.total if position == result.winner else 0)
        assert nets[position] == expected
    if result.winner is None:
        holders = set(result.best_low) | set(result.best_high)
        assert result.exempt_next == holders and result.carry == result.total
        assert holders <= set(live)
    else:
        assert result.exempt_next == frozenset() and result.carry == 0


def test_a_foul_hand_is_re_set_under_the_house_way_policy() -> None:
    foul = Setting.parse("Ah Ad / Kc Qd 9s 5h 3c")
    other = Setting.parse("Kd Kh / 7s 7d 7c 6h 2s")
    engine = PROFILE.engine()

    def reset(s: Setting) -> Setting:
        return engine.set_hand(list(s.cards)).setting.setting

    rules = PotRules(500, FoulPolicy.HOUSE_WAY)
    result = settle_pot([HandSet(2, foul), HandSet(3, other)], {2: 500, 3: 500}, PotStatus(),
                        rules, RANKS, reset=reset)
    first = result.hands[0]
    assert first.reset_from == foul and not first.fouled
    assert first.setting == reset(foul) and RANKS.legal(first.setting)
    strict = settle_pot([HandSet(2, foul), HandSet(3, other)], {2: 500, 3: 500}, PotStatus(),
                        RULES, RANKS)
    assert strict.hands[0].fouled and strict.winner == 3


@pytest.mark.parametrize(("antes", "status", "named"), [
    ({2: 400, 3: 500}, PotStatus(), "ante 400 cents at position 2: the ante is 500 cents"),
    ({2: 500, 3: 500}, PotStatus(1000, frozenset({2})), "ante 500 cents at position 2: it held"),
    ({2: 500}, PotStatus(), "position 3 has a hand but no ante"),
    ({2: 500, 3: 500, 4: 500}, PotStatus(), "position 4 anted but has no hand"),
    ({2: -5, 3: 500}, PotStatus(), "-5"),
])
def test_bad_antes_are_named(antes: dict[int, int], status: PotStatus, named: str) -> None:
    hands = [HandSet(2, Setting.parse("As Ad / Kh Kd Ks 2c 3h")),
             HandSet(3, Setting.parse("Qs Jd / 9h 9d 5c 4s 2d"))]
    with pytest.raises(PotError, match=named):
        settle_pot(hands, antes, status, RULES, RANKS)


def test_a_pot_needs_two_players_and_one_hand_each() -> None:
    hand = HandSet(2, Setting.parse("As Ad / Kh Kd Ks 2c 3h"))
    with pytest.raises(PotError, match="2 players or more, not 1"):
        settle_pot([hand], {2: 500}, PotStatus(), RULES, RANKS)
    with pytest.raises(PotError, match="position 2 has two hands"):
        settle_pot([hand, hand], {2: 500}, PotStatus(), RULES, RANKS)
    with pytest.raises(PotError, match="'x'"):
        check_ante(PotStatus(), RULES, 2, "x")  # type: ignore[arg-type]
    with pytest.raises(RulesError, match="pot -1"):
        PotStatus(-1)


@pytest.mark.parametrize(("data", "named"), [
    ({"ante_cents": 0}, "ante_cents 0"),
    ({"ante_cents": "5.00"}, "'5.00'"),
    ({"ante_cents": 500, "foul": "push"}, "'push'"),
    ({"ante_cents": 500, "stake": 1}, "unknown pot key 'stake'"),
])
def test_bad_pot_rules_are_named(data: dict[str, object], named: str) -> None:
    with pytest.raises(ProfileError, match=named):
        PotRules.from_mapping(data)
