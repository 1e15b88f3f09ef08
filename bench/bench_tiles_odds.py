"""Benchmark: exact Pai Gow tiles odds, all 736,281,000 matchups, house way and best response.

Run: ``bash bench/run`` (or ``.venv/bin/python bench/bench_tiles_odds.py [--way NAME] [--json]``).
Each target case runs as the real command, ``paigow analyze tiles ...``, in a fresh process, so
its wall time includes starting Python, importing numpy, building the tables and the counting
(targets on the 2-core machine: 60 s house way vs house way, 180 s best response). Then the
stages are timed in this process, so one can see where the time goes.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from controller.analysis.tiles.classes import tile_classes, weight_matrix
from controller.analysis.tiles.odds import enumerate_odds
from controller.analysis.tiles.strategy import choices_table, strategy_table
from controller.analysis.tiles.ways import resolve_strategy
from controller.config.house_ways import tile_way_names
from controller.rules.tiles.hands import DEFAULT_TILE_RULES

ROOT = Path(__file__).resolve().parents[1]
TARGETS = {"house way vs house way": 60.0, "optimal response": 180.0}


def command_case(way: str, extra: list[str]) -> dict[str, object]:
    """Run ``paigow analyze tiles`` in a fresh process; wall time and its figures."""
    argv = [sys.executable, "-m", "controller.cli", "analyze", "tiles", "--way", way,
            *extra, "--json"]
    start = time.perf_counter()
    done = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, check=True)
    wall = time.perf_counter() - start
    figures = json.loads(done.stdout)
    return {"command": " ".join(["paigow", *argv[3:]]), "wall_s": round(wall, 2),
            "win": figures["win"], "loss": figures["loss"], "push": figures["push"],
            "house_edge": figures["house_edge"], "matchups": figures["matchups"]}


def timed(run: Callable[[], object]) -> float:
    """Seconds one call takes."""
    start = time.perf_counter()
    run()
    return time.perf_counter() - start


def stages(way: str) -> dict[str, float]:
    """Each stage once, in order, in this process (the weights and tables are then warm)."""
    classes = tile_classes()
    strategy = resolve_strategy(way, DEFAULT_TILE_RULES)
    out = {
        "weight matrix (8,130 x 8,130 classes)": timed(lambda: weight_matrix(classes)),
        f"{way} table (8,130 classes)": timed(lambda: strategy_table(classes, strategy)),
        "all settings table (8,130 classes)": timed(lambda: choices_table(classes)),
    }
    dealer = strategy_table(classes, strategy)
    player, _ = choices_table(classes)
    out["count: house way vs house way"] = timed(lambda: enumerate_odds(dealer, dealer))
    out["count: best response (3 settings)"] = timed(lambda: enumerate_odds(player, dealer))
    return out


def main() -> int:
    """Time the two target cases as commands, then the stages; print text or JSON."""
    parser = argparse.ArgumentParser(description=__doc__)
    default = "foxwoods" if "foxwoods" in tile_way_names() else "max-high"
    parser.add_argument("--way", default=default, help=f"the house way (default {default})")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    cases = {
        "house way vs house way": command_case(args.way, []),
        "optimal response": command_case(args.way, ["--vs", "optimal"]),
        "house way, player banking": command_case(args.way, ["--banking"]),
        "optimal response, player banking": command_case(args.way, ["--vs", "optimal",
                                                                    "--banking"]),
    }
    parts = stages(args.way)
    if args.json:
        print(json.dumps({"way": args.way, "targets_s": TARGETS, "commands": cases,
                          "stages_s": parts}, indent=2))
        return 0
    print(f"exact tile odds, {args.way}: each command in a fresh process (wall time)")
    for name, case in cases.items():
        target = TARGETS.get(name)
        note = f"   target {target:.0f} s" if target else ""
        print(f"  {name:<34} {case['wall_s']:>6.2f} s   edge {case['house_edge']:+.4%}{note}")
        print(f"    {case['command']}")
    print("stages in one process")
    for name, seconds in parts.items():
        print(f"  {name:<40} {seconds:>6.2f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
