"""Benchmark: rounds per second through the round engine with simulated devices, and the
settlement time per round.

Run: ``bash bench/run`` (or ``.venv/bin/python bench/bench_engine.py [--rounds N]
[--game poker|tiles|both] [--pg URL | --no-pg] [--json]``).

The devices are the project's simulators, each its own process behind a pseudo-terminal,
opened through the table's adapters (``controller.table.open_table`` on
``config/tables/sim-table.toml``: the shuffler and shaker drivers behind the engine's ports);
seeded, so every run deals the same rounds.  The journal is durable (SQLite in a temporary
folder: WAL, ``synchronous=FULL``; and PostgreSQL in a temporary schema, dropped afterwards,
skipped with a note when the server cannot be reached).  No camera: the entered settings stand.

A poker round: open, three bets, close, shuffle, seven packets, roll, every playing position
and the dealer set by the house way, settle.  A tile round: open, three bets, close, build the
woodpile, roll, each playing position and the dealer enter four tiles drawn from one set
(seeded), set by the house way, settle.  Figures:

- ``rounds_per_s``: whole rounds (every act, its journal appends and device calls) per second;
- ``round_ms``: one round's wall time, median and p95;
- ``settle_ms``: the ``settle`` act (checks, the rules core's comparison and settlement, the
  journal append of the settle record), median, p95, p99;
- ``settle_core_ms``: the rules core's settlement alone (``game.settle`` on the same hands);
- ``device_ms``: of a round, the median time in the acts that call a device (shuffle, packets,
  roll), each with its journal append.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import psycopg

from controller.journal import Journal, JournalKey, StepClock, open_journal
from controller.profiles.poker import load_profile
from controller.profiles.tiles import load_tile_profile
from controller.round import PokerRound, TileRound, Who
from controller.round.oversight import OversightEngine
from controller.rules.seat import HandSet
from controller.rules.tiles.dominoes import format_tiles, full_set
from controller.simulation.table import open_simulated_table

BENCH_KEY = JournalKey.generate()
"""The journals a bench writes are keyed, as a table's are."""

PG_URL = os.environ.get("PAIGOW_TEST_PG", "postgresql://postgres@127.0.0.1:5432/test")
TABLE = Path(__file__).resolve().parents[1] / "config" / "tables" / "sim-table.toml"
DEALER, SYSTEM = Who.dealer(), Who.system()
BETS = {2: 2500, 4: 5000, 6: 10000}
TILE_BETS = {3: 2500, 5: 5000, 8: 2500}
SEED = 7


def pct(values: list[float], q: float) -> float:
    """The ``q`` quantile (0..1) of ``values``, nearest rank."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered)) - 1))]


DEVICE_S: list[float] = []
"""Seconds spent in device acts during the round being played (reset per round)."""


def device(act: Callable[[], Any]) -> Any:
    """Do a device act, adding its time to ``DEVICE_S``."""
    start = time.perf_counter()
    try:
        return act()
    finally:
        DEVICE_S.append(time.perf_counter() - start)


def roll(engine: OversightEngine[Any]) -> None:
    """Shake until the dice count (a simulated cocked die is a no-game, shaken again)."""
    for _ in range(20):
        if device(lambda: engine.roll(SYSTEM)).kind == "roll":
            return
    raise RuntimeError("twenty no-game shakes in a row")


def core_settle(engine: OversightEngine[Any]) -> float:
    """Seconds the rules core takes to settle the engine's settled round again."""
    state = engine.round
    assert state is not None and state.exposure is not None
    hands: list[HandSet[Any]] = [HandSet(state.banker, state.exposure.setting)] + [
        HandSet(p, e.setting, e.by) for p, e in sorted(state.settings.items())]
    bets = [bet for bet, _ in state.bets.values()]
    start = time.perf_counter()
    engine.game.settle(hands, bets, state.banker, state.bank)
    return time.perf_counter() - start


def poker_round(engine: PokerRound, rng: random.Random) -> float:
    """Play one poker round; the seconds its settle act took."""
    engine.open_round(DEALER)
    for position, wager in BETS.items():
        engine.take_bet(DEALER, position, wager)
    engine.close_bets(DEALER)
    device(lambda: engine.shuffle(SYSTEM))
    for _ in range(engine.game.positions):
        device(lambda: engine.deal_packet(SYSTEM))
    roll(engine)
    assert engine.round is not None
    for position in engine.round.playing():
        if position != engine.round.banker:
            engine.set_hand(DEALER, position)
    engine.expose_dealer(DEALER)
    start = time.perf_counter()
    engine.settle(DEALER)
    return time.perf_counter() - start


def tile_round(engine: TileRound, rng: random.Random) -> float:
    """Play one tile round (hands drawn from one shuffled set); the seconds settle took."""
    engine.open_round(DEALER)
    for position, wager in TILE_BETS.items():
        engine.take_bet(DEALER, position, wager)
    engine.close_bets(DEALER)
    engine.build_woodpile(DEALER)
    roll(engine)
    assert engine.round is not None
    tiles = list(full_set())
    rng.shuffle(tiles)
    hands = iter(format_tiles(tiles[i:i + 4]) for i in range(0, 32, 4))
    for position in engine.round.playing():
        if position != engine.round.banker:
            engine.set_hand(DEALER, position, hand=next(hands))
    engine.expose_dealer(DEALER, hand=next(hands))
    start = time.perf_counter()
    engine.settle(DEALER)
    return time.perf_counter() - start


@contextmanager
def sqlite_journal() -> Iterator[Journal]:
    """A durable SQLite journal in a temporary folder."""
    with tempfile.TemporaryDirectory(prefix="paigow-bench-engine-") as folder, \
            open_journal(Path(folder) / "table.db", clock=StepClock(), key=BENCH_KEY) as journal:
        yield journal


@contextmanager
def pg_journal(url: str) -> Iterator[Journal]:
    """A PostgreSQL journal in a temporary schema, dropped afterwards."""
    schema = f"bench_engine_{uuid.uuid4().hex[:10]}"
    try:
        with open_journal(f"{url}?schema={schema}", clock=StepClock(), key=BENCH_KEY) as journal:
            yield journal
    finally:
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


def pg_problem(url: str) -> str | None:
    """Why the PostgreSQL server cannot be used, or None."""
    try:
        with psycopg.connect(url, connect_timeout=3) as conn:
            conn.execute("SELECT 1")
    except psycopg.Error as err:
        return f"PostgreSQL at {url} unreachable: {str(err).strip().splitlines()[0]}"
    return None


def measure(game: str, journal: Journal, rounds: int) -> dict[str, Any]:
    """Play ``rounds`` rounds of ``game`` on simulated devices; the figures."""
    rng = random.Random(SEED)
    with open_simulated_table(TABLE, game, seed=SEED) as devices:
        engine: Any
        play: Callable[[Any, random.Random], float]
        if game == "poker":
            assert devices.shuffler is not None
            engine = PokerRound(journal, load_profile("classic"), devices.shuffler,
                                devices.dice)
            play = poker_round
        else:
            engine = TileRound(journal, load_tile_profile(), devices.dice)
            play = tile_round
        play(engine, rng)  # warm-up: house-way tables, first device calls
        round_s, settle_s, core_s, device_s = [], [], [], []
        start = time.perf_counter()
        for _ in range(rounds):
            DEVICE_S.clear()
            began = time.perf_counter()
            settle_s.append(play(engine, rng))
            round_s.append(time.perf_counter() - began)
            device_s.append(sum(DEVICE_S))
            core_s.append(core_settle(engine))
        total = time.perf_counter() - start
        records = journal.head()[0]
    ms = [s * 1000 for s in round_s]
    settle = [s * 1000 for s in settle_s]
    core = [s * 1000 for s in core_s]
    return {
        "game": game, "rounds": rounds, "records": records,
        "rounds_per_s": rounds / total,
        "round_ms": {"median": statistics.median(ms), "p95": pct(ms, 0.95)},
        "settle_ms": {"median": statistics.median(settle), "p95": pct(settle, 0.95),
                      "p99": pct(settle, 0.99)},
        "settle_core_ms": {"median": statistics.median(core), "p95": pct(core, 0.95)},
        "device_ms": {"median": statistics.median(device_s) * 1000},
    }


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--rounds", type=int, default=30, help="rounds per game and journal")
    parser.add_argument("--game", choices=("poker", "tiles", "both"), default="both")
    parser.add_argument("--pg", default=PG_URL, help="PostgreSQL server for the PG journal")
    parser.add_argument("--no-pg", action="store_true", help="SQLite only")
    parser.add_argument("--json", action="store_true", help="one JSON object")
    args = parser.parse_args(argv)
    if args.rounds < 1:
        parser.error(f"--rounds {args.rounds!r} must be 1 or more")
    games = ("poker", "tiles") if args.game == "both" else (args.game,)
    load_before = os.getloadavg()[0]
    problem = None if args.no_pg else pg_problem(args.pg)
    results: list[dict[str, Any]] = []
    notes: list[str] = []
    for game in games:
        with sqlite_journal() as journal:
            results.append({"journal": "sqlite", **measure(game, journal, args.rounds)})
        if args.no_pg:
            continue
        if problem:
            notes.append(f"{game} on postgres skipped: {problem}")
            continue
        with pg_journal(args.pg) as journal:
            results.append({"journal": "postgres", **measure(game, journal, args.rounds)})
    load = {"before": load_before, "after": os.getloadavg()[0], "cpus": os.cpu_count()}
    if args.json:
        print(json.dumps({"benchmark": "engine", "results": results, "notes": notes,
                          "load_average": load}))
        return 0
    print(f"round engine on simulated devices (pty), {args.rounds} rounds each, seed {SEED} "
          f"(1-min load average {load['before']:.1f} -> {load['after']:.1f} on "
          f"{load['cpus']} CPUs)")
    for r in results:
        print(f"  {r['game']:5} {r['journal']:8}  {r['rounds_per_s']:6.1f} rounds/s  "
              f"round {r['round_ms']['median']:6.1f} ms (p95 {r['round_ms']['p95']:6.1f}; "
              f"device acts {r['device_ms']['median']:6.1f})  "
              f"settle {r['settle_ms']['median']:5.2f} ms (p95 {r['settle_ms']['p95']:5.2f}, "
              f"p99 {r['settle_ms']['p99']:5.2f})  rules core {r['settle_core_ms']['median']:5.2f}"
              f" ms (p95 {r['settle_core_ms']['p95']:5.2f})")
    for note in notes:
        print(f"  note: {note}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
