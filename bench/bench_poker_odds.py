"""Benchmark: Pai Gow Poker odds, the three targets of issue 7.

Run: ``bash bench/run`` (or ``.venv/bin/python bench/bench_poker_odds.py [--way NAME]
[--rounds N] [--json]``).  Targets on the 2-core machine:

- ``paigow analyze poker --way W --exhaustive``: all 154,143,080 hands, under 120 s (wall time of
  the real command in a fresh process: Python, numpy, the classes, the house-way table);
- simulation: at least 1,000,000 rounds a second (timed in this process once the two way tables
  exist; the table set-up is reported apart, it is paid once per run);
- ``paigow ev poker HAND --vs W``: every legal setting against all 53,524,680 dealer hands,
  under 60 s (wall time of the real command in a fresh process).

Full-deck way tables are cached on disk (``controller/analysis/poker/cache.py``).  The
benchmark uses a fresh temporary cache: the exhaustive run and one ``ev`` run start cold
(``PAIGOW_CACHE=off`` for the ``ev``) and build the table; a second ``ev`` run and the
simulation find it in the cache.  Both ``ev`` times are printed.

The load average is printed with the figures: the machine is shared, and a busy machine
stretches every wall time.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from controller.analysis.poker.classes import poker_classes
from controller.analysis.poker.lookup import build_lookup
from controller.analysis.poker.simulation import simulate
from controller.analysis.poker.strategy import default_workers, way_table

ROOT = Path(__file__).resolve().parents[1]
HAND = "As Jk Qs Qh Qd 7s 2s"  # reference section 7 item 1: full house or flush
TARGETS = {"exhaustive": 120.0, "simulation": 1_000_000.0, "ev": 60.0}


def command(argv: list[str], cache: str) -> tuple[float, dict[str, object]]:
    """Run ``paigow ARGV --json`` in a fresh process with ``PAIGOW_CACHE=cache``: wall seconds
    and its JSON."""
    full = [sys.executable, "-m", "controller.cli", *argv, "--json"]
    env = {**os.environ, "PAIGOW_CACHE": cache}
    start = time.perf_counter()
    done = subprocess.run(full, cwd=ROOT, capture_output=True, text=True, check=True, env=env)
    return time.perf_counter() - start, json.loads(done.stdout)


def simulation_case(way: str, rounds: int) -> dict[str, object]:
    """Tables once, then ``rounds`` rounds of the way against itself, seeded."""
    start = time.perf_counter()
    classes = poker_classes()
    lookup = build_lookup(classes)
    table = way_table(classes, way)
    setup = time.perf_counter() - start
    start = time.perf_counter()
    sim = simulate(lookup, table, table, rounds, seed=1)
    seconds = time.perf_counter() - start
    win, loss, push = sim.counts.fractions()
    return {"rounds": rounds, "setup_s": round(setup, 2), "sim_s": round(seconds, 3),
            "rounds_per_s": round(rounds / seconds), "win": win, "loss": loss, "push": push,
            "house_edge": float(sim.counts.house_edge()),
            "ci95": list(sim.counts.edge_interval())}


def main() -> int:
    """Time the three targets; print text or JSON."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--way", default="foxwoods", help="the house way (default foxwoods)")
    parser.add_argument("--rounds", type=int, default=4_000_000,
                        help="rounds for the simulation case (default 4,000,000)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as cache:
        wall, dist = command(["analyze", "poker", "--way", args.way, "--exhaustive"], cache)
        exhaustive = {"command": f"paigow analyze poker --way {args.way} --exhaustive",
                      "wall_s": round(wall, 2), "hands": dist["hands"], "high": dist["high"]}
        ev_argv = ["ev", "poker", *HAND.split(), "--vs", args.way]
        cold, ev = command(ev_argv, "off")
        warm, _ = command(ev_argv, cache)
        os.environ["PAIGOW_CACHE"] = cache
        sim = simulation_case(args.way, args.rounds)
    settings = ev["settings"]
    assert isinstance(settings, list)
    ev_case = {"command": f"paigow ev poker {HAND} --vs {args.way}", "wall_s": round(cold, 2),
               "wall_s_cached_table": round(warm, 2),
               "dealer_hands": ev["dealer_hands"], "settings": len(settings),
               "best": f"{' '.join(settings[0]['low'])} / {' '.join(settings[0]['high'])}",
               "best_ev": settings[0]["ev"]}
    report = {"way": args.way, "workers": default_workers(), "cpus": os.cpu_count(),
              "load_before": round(load_before, 2), "load_after": round(os.getloadavg()[0], 2),
              "exhaustive": exhaustive, "simulation": sim, "ev": ev_case, "targets": TARGETS}
    if args.json:
        print(json.dumps(report))
        return 0
    print(f"Pai Gow Poker odds, way {args.way}: {report['workers']} worker(s) for the tables, "
          f"load average {report['load_before']} -> {report['load_after']} "
          f"on {report['cpus']} CPUs")
    print(f"  exhaustive  {exhaustive['wall_s']:>8.1f} s   (target < 120 s)  "
          f"{exhaustive['command']}")
    print(f"  simulation  {sim['rounds_per_s']:>10,} rounds/s  (target >= 1,000,000)  "
          f"{args.rounds:,} rounds in {sim['sim_s']} s after {sim['setup_s']} s of set-up; "
          f"edge {sim['house_edge']:.3%}")
    print(f"  ev          {ev_case['wall_s']:>8.1f} s   (target < 60 s; "
          f"{ev_case['wall_s_cached_table']:.1f} s with the table cached)  {ev_case['command']}; "
          f"best {ev_case['best']} at {ev_case['best_ev']:+.4f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
