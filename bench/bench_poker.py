"""Benchmark: five-card evaluations per second against treys, and house-way settings per second.

Run: ``bash bench/run`` (or ``.venv/bin/python bench/bench_poker.py [--hands N] [--json]``).
Both evaluators rank the same random five-card hands (no joker, which treys does not know) in
the same process; each figure is the best of several repeats, so a busy machine shows less.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from controller.config.house_ways import poker_engine, poker_way_names
from controller.rules.poker.cards import full_deck
from controller.rules.poker.hands import Evaluator


def best_rate(run: Callable[[], object], count: int, repeats: int) -> float:
    """Items per second of the fastest of ``repeats`` runs."""
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return count / best


def evaluator_rates(hands: Sequence[Sequence[int]], repeats: int) -> dict[str, float]:
    """Our ``Evaluator.rank5``, treys' public ``evaluate`` and its inner ``_five`` on the same
    hands, measured in turn within every repeat so a load on the machine hits all alike."""
    ev = Evaluator()
    tuples = [tuple(h) for h in hands]

    def ours() -> None:
        rank5 = ev.rank5
        for h in tuples:
            rank5(h)

    runs: dict[str, Callable[[], object]] = {"paigow": ours}
    try:
        from treys import Card as TCard
        from treys import Evaluator as TEvaluator
    except ImportError:
        TCard = None
    if TCard is not None:
        deck = full_deck()
        tcards = [[TCard.new(str(deck[i])) for i in h] for h in hands]
        tev = TEvaluator()
        pairs = [(c[:2], c[2:]) for c in tcards]

        def public() -> None:
            evaluate = tev.evaluate
            for hand, board in pairs:
                evaluate(hand, board)

        def inner() -> None:
            five = tev._five
            for c in tcards:
                five(c)

        runs["treys.evaluate"] = public
        runs["treys._five"] = inner
    best = dict.fromkeys(runs, float("inf"))
    for _ in range(repeats):
        for name, run in runs.items():
            start = time.perf_counter()
            run()
            best[name] = min(best[name], time.perf_counter() - start)
    return {name: len(hands) / seconds for name, seconds in best.items()}


def settings_rates(count: int, repeats: int, seed: int) -> dict[str, float]:
    """House-way settings per second for every shipped way, on the same random hands."""
    rng = random.Random(seed)
    deck = full_deck()
    hands = [rng.sample(deck, 7) for _ in range(count)]
    rates = {}
    for name in poker_way_names():
        engine = poker_engine(name)

        def run(engine: object = engine) -> None:
            set_hand = engine.set_hand  # type: ignore[attr-defined]
            for h in hands:
                set_hand(h)

        rates[name] = best_rate(run, count, repeats)
    return rates


def main() -> int:
    """Run every benchmark and print the figures (and ratios) as text or JSON."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=200_000, help="five-card hands to rank")
    parser.add_argument("--settings", type=int, default=20_000, help="seven-card hands to set")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    rng = random.Random(args.seed)
    hands = [rng.sample(range(52), 5) for _ in range(args.hands)]
    rates = evaluator_rates(hands, args.repeats)
    ours = rates["paigow"]
    theirs = {k.removeprefix("treys."): v for k, v in rates.items() if k.startswith("treys.")}
    ways = settings_rates(args.settings, max(1, args.repeats // 2), args.seed)
    result: dict[str, object] = {
        "five_card_evals_per_s": rates,
        "ratio_vs_treys_evaluate": ours / theirs["evaluate"] if theirs else None,
        "ratio_vs_treys_five": ours / theirs["_five"] if theirs else None,
        "house_way_settings_per_s": ways,
    }
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    print(f"five-card evaluations per second ({args.hands:,} hands, best of {args.repeats})")
    print(f"  paigow Evaluator.rank5   {ours:>12,.0f}")
    if theirs:
        print(f"  treys Evaluator.evaluate {theirs['evaluate']:>12,.0f}   "
              f"ratio {ours / theirs['evaluate']:.2f}x")
        print(f"  treys Evaluator._five    {theirs['_five']:>12,.0f}   "
              f"ratio {ours / theirs['_five']:.2f}x")
    else:
        print("  treys not installed: no comparison")
    print(f"house-way settings per second ({args.settings:,} seven-card hands)")
    for name, rate in ways.items():
        print(f"  {name:<14} {rate:>10,.0f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
