"""Experiment: our Pai Gow Poker figures against the published ones (docs/poker_odds.md, issue 7).

Not a speed benchmark (it is not in ``bench/run``); it recomputes every figure the table
"Every published figure" in ``docs/poker_odds.md`` cites, so each distance can be re-derived:

- ``seven``: seven-card facts over all 154,143,080 hands, class by class (``poker_classes``):
  the best five-card hand (ref 4.1), no-pair hands by top card (4.4), Fortune lines (4.3),
  pair patterns, and the side-bet returns built from them (5.2, 5.3, 5.6);
- ``nine``: the dealer's 9-high low hands (ref 3.3, 5.5) under Trump Plaza and under variant
  readings of its text and of the ruleset, each a full house-way table (30-60 s each unless
  cached; the variants are written to a temporary config folder, ``$PAIGOW_CACHE`` is used);
- ``sim``: one simulation (the deal of ``poker_simulation``; the ways may be the shipped ones or
  the Trump Plaza variants of ``nine``) scored as the classic game, the
  commission-free game (dealer 9-high low pushes), EZ (dealer queen-high pai gow pushes),
  No-Push, pre-paid commission, the player-banker, and the high-hand copy rate under several
  definitions of a copy;
- ``nine-diff``: which hands a variant adds to or takes from the 9-high count, in blocks;
- ``differ``: how many hands two ways set to different ranks, exactly (ref 3.2).

Run: ``.venv/bin/python bench/poker_reference.py seven|nine|nine-diff|sim|differ [options]``.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from fractions import Fraction
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from controller.analysis.poker.classes import poker_classes
from controller.analysis.poker.lookup import build_lookup
from controller.analysis.poker.simulation import deal
from controller.analysis.poker.strategy import way_table
from controller.rules.poker.fortune import fortune_line
from controller.rules.poker.hand_rules import DEFAULT_RULES, JokerMode, PokerRules, Wheel
from controller.rules.poker.hand_shape import shape_of
from controller.rules.poker.hands import CATEGORY_KEYS, STRAIGHT_FLUSH, Evaluator, category_of
from controller.rules.poker.seven_cards import best_five_rank

ROOT = Path(__file__).resolve().parents[1]
HANDS = 154_143_080


def seven() -> None:
    """Seven-card counts, each class weighted by its hands."""
    classes = poker_classes()
    ev = Evaluator()
    best: Counter[str] = Counter()
    lines: Counter[str] = Counter()
    shapes: Counter[str] = Counter()
    for i in range(len(classes)):
        hand = classes.representative(i)
        weight = int(classes.multiplicity[i])
        rank = best_five_rank(hand, ev)
        cat = category_of(rank)
        top = (rank >> 16) & 0xF
        best["royal" if cat == STRAIGHT_FLUSH and top == 14 else CATEGORY_KEYS[cat]] += weight
        if cat == 0:
            best[f"no-pair {top}-high"] += weight
        # Royal match needs the suits of the two cards outside the royal, which a class does
        # not keep: only the sum of the two royal lines is a class fact.
        lines[fortune_line(hand, ev).value] += weight
        shapes[shape_of(hand).pattern.value] += weight
    print("best five-card hand:", dict(best))
    print("Fortune lines (royal_flush includes royal_match):", dict(lines))
    print("pair patterns:", dict(shapes))
    nopair = {t: best[f"no-pair {t}-high"] for t in range(9, 15)}
    emperor = {32: 5000, 196: 1000}  # natural and wild 7-card SF counts, as ref 5.2
    paying = (
        emperor[32] * lines["natural_7_card_straight_flush"]
        + emperor[196] * lines["wild_7_card_straight_flush"]
        + 500 * lines["five_aces"] + 150 * lines["royal_flush"] + 50 * lines["straight_flush"]
        + 25 * lines["four_of_a_kind"] + 5 * lines["full_house"] + 4 * lines["flush"]
        + 3 * lines["three_of_a_kind"] + 2 * lines["straight"]
        + 40 * nopair[9] + 5 * nopair[10] + 2 * nopair[11]
    )
    losing = (lines["nothing"] + lines["three_pair"] - nopair[9] - nopair[10] - nopair[11])
    print(f"Emperor's Treasure (ref 5.2): losing {losing:,}, return "
          f"{float(Fraction(paying - losing, HANDS)):.8f}")
    mania = (500 * best["five-aces"] + 250 * best["royal"] + 50 * best["straight-flush"]
             + 25 * best["quads"] + 5 * best["full-house"] + 4 * best["flush"]
             + 3 * lines["three_of_a_kind"] + 2 * lines["straight"])
    other = HANDS - (best["five-aces"] + best["royal"] + best["straight-flush"] + best["quads"]
                     + best["full-house"] + best["flush"] + lines["three_of_a_kind"]
                     + lines["straight"])
    print(f"Pai Gow Mania seven-card (ref 5.6): other {other:,}, return "
          f"{float(Fraction(mania - other, HANDS)):.7f}")
    queen = Fraction(nopair[12], HANDS)
    print(f"dealer queen-high pai gow {float(queen):.7f}; Queen's Dragon 50:1 edge "
          f"{float(1 - 51 * queen):.5%}")


# Variant readings of the Trump Plaza text (ref 2.1): (name, old text, new text) in its TOML.
TP_VARIANTS = (
    ("tp-one-pair-rule", 'one_pair = { play = "straight"', 'one_pair = { play = "pattern"'),
    ("tp-one-pair-better", 'one_pair = { play = "straight"',
     'one_pair = { play = "better_front"'),
    ("tp-no-pair-better", 'no_pair = { play = "straight"', 'no_pair = { play = "better_front"'),
    ("tp-trips-keep", 'trips = { play = "straight"', 'trips = { play = "pattern"'),
    ("tp-quads-straight", 'quads = { play = "pattern", source = "TP four',
     'quads = { play = "straight", source = "TP four'),
    ("tp-joker-ace-high", "[straights]\n",
     '[straights]\nexclude_joker_ace_high = { apply = true, source = "Bally\'s exception" }\n'),
)
RULE_VARIANTS = (
    ("wheel lowest", PokerRules(wheel=Wheel.LOWEST)),
    ("must outrank", PokerRules(high_may_equal_low=False)),
    ("joker wild", PokerRules(joker=JokerMode.WILD)),
)


@contextmanager
def variant_config() -> Iterator[None]:
    """A copy of config/ with the Trump Plaza variants added, as ``$PAIGOW_CONFIG``."""
    folder = Path(tempfile.mkdtemp(prefix="paigow-ways-"))
    old = os.environ.get("PAIGOW_CONFIG")
    try:
        shutil.copytree(ROOT / "config", folder, dirs_exist_ok=True)
        ways = folder / "house_ways" / "poker"
        text = (ways / "trump-plaza.toml").read_text(encoding="utf-8")
        for name, old_text, new_text in TP_VARIANTS:
            assert old_text in text, old_text
            (ways / f"{name}.toml").write_text(
                text.replace('name = "trump-plaza"', f'name = "{name}"')
                .replace(old_text, new_text), encoding="utf-8")
        os.environ["PAIGOW_CONFIG"] = str(folder)
        yield
    finally:
        if old is None:
            os.environ.pop("PAIGOW_CONFIG", None)
        else:
            os.environ["PAIGOW_CONFIG"] = old
        shutil.rmtree(folder, ignore_errors=True)


def nine_high(way: str, rules: PokerRules = DEFAULT_RULES) -> int:
    """Hands whose house-way low hand is a non-pair with a nine on top."""
    classes = poker_classes()
    low = way_table(classes, way, rules).low.astype(np.int64)
    mask = ((low >> 20) == 0) & (((low >> 16) & 0xF) == 9)
    return int(classes.multiplicity[mask].sum())


def nine(ways: list[str]) -> None:
    base = nine_high("trump-plaza")
    print(f"trump-plaza: {base:,} = {base / HANDS:.7f}; published 0.025007 (Tiger 9 return "
          f"0.750212 / 30 -> {round(0.7502115 / 30 * HANDS):,}..{round(0.7502125 / 30 * HANDS):,})")
    with variant_config():
        for name in ways or [v[0] for v in TP_VARIANTS]:
            n = nine_high(name)
            print(f"{name}: {n:,} = {n / HANDS:.7f} ({n - base:+,})")
    if not ways:
        for label, rules in RULE_VARIANTS:
            n = nine_high("trump-plaza", rules)
            print(f"trump-plaza, {label}: {n:,} = {n / HANDS:.7f} ({n - base:+,})")


def deal_without_joker(rng: np.random.Generator, rounds: int) -> np.ndarray:
    """(rounds, 14) distinct cards of the 52 naturals (card indices 0..51), uniformly."""
    return rng.random((rounds, 52)).argsort(axis=1)[:, :14].astype(np.int8)


def nine_diff(way: str, strict: bool) -> None:
    """Which classes gain or lose a 9-high low hand between Trump Plaza and ``way`` (or Trump
    Plaza under "must outrank" with ``strict``), summed by pattern, joker, main rank and the
    high hand's category in each."""
    classes = poker_classes()
    base = way_table(classes, "trump-plaza")
    other = (way_table(classes, "trump-plaza", PokerRules(high_may_equal_low=False)) if strict
             else way_table(classes, way))

    def nine(table_low: np.ndarray) -> np.ndarray:
        low = table_low.astype(np.int64)
        out: np.ndarray = ((low >> 20) == 0) & (((low >> 16) & 0xF) == 9)
        return out

    was, now = nine(base.low), nine(other.low)
    blocks: Counter[tuple[str, bool, int, str, str]] = Counter()
    for i in np.flatnonzero(was != now):
        hand = classes.representative(int(i))
        shape = shape_of(hand)
        main = max((g[0].rank for g in shape.groups), default=-2) + 2
        key = (shape.pattern.value, any(c.is_joker for c in hand), main,
               CATEGORY_KEYS[base.high[i] >> 20], CATEGORY_KEYS[other.high[i] >> 20])
        blocks[key] += int(classes.multiplicity[i]) * (1 if now[i] else -1)
    print(f"{'must outrank' if strict else way}: {sum(blocks.values()):+,} 9-high low hands")
    for (pattern, joker, main, before, after), n in sorted(blocks.items(),
                                                           key=lambda kv: -abs(kv[1])):
        print(f"{n:>+10,}  {pattern}{' with joker' if joker else ''}, rank {main}: "
              f"{before} -> {after}")


def sim(rounds: int, seed: int, player: str, dealer: str, joker: bool = True) -> None:
    classes = poker_classes()
    lookup = build_lookup(classes)
    ours, theirs = way_table(classes, player), way_table(classes, dealer)
    rng = np.random.Generator(np.random.PCG64(seed))
    c: Counter[str] = Counter()
    done = 0
    while done < rounds:
        n = min(1 << 17, rounds - done)
        cards = deal(rng, n) if joker else deal_without_joker(rng, n)
        both = lookup.index(cards.reshape(2 * n, 7))
        pl, ph = ours.low[both[0::2]], ours.high[both[0::2]]
        dl, dh = theirs.low[both[1::2]], theirs.high[both[1::2]]
        win = (pl > dl) & (ph > dh)
        loss = ~((pl > dl) | (ph > dh))
        bank_win = (dl >= pl) & (dh >= ph)  # the dealer's side as the bank (copies to it)
        bank_loss = ~((dl >= pl) | (dh >= ph))
        nine = ((dl >> 20) == 0) & (((dl >> 16) & 0xF) == 9)
        queen = ((dh >> 20) == 0) & (((dh >> 16) & 0xF) == 12)
        tie = ph == dh
        events = {
            "win": win, "loss": loss, "bank_win": bank_win, "bank_loss": bank_loss,
            "nine": nine, "cf_win": win & ~nine, "cf_loss": loss & ~nine,
            "queen": queen, "ez_win": win & ~queen, "ez_loss": loss & ~queen,
            "low_copy": pl == dl, "high_copy": tie, "any_copy": tie | (pl == dl),
            "both_copy": tie & (pl == dl),
        }
        for key, mask in events.items():
            c[key] += int(np.count_nonzero(mask))
        for k in (1, 2, 3):  # equal category and first k tie-break fields only
            shift = 20 - 4 * k
            c[f"high_top{k}"] += int(np.count_nonzero((ph >> shift) == (dh >> shift)))
        for cat in np.unique(ph[tie] >> 20):
            c[f"copy_{CATEGORY_KEYS[cat]}"] += int(np.count_nonzero((ph[tie] >> 20) == cat))
        done += n
    f = {k: v / rounds for k, v in c.items()}

    def line(name: str, w: float, lo: float, commission: float) -> None:
        edge = lo - (1 - commission) * w
        var = ((1 - commission) ** 2 * w + lo - edge * edge) / rounds
        print(f"{name}: win {w:.6f} push {1 - w - lo:.6f} loss {lo:.6f} edge {edge:.4%} "
              f"(95 % {edge - 1.96 * var ** 0.5:.4%} .. {edge + 1.96 * var ** 0.5:.4%})")

    deck = "53 cards" if joker else "52 cards, no joker"
    print(f"player {player} against dealer {dealer}: {rounds:,} rounds, seed {seed}, {deck}")
    line("classic 5 %", f["win"], f["loss"], 0.05)
    line("the bank (dealer side), 5 % of its wins", f["bank_win"], f["bank_loss"], 0.05)
    line("commission free (dealer 9-high low pushes)", f["cf_win"], f["cf_loss"], 0.0)
    line("EZ (dealer queen-high pai gow pushes)", f["ez_win"], f["ez_loss"], 0.0)
    tie_card = (48 / 53) * (3 / 52) + (5 / 53) * (4 / 52)
    no_push = f["win"] - tie_card * (1 - f["win"] - f["loss"]) - f["loss"]
    print(f"No-Push EV {no_push:.5f} (card tie {tie_card:.5f}); pre-paid (bet 105 to win 100) "
          f"edge per 100 {f['loss'] - f['win'] * 100 / 105:.4%}")
    print(f"dealer 9-high low {f['nine']:.6f}, dealer queen-high pai gow {f['queen']:.6f}")
    print("copies:", {k: f"{v:.5%}" for k, v in sorted(f.items())
                      if "copy" in k or k.startswith("high_top")})


def differ(first: str, second: str) -> None:
    classes = poker_classes()
    a, b = way_table(classes, first), way_table(classes, second)
    mask = (a.low != b.low) | (a.high != b.high)
    n = int(classes.multiplicity[mask].sum())
    print(f"{first} and {second} set {n:,} of {HANDS:,} hands to different ranks "
          f"({n / HANDS:.4%})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="what", required=True)
    sub.add_parser("seven")
    p_nine = sub.add_parser("nine")
    p_nine.add_argument("ways", nargs="*", help="variant names (default: all, and the rules)")
    p_diff9 = sub.add_parser("nine-diff")
    p_diff9.add_argument("way", nargs="?", default="tp-trips-keep")
    p_diff9.add_argument("--strict", action="store_true", help="Trump Plaza, must outrank")
    p_sim = sub.add_parser("sim")
    p_sim.add_argument("--rounds", type=int, default=20_000_000)
    p_sim.add_argument("--seed", type=int, default=2026)
    p_sim.add_argument("--player", default="trump-plaza")
    p_sim.add_argument("--dealer", default="trump-plaza")
    p_sim.add_argument("--no-joker", action="store_true", help="deal from the 52 naturals")
    p_differ = sub.add_parser("differ")
    p_differ.add_argument("first", nargs="?", default="trump-plaza")
    p_differ.add_argument("second", nargs="?", default="foxwoods")
    args = parser.parse_args()
    if args.what == "seven":
        seven()
    elif args.what == "nine":
        nine(args.ways)
    elif args.what == "nine-diff":
        with variant_config():
            nine_diff(args.way, args.strict)
    elif args.what == "sim":
        if args.rounds <= 0:
            parser.error(f"--rounds must be positive, not {args.rounds}")
        with variant_config():  # the Trump Plaza variants of ``nine`` may be named too
            sim(args.rounds, args.seed, args.player, args.dealer, not args.no_joker)
    else:
        differ(args.first, args.second)


if __name__ == "__main__":
    main()
