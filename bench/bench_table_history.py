"""Benchmark: what reading a table's history from the journal costs (``round/history.py``).

Run: ``.venv/bin/python bench/bench_table_history.py [--rounds N] [--json]`` (also ``bash
bench/run``).  Plays N heads-up rounds into a fresh SQLite journal, then times a fresh engine's
first ``last_wager`` (what a restart pays: indexed ``records_of_kind`` queries reading back from
the newest rounds; before those, the whole journal was read once, about 3.7 s at 100,000
records) and a warm ``last_wager`` after one more round (only the new records read).  The pot
(home play) and the bank's turn (rotation) are read by the same code, so they cost the same.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from controller.journal import Journal, JournalKey, StepClock, open_journal
from controller.profiles.poker import load_profile
from controller.round import FakeDice, FakeShuffler, PokerRound, Who

BENCH_KEY = JournalKey.generate()
"""The journals a bench writes are keyed, as a table's are."""

D, SYS = Who.dealer(), Who.system()


def heads_up_round(engine: PokerRound, wager: int) -> None:
    """One whole heads-up round, the player asking for the house way."""
    engine.open_round(D)
    engine.take_bet(D, 2, wager)
    engine.close_bets(D)
    engine.shuffle(SYS)
    for _ in range(2):
        engine.deal_packet(SYS)
    engine.roll(SYS)
    engine.play_house_way(D, 2)
    engine.expose_dealer(D)
    engine.settle(D)


def timed(call: object, repeat: int = 5) -> float:
    """Median seconds of ``call()``."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        call()  # type: ignore[operator]
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def measure(journal: Journal, rounds: int) -> dict[str, float]:
    """Play the rounds, then time the cold and warm history reads."""
    profile = load_profile("heads-up")
    engine = PokerRound(journal, profile, FakeShuffler(1), FakeDice(1))
    start = time.perf_counter()
    for n in range(rounds):
        heads_up_round(engine, 500 + 100 * (n % 7))
    per_round = (time.perf_counter() - start) / rounds
    records = journal.head()[0]
    cold = timed(lambda: PokerRound(journal, profile, FakeShuffler(2),
                                    FakeDice(2)).last_wager(2))
    heads_up_round(engine, 900)
    warm = timed(lambda: engine.last_wager(2))
    return {"rounds": rounds, "records": records, "round_ms": per_round * 1e3,
            "cold_read_ms": cold * 1e3, "cold_us_per_record": cold * 1e6 / records,
            "warm_read_ms": warm * 1e3}


def main() -> int:
    """Print the figures (``--json``: one object)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=300)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch, \
            open_journal(Path(scratch) / "j.db", clock=StepClock(), key=BENCH_KEY) as journal:
        figures = measure(journal, args.rounds)
    if args.json:
        print(json.dumps({"bench": "table_history", **figures}))
    else:
        print(f"table history: {figures['rounds']} heads-up rounds, {figures['records']} records;"
              f" a round {figures['round_ms']:.2f} ms; cold read (restart) "
              f"{figures['cold_read_ms']:.1f} ms ({figures['cold_us_per_record']:.1f} us/record);"
              f" warm read {figures['warm_read_ms']:.3f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
