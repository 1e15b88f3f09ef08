"""Benchmark: the table's hardware side, opened from ``config/tables/sim-table.toml``.

Run: ``bash bench/run`` (or ``.venv/bin/python bench/bench_table.py [--reads N] [--json]``).

- ``open_s``: ``open_table`` for each game, median of three: two (or one) simulator processes
  started on ptys, drivers opened and their hellos checked, the camera (the card deck's kept
  calibration loaded), the GPIO panel on a ``MockFactory``;
- ``shuffle_ms``, ``packet_ms``, ``roll_ms``: one port call over the pty (median, p95);
- ``camera``: per game, one position's pieces rendered (``render_ms``) and read back by the
  real reader (``read_ms``: median, p95), and the share of reads that named the whole
  setting (``read_rate``; the others are None: the dealer is asked) and that named a wrong
  one (``wrong``, which must be 0).

Seeded, so every run renders the same frames.  The machine may be shared: the figures are
wall time.  BLAS and OpenMP run one thread (as in ``bench_vision.py``): the reader's small
matrix products only pay for a thread pool's wake-ups, about ten times the read on two busy
cores.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(var, "1")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np  # noqa: E402

from controller.rules.poker.cards import full_deck  # noqa: E402
from controller.rules.poker.setting import Setting  # noqa: E402
from controller.rules.tiles.dominoes import full_set  # noqa: E402
from controller.rules.tiles.setting import TileSetting  # noqa: E402
from controller.simulation.table import open_simulated_table  # noqa: E402
from controller.table import TableDevices  # noqa: E402

TABLE = Path(__file__).resolve().parents[1] / "config" / "tables" / "sim-table.toml"
SEED = 7


def _ms(times: list[float]) -> dict[str, float]:
    ordered = sorted(times)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    return {"median": round(statistics.median(ordered) * 1000, 2), "p95": round(p95 * 1000, 2)}


def _timed(call: Any) -> float:
    start = time.perf_counter()
    call()
    return time.perf_counter() - start


def bench_open(game: str) -> float:
    """Median seconds of three ``open_table`` calls (closed again, not timed)."""
    times = []
    for _ in range(3):
        start = time.perf_counter()
        devices = open_simulated_table(TABLE, game, seed=SEED)
        times.append(time.perf_counter() - start)
        devices.close()
    return statistics.median(times)


def bench_ports(devices: TableDevices, shuffles: int) -> dict[str, Any]:
    """Port calls over the ptys."""
    shuffler = devices.shuffler
    assert shuffler is not None
    shuffle, packet, roll = [], [], []
    for _ in range(shuffles):
        shuffle.append(_timed(shuffler.shuffle))
        packet += [_timed(shuffler.next_packet) for _ in range(7)]
        roll.append(_timed(devices.dice.roll))
    return {"shuffle_ms": _ms(shuffle), "packet_ms": _ms(packet), "roll_ms": _ms(roll)}


def bench_camera(devices: TableDevices, reads: int) -> dict[str, Any]:
    """Render and read ``reads`` random settings at position 2."""
    rng = np.random.default_rng(SEED)
    poker = devices.game == "poker"
    pieces = [str(c) for c in full_deck()] if poker else [str(t) for t in full_set()]
    size = 7 if poker else 4
    camera = devices.camera
    render, named, wrong = [], 0, 0
    for _ in range(reads):
        hand = [pieces[i] for i in rng.permutation(len(pieces))[:size]]
        text = f"{' '.join(hand[:2])} / {' '.join(hand[2:])}"
        camera.place(2, text)
        start = time.perf_counter()
        seen = camera.read(2)
        render.append(time.perf_counter() - start - (camera.last_read_seconds or 0.0))
        if seen is not None:
            named += 1
            parse = Setting.parse if poker else TileSetting.parse
            wrong += parse(seen) != parse(text)
    return {"render_ms": _ms(render), "read_ms": _ms(camera.read_times),
            "read_rate": round(named / reads, 3), "wrong": wrong, "reads": reads,
            "frame": list(camera.look.card_frame if poker else camera.look.tile_frame)}


def main(argv: list[str] | None = None) -> int:
    """Measure and print (text, or one JSON object with ``--json``)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reads", type=int, default=100, help="camera reads per game")
    parser.add_argument("--shuffles", type=int, default=20, help="shuffles (7 packets each)")
    parser.add_argument("--json", action="store_true", help="one JSON object")
    args = parser.parse_args(argv)
    if args.reads < 1 or args.shuffles < 1:
        parser.error(f"--reads {args.reads} and --shuffles {args.shuffles} must be >= 1")
    result: dict[str, Any] = {"open_s": {}, "camera": {}}
    for game in ("poker", "tiles"):
        result["open_s"][game] = round(bench_open(game), 3)
    with open_simulated_table(TABLE, "poker", seed=SEED) as devices:
        result.update(bench_ports(devices, args.shuffles))
        result["camera"]["poker"] = bench_camera(devices, args.reads)
    with open_simulated_table(TABLE, "tiles", seed=SEED) as devices:
        result["camera"]["tiles"] = bench_camera(devices, args.reads)
    if args.json:
        print(json.dumps({"bench": "table", **result}))
        return 0
    print("table hardware side (simulators on ptys, vision camera):")
    for game, seconds in result["open_s"].items():
        print(f"  open_table {game:5}: {seconds:.3f} s (median of 3)")
    for key in ("shuffle_ms", "packet_ms", "roll_ms"):
        print(f"  {key[:-3]:9} over the pty: median {result[key]['median']} ms, "
              f"p95 {result[key]['p95']} ms")
    for game, cam in result["camera"].items():
        print(f"  camera {game:5} {cam['frame'][0]}x{cam['frame'][1]}: read median "
              f"{cam['read_ms']['median']} ms (p95 {cam['read_ms']['p95']}), render median "
              f"{cam['render_ms']['median']} ms; whole setting named in "
              f"{cam['read_rate']:.1%} of {cam['reads']}, wrong {cam['wrong']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
