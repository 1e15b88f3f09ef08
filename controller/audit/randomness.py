"""The randomness audit: chi-square and carry-over tests over the dice and the deal orders the
journal holds, each with a p-value and a pass or fail at the regulators' confidence level.

Levels (docs/sources.md: [R1], [R2]): the dice and the start
position are an RNG's output, tested at 99% (25 CFR 547.14, R1: a test fails when p < 0.01);
the shuffler's output is tested at 95% (COMAR 36.05.02.17F, R4: fails when p < 0.05).
A test with too little data for its approximation says so instead of passing.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..journal import Record
from ..journal.clock import parse_ts
from ..journal.recall import by_round
from ..rules.dice import first_position
from ..rules.poker.cards import DECK_SIZE, full_deck
from ..rules.poker.dealing import HAND_SIZE
from .scope import Scope
from .stats import chi2_sf, pearson, poisson_sf

RNG_LEVEL = 0.99
SHUFFLER_LEVEL = 0.95
RNG_SOURCE = "25 CFR 547.14(b) (R1): 99% confidence"
SHUFFLER_SOURCE = "COMAR 36.05.02.17F (R4): 95% confidence"
PACKETS = 7
DEALT = PACKETS * HAND_SIZE  # 49 cards dealt, 4 never used
MIN_EXPECTED = 5.0
CARDS = tuple(str(c) for c in full_deck())


@dataclass(frozen=True, slots=True)
class Check:
    """One test's result: statistic, p-value and verdict, with the cells for a plot."""

    name: str
    title: str
    level: float
    source: str
    n: int  # observations (rolls or shuffles)
    status: str  # "pass", "fail" or "too few"
    detail: str
    statistic: float | None = None
    df: int | None = None
    p_value: float | None = None
    labels: tuple[str, ...] = ()
    observed: tuple[float, ...] = ()
    expected: tuple[float, ...] = ()


@dataclass(frozen=True, slots=True)
class Draws:
    """What the journal says was drawn: dice rolls per table size, and deal orders."""

    rolls: dict[int, list[tuple[int, int, int]]] = field(default_factory=dict)
    orders: list[tuple[str, tuple[str, ...]]] = field(default_factory=list)  # (round, 49 cards)
    notes: Counter[str] = field(default_factory=Counter)  # randomness notes: secrets, seeded:N


def collect(records: Iterable[Record], table: str, scope: Scope) -> Draws:
    """The rolls and complete deal orders of the rounds in scope (replays left out); a round's
    dealer is the one who exposed its hand, else the one who opened it."""
    draws = Draws()
    for round_id, records_ in by_round(records).items():
        first = records_[0]
        opened = first.payload() if first.kind == "round_opened" else {}
        where = opened.get("table")
        exposed = next((r for r in records_ if r.kind == "dealer_exposed"), first)
        if not scope.admits(parse_ts(first.ts), where if isinstance(where, str) and where
                            else table, exposed.actor, first.replay):
            continue
        positions = opened.get("positions", PACKETS)
        for record in records_:
            if record.kind == "roll":
                faces = record.payload()["dice"]
                draws.rolls.setdefault(int(positions), []).append(tuple(faces))
            if record.randomness is not None:
                draws.notes[str(record.randomness)] += 1
        order = _deal_order(records_)
        if order is not None:
            draws.orders.append((round_id, order))
    return draws


def _deal_order(records: Sequence[Record]) -> tuple[str, ...] | None:
    """The 49 cards of the round's last good shuffle in deal order, or None."""
    packets: list[list[str]] = []
    for record in records:
        if record.kind == "shuffled":
            packets = [] if record.payload().get("count") == DECK_SIZE else [["bad"]]
        elif record.kind == "packet":
            packets.append(list(record.payload().get("cards", [])))
    cards = [c for p in packets for c in p]
    if len(packets) != PACKETS or len(cards) != DEALT or len(set(cards)) != DEALT \
            or not set(cards) <= set(CARDS):
        return None
    return tuple(cards)


def _verdict(p: float, level: float) -> str:
    return "pass" if p >= 1.0 - level else "fail"


def _goodness(name: str, title: str, labels: Sequence[str], observed: Sequence[int],
              probabilities: Sequence[float], level: float, source: str, n: int,
              pool: bool = False) -> Check:
    """Chi-square goodness of fit; with ``pool``, small cells merge with a neighbour until each
    expects 5 or more."""
    total = sum(observed)
    cells: list[list[Any]] = [[label, o, p * total] for label, o, p
                              in zip(labels, observed, probabilities, strict=True)]
    while pool and len(cells) > 1 and min(c[2] for c in cells) < MIN_EXPECTED:
        # The smallest cell joins its smaller neighbour (cells stay in order of the totals).
        i = min(range(len(cells)), key=lambda k: cells[k][2])
        if i == len(cells) - 1 or (i > 0 and cells[i - 1][2] <= cells[i + 1][2]):
            i -= 1
        cells[i:i + 2] = [_merge(cells[i], cells[i + 1])]
    small = min((c[2] for c in cells), default=0.0)
    if len(cells) < 2:
        return Check(name, title, level, source, n, "too few",
                     f"{n} draws are too few: cells merged to expect {MIN_EXPECTED:g} each "
                     f"leave only one")
    if small < MIN_EXPECTED:
        return Check(name, title, level, source, n, "too few",
                     f"{n} draws leave a cell expecting {small:.2f}; the chi-square needs "
                     f"{MIN_EXPECTED:g} or more in every cell")
    obs = [int(c[1]) for c in cells]
    exp = [float(c[2]) for c in cells]
    statistic = pearson(obs, exp)
    df = len(cells) - 1
    p = chi2_sf(statistic, df)
    return Check(name, title, level, source, n, _verdict(p, level),
                 f"chi-square {statistic:.2f} on {df} degrees of freedom",
                 statistic, df, p, tuple(str(c[0]) for c in cells), tuple(obs), tuple(exp))


def _merge(a: list[Any], b: list[Any]) -> list[Any]:
    """Two neighbouring cells as one: labels ``3`` and ``4`` make ``3-4``."""
    return [f"{str(a[0]).split('-')[0]}-{str(b[0]).split('-')[-1]}", a[1] + b[1], a[2] + b[2]]


def total_probabilities() -> dict[int, float]:
    """The chance of each three-dice total 3..18 (from the 216 equally likely throws)."""
    counts = Counter(sum(t) for t in itertools.product(range(1, 7), repeat=3))
    return {total: counts[total] / 216 for total in range(3, 19)}


def dice_totals(rolls: Sequence[tuple[int, int, int]]) -> Check:
    """Chi-square of the dice totals 3..18 against the three-dice distribution (tails pooled)."""
    probs = total_probabilities()
    counts = Counter(sum(r) for r in rolls)
    return _goodness("dice_totals", "Dice totals", [str(t) for t in probs],
                     [counts[t] for t in probs], list(probs.values()), RNG_LEVEL, RNG_SOURCE,
                     len(rolls), pool=True)


def dice_faces(rolls: Sequence[tuple[int, int, int]]) -> Check:
    """Chi-square of every die's face 1..6 against equal chances."""
    counts = Counter(face for r in rolls for face in r)
    return _goodness("dice_faces", "Dice faces", [str(f) for f in range(1, 7)],
                     [counts[f] for f in range(1, 7)], [1 / 6] * 6, RNG_LEVEL, RNG_SOURCE,
                     len(rolls))


def first_positions(rolls: Sequence[tuple[int, int, int]], positions: int) -> Check:
    """Chi-square of the first position (counted from the banker) against what fair dice
    give on a table of ``positions``."""
    chances: dict[int, float] = {}
    for total, p in total_probabilities().items():
        seat = first_position(total, positions)
        chances[seat] = chances.get(seat, 0.0) + p
    counts = Counter(first_position(sum(r), positions) for r in rolls)
    seats = range(1, positions + 1)
    return _goodness(f"first_positions_{positions}",
                     f"First position ({positions} positions)", [str(s) for s in seats],
                     [counts[s] for s in seats], [chances[s] for s in seats], RNG_LEVEL,
                     RNG_SOURCE, len(rolls))


def _contingency(name: str, title: str, orders: Sequence[tuple[str, ...]],
                 column: Sequence[int], columns: int) -> Check:
    """Cards by column (``column[i]`` is deal slot i's column; the last column is unused)."""
    n = len(orders)
    table = {card: [0] * columns for card in CARDS}
    for order in orders:
        for slot, card in enumerate(order):
            table[card][column[slot]] += 1
        for card in set(CARDS) - set(order):
            table[card][columns - 1] += 1
    col_share = [column.count(c) / DECK_SIZE for c in range(columns - 1)]
    col_share.append((DECK_SIZE - DEALT) / DECK_SIZE)
    expected = [n * share for share in col_share]
    cells = DECK_SIZE * columns
    below = DECK_SIZE * sum(1 for e in expected if e < MIN_EXPECTED)
    # Cochran's rule: no cell below 1 and at most a fifth of the cells below 5.
    if n == 0 or min(expected) < 1 or below > cells / 5:
        return Check(name, title, SHUFFLER_LEVEL, SHUFFLER_SOURCE, n, "too few",
                     f"{n} shuffles; at most a fifth of the {cells} cells may expect fewer "
                     f"than {MIN_EXPECTED:g}")
    per_card = [sum((o - e) ** 2 / e for o, e in zip(table[c], expected, strict=True))
                for c in CARDS]
    statistic = sum(per_card)
    df = (DECK_SIZE - 1) * (columns - 1)
    p = chi2_sf(statistic, df)
    worst = max(range(DECK_SIZE), key=lambda i: per_card[i])
    return Check(name, title, SHUFFLER_LEVEL, SHUFFLER_SOURCE, n, _verdict(p, SHUFFLER_LEVEL),
                 f"chi-square {statistic:.1f} on {df} degrees of freedom; the card furthest "
                 f"from expectation is {CARDS[worst]} ({per_card[worst]:.1f})",
                 statistic, df, p, CARDS, tuple(per_card),
                 tuple([float(columns - 1)] * DECK_SIZE))


def card_packets(orders: Sequence[tuple[str, ...]]) -> Check:
    """Chi-square of the 53 cards against the packet they were dealt in (or unused)."""
    return _contingency("card_packets", "Card by packet (7 packets + unused)", orders,
                        [slot // HAND_SIZE for slot in range(DEALT)], PACKETS + 1)


def card_slots(orders: Sequence[tuple[str, ...]]) -> Check:
    """Chi-square of the 53 cards against their place in the deal (1..49, or unused)."""
    return _contingency("card_slots", "Card by deal position (1-49 + unused)", orders,
                        list(range(DEALT)), DEALT + 1)


def repeats(orders: Sequence[tuple[str, tuple[str, ...]]]) -> Check:
    """Any two shuffles that dealt the same 49 cards in the same order (a fair shuffler
    essentially never does: there are 53!/4! orders)."""
    seen: dict[tuple[str, ...], str] = {}
    pairs = []
    for round_id, order in orders:
        if order in seen:
            pairs.append(f"{seen[order]} = {round_id}")
        else:
            seen[order] = round_id
    n = len(orders)
    if n < 2:
        return Check("repeats", "Repeated deal orders", SHUFFLER_LEVEL, SHUFFLER_SOURCE, n,
                     "too few", "fewer than two shuffles")
    if pairs:
        shown = ", ".join(pairs[:5]) + (f" and {len(pairs) - 5} more" if len(pairs) > 5
                                        else "")
        return Check("repeats", "Repeated deal orders", SHUFFLER_LEVEL, SHUFFLER_SOURCE, n,
                     "fail", f"{len(pairs)} shuffles repeat an earlier order: {shown}",
                     float(len(pairs)), None, 0.0)
    return Check("repeats", "Repeated deal orders", SHUFFLER_LEVEL, SHUFFLER_SOURCE, n, "pass",
                 f"no order repeats among {n} shuffles", 0.0, None, 1.0)


ADJACENT = DEALT - 1
PAIR_CHANCE = ADJACENT / (DECK_SIZE * (DECK_SIZE - 1))
"""Chance that a given ordered pair of cards is dealt next to each other, in that order."""
MIN_SHUFFLES = 10


def carry_over(orders: Sequence[tuple[str, tuple[str, ...]]]) -> Check:
    """Order carried from one shuffle to the next: how many neighbouring pairs of a deal are
    neighbours again, in the same order, in the next deal (Poisson upper tail)."""
    n = len(orders)
    title = "Order carried over between shuffles"
    if n < MIN_SHUFFLES:
        return Check("carry_over", title, SHUFFLER_LEVEL, SHUFFLER_SOURCE, n, "too few",
                     f"{n} shuffles; the test needs {MIN_SHUFFLES}")
    kept = []
    for (_, before), (_, after) in itertools.pairwise(orders):
        pairs = set(itertools.pairwise(after))
        kept.append(sum(1 for pair in itertools.pairwise(before) if pair in pairs))
    count = sum(kept)
    mean = (n - 1) * ADJACENT * PAIR_CHANCE
    p = poisson_sf(count, mean)
    return Check("carry_over", title, SHUFFLER_LEVEL, SHUFFLER_SOURCE, n,
                 _verdict(p, SHUFFLER_LEVEL),
                 f"{count} neighbouring pairs kept over {n - 1} shuffle changes; a fair "
                 f"shuffler keeps {mean:.1f} on average",
                 float(count), None, p, tuple(r for r, _ in orders[1:]), tuple(map(float, kept)),
                 tuple([ADJACENT * PAIR_CHANCE] * (n - 1)))


def run_checks(draws: Draws) -> list[Check]:
    """Every test the draws allow: dice (per table size) then cards."""
    checks = []
    every = [r for rolls in draws.rolls.values() for r in rolls]
    if every:
        checks += [dice_totals(every), dice_faces(every)]
        checks += [first_positions(rolls, size) for size, rolls in sorted(draws.rolls.items())]
    if draws.orders:
        orders = [o for _, o in draws.orders]
        checks += [card_packets(orders), card_slots(orders), repeats(draws.orders),
                   carry_over(draws.orders)]
    return checks


def overall(checks: Sequence[Check]) -> str:
    """``fail`` if any test fails, ``pass`` if all pass, else ``incomplete`` (too little data
    for some, or nothing to test)."""
    if any(c.status == "fail" for c in checks):
        return "fail"
    if checks and all(c.status == "pass" for c in checks):
        return "pass"
    return "incomplete"
