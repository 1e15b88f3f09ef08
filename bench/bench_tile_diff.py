"""Benchmark: ``paigow analyze tiles --vs ... --diff``, which hands two ways set differently.

Run: ``bash bench/run`` (or ``.venv/bin/python bench/bench_tile_diff.py [--json]``).  Each case
runs as the real command in a fresh process, so its wall time includes starting Python, numpy,
the weight matrix, both ways' tables (and all settings' for ``optimal``), two full counts and
the listing.  Target on the 2-core machine: 60 s, as for one house way against another.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TARGET_S = 60.0
CASES: tuple[tuple[str, str, list[str]], ...] = (
    ("harrahs", "luger-optimal", []),
    ("harrahs", "luger-optimal", ["--banking"]),
    ("foxwoods", "australian", []),
    ("foxwoods", "optimal", []),
)


def run_case(way: str, vs: str, extra: list[str]) -> dict[str, str | int | float]:
    """One ``--diff`` run in a fresh process: wall time and what it found."""
    argv = [sys.executable, "-m", "controller.cli", "analyze", "tiles", "--way", way,
            "--vs", vs, *extra, "--diff", "--json"]
    start = time.perf_counter()
    done = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, check=True)
    wall = time.perf_counter() - start
    found = json.loads(done.stdout)
    return {"command": " ".join(["paigow", *argv[3:]]), "wall_s": round(wall, 2),
            "classes": found["classes"], "hands": found["hands"], "gain": found["gain"],
            "target_s": TARGET_S}


def main() -> int:
    """Run every case; a table, or one JSON object with ``--json``."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    results = [run_case(way, vs, extra) for way, vs, extra in CASES]
    if args.json:
        print(json.dumps({"benchmark": "tile_diff", "cases": results}))
        return 0
    print("paigow analyze tiles --diff (fresh process each; target 60 s)")
    for r in results:
        print(f"  {r['wall_s']:>6.2f} s  {r['classes']:>5} classes {r['hands']:>6} hands  "
              f"gain {float(r['gain']):+.4%}  {r['command']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
