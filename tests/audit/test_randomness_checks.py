"""The randomness tests on draws made here: fair ones pass, misbehaving ones fail by name."""

from __future__ import annotations

import itertools
import random

import pytest

from controller.audit.randomness import (
    CARDS,
    DEALT,
    card_packets,
    carry_over,
    dice_faces,
    dice_totals,
    first_positions,
    overall,
    repeats,
    total_probabilities,
)


def _fair_orders(n: int, seed: int) -> list[tuple[str, tuple[str, ...]]]:
    rng = random.Random(seed)
    out = []
    for i in range(n):
        deck = list(CARDS)
        rng.shuffle(deck)
        out.append((f"r{i}", tuple(deck[:DEALT])))
    return out


def _rolls(n: int, seed: int, faces: tuple[int, ...] = (1, 2, 3, 4, 5, 6)
           ) -> list[tuple[int, int, int]]:
    rng = random.Random(seed)
    return [(rng.choice(faces), rng.choice(faces), rng.choice(faces)) for _ in range(n)]


def test_total_probabilities_are_the_216_throws() -> None:
    probs = total_probabilities()
    assert sum(probs.values()) == pytest.approx(1.0)
    assert probs[3] == probs[18] == 1 / 216 and probs[10] == probs[11] == 27 / 216


def test_fair_dice_pass_and_loaded_dice_fail_at_99_percent() -> None:
    fair = _rolls(600, 3)
    for check in (dice_totals(fair), dice_faces(fair), first_positions(fair, 7),
                  first_positions(fair, 8)):
        assert check.status == "pass", check
        assert check.level == 0.99 and check.p_value is not None and check.p_value >= 0.01
    loaded = _rolls(600, 3, faces=(2, 3, 4, 5, 6, 6))
    assert dice_faces(loaded).status == "fail"
    assert dice_totals(loaded).status == "fail"


def test_rare_totals_pool_into_their_neighbours() -> None:
    check = dice_totals(_rolls(60, 1))
    assert check.labels[0].startswith("3-") and check.labels[-1].endswith("-18")
    assert min(check.expected) >= 5 and sum(check.observed) == 60
    assert check.df == len(check.labels) - 1


def test_too_few_draws_say_so() -> None:
    assert dice_totals(_rolls(3, 1)).status == "too few"
    assert card_packets([o for _, o in _fair_orders(10, 1)]).status == "too few"
    assert carry_over(_fair_orders(5, 1)).status == "too few"
    assert overall([dice_totals(_rolls(3, 1))]) == "incomplete"


def test_fair_shuffles_pass_every_card_test() -> None:
    orders = _fair_orders(120, 8)
    checks = [card_packets([o for _, o in orders]), repeats(orders), carry_over(orders)]
    assert [c.status for c in checks] == ["pass"] * 3, checks
    assert checks[0].df == 52 * 7 and checks[0].level == 0.95
    assert overall(checks) == "pass"


def test_a_planted_card_fails_the_packet_test_and_is_named() -> None:
    orders = []
    for _, order in _fair_orders(60, 2):
        deck = [c for c in order if c != "Jk"]
        orders.append(tuple(["Jk", *deck][:DEALT]))
    check = card_packets(orders)
    assert check.status == "fail" and "Jk" in check.detail
    assert max(zip(check.observed, check.labels, strict=True))[1] == "Jk"


def test_a_repeated_shuffle_fails_and_names_both_rounds() -> None:
    orders = _fair_orders(12, 4)
    orders.append(("again", orders[3][1]))
    check = repeats(orders)
    assert check.status == "fail" and "r3 = again" in check.detail


def test_a_single_riffle_of_the_last_order_fails_the_carry_over_test() -> None:
    rng = random.Random(6)
    deck = list(CARDS)
    rng.shuffle(deck)
    orders = []
    for i in range(12):
        cut = 26 + rng.randint(-4, 4)
        left, right, mixed = deck[:cut], deck[cut:], []
        while left or right:
            pile = left if rng.randrange(len(left) + len(right)) < len(left) else right
            mixed.append(pile.pop(0))
        deck = mixed
        orders.append((f"r{i}", tuple(deck[:DEALT])))
    check = carry_over(orders)
    assert check.status == "fail" and check.p_value is not None and check.p_value < 1e-6
    assert repeats(orders).status == "pass"  # not a repeat: only the carry-over shows it


def test_fair_carry_over_p_values_are_not_stuck() -> None:
    ps = [carry_over(_fair_orders(15, seed)).p_value for seed in range(40)]
    assert all(p is not None for p in ps)
    fails = sum(1 for p in ps if p is not None and p < 0.05)
    assert fails <= 8  # about 5% of fair runs fail a 95% test; 8 of 40 would be very rare
    assert len({round(p, 6) for p in ps if p is not None}) > 5


def test_columns_of_the_contingency_hold_every_card_once_per_shuffle() -> None:
    orders = [o for _, o in _fair_orders(40, 9)]
    check = card_packets(orders)
    assert len(check.labels) == 53 and sorted(check.labels) == sorted(CARDS)
    assert all(len(set(o)) == DEALT for o in orders)
    assert list(itertools.islice(check.expected, 1)) == [7.0]
