"""Benchmark: the dealer audit and the randomness audit over a journal of real rounds.

Run: ``bash bench/run`` (or ``.venv/bin/python bench/bench_audit.py [--rounds N] [--samples N]
[--json]``).  A journal of ``--rounds`` poker rounds is played first through the round engine on
its seeded fakes (every fourth dealer off the house way), into an SQLite file in a temporary
folder; building it is not timed.  Timed, each the best of three: the dealer audit without
costs (rounds per second), the dealer audit with the expected costs (seconds per card
deviation at ``--samples`` simulated hands), the exact expected cost of one tile deviation, and
the randomness audit (rounds per second).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from controller.audit import (
    DEFAULT_SAMPLES,
    Scope,
    Stake,
    audit_journal,
    collect,
    expected_cost,
    run_checks,
    table_rules,
)
from controller.journal import Journal, JournalKey, StepClock, open_journal
from controller.profiles.poker import load_profile
from controller.profiles.tiles import load_tile_profile
from controller.round import FakeDice, FakeShuffler, PokerRound, Who
from controller.rules.tiles.setting import TileSetting

BENCH_KEY = JournalKey.generate()
"""The journals a bench writes are keyed, as a table's are."""

DEALER, SYSTEM = Who.dealer("ann"), Who.system()


def build(journal: Journal, rounds: int) -> int:
    """Play ``rounds`` rounds; every fourth dealer sets the low hand from the two lowest cards.
    Returns how many deviated."""
    engine = PokerRound(journal, load_profile("classic"), FakeShuffler(3), FakeDice(3))
    deviations = 0
    for number in range(rounds):
        engine.open_round(DEALER)
        for position, wager in ((2, 2500), (4, 5000), (6, 10000)):
            engine.take_bet(DEALER, position, wager)
        engine.close_bets(DEALER)
        engine.shuffle(SYSTEM)
        for _ in range(7):
            engine.deal_packet(SYSTEM)
        engine.roll(SYSTEM)
        assert engine.round is not None
        for position in engine.round.playing():
            if position != 1:
                engine.set_hand(DEALER, position)
        hand = engine.known_hand(1)
        assert hand is not None
        setting = None
        if number % 4 == 0:
            text = f"{hand[0]} {hand[1]} / {' '.join(hand[2:])}"
            if engine.can_expose_dealer(DEALER, setting=text) and \
                    engine.game.parse(text) != engine.game.house_way(hand)[0]:
                setting, deviations = text, deviations + 1
        engine.expose_dealer(DEALER, setting=setting)
        engine.settle(DEALER)
    return deviations


def best(run: Callable[[], object], repeat: int = 3) -> float:
    """The fastest of ``repeat`` runs, in seconds."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


def measure(rounds: int, samples: int) -> dict[str, Any]:
    """Build the journal, then time the audits."""
    with tempfile.TemporaryDirectory(prefix="paigow-bench-audit-") as folder:
        path = Path(folder) / "table.db"
        journal = open_journal(path, clock=StepClock(), key=BENCH_KEY)
        deviations = build(journal, rounds)
        location = str(path)
        plain = best(lambda: audit_journal(journal, location, Scope(), costs=False))
        costed = best(lambda: audit_journal(journal, location, Scope(), samples=samples), 1)
        randomness = best(lambda: run_checks(collect(journal.iter_records(), "table",
                                                     Scope())))
        journal.close()
    tiles = load_tile_profile()
    table = table_rules("tiles", tiles.name)
    hand = ("6-6", "4-5", "1-2", "3-3")
    way = table.house_way(hand)
    other = TileSetting.parse("1-2 4-5 / 6-6 3-3")
    table_rules.cache_clear()
    tile_cost = best(lambda: expected_cost(table_rules("tiles", tiles.name), hand, other, way,
                                           [Stake(2500)]))
    return {"rounds": rounds, "deviations": deviations, "samples": samples,
            "dealer_audit_rounds_per_s": rounds / plain,
            "card_deviation_cost_s": (costed - plain) / max(deviations, 1),
            "tile_deviation_cost_s": tile_cost,
            "randomness_audit_rounds_per_s": rounds / randomness}


def main() -> int:
    """Run the measurements and print them (``--json`` for one object)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=120)
    parser.add_argument("--samples", type=int, default=DEFAULT_SAMPLES)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    result = measure(args.rounds, args.samples)
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    print(f"audit over {result['rounds']} poker rounds ({result['deviations']} deviations)")
    print(f"  dealer audit, no costs: {result['dealer_audit_rounds_per_s']:,.0f} rounds/s")
    print(f"  expected cost, cards ({result['samples']} hands): "
          f"{result['card_deviation_cost_s'] * 1e3:,.0f} ms per deviation")
    print(f"  expected cost, tiles (exact, 20,475 hands): "
          f"{result['tile_deviation_cost_s'] * 1e3:,.0f} ms per deviation")
    print(f"  randomness audit: {result['randomness_audit_rounds_per_s']:,.0f} rounds/s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
