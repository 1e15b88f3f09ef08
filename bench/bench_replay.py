"""Benchmark: how fast ``paigow replay DIR`` plays a recorded session, in times real time.

Run: ``.venv/bin/python bench/bench_replay.py [--rounds N] [--seed S] [--games poker tiles]
[--json]`` (one core: prefix ``taskset -c 0``).

For each game the bench makes a synthetic recording (``paigow sim record``'s own function, the
live table on the seeded pty simulators, a rendered 2560 x 1440 felt on camera) in a temp
folder, then replays it (``controller.replay.recording.replay_recording``, as ``paigow replay
DIR`` does: no device, the camera reading the recorded frames) and times the replay with
``time.perf_counter``. Two clocks measure the session the replay stands for:

- ``recorded_s``: the recording's own clock, from its first input to its last (the scripted
  people act as fast as the table lets them, so this is the least a session of these rounds
  takes, not what people at a table take);
- ``film_s``: the camera's clock over the frames it took (the felt's time: the dealer's arm,
  the still felt, the time the players spend setting, as the synthetic world lets it pass).

``speed_recorded`` and ``speed_film`` are each clock over the replay's wall time: times real
time. The replay's camera decodes and reads every recorded frame it took (``camera_frames``),
which is most of its time. The figures are wall time on a machine that may be shared.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(var, "1")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def bench_game(game: str, rounds: int, seed: int, scratch: Path) -> dict[str, Any]:
    """Record ``rounds`` synthetic rounds of ``game``, replay them, and time the replay."""
    from controller.journal import UNKEYED, open_journal
    from controller.replay.recording import replay_recording
    from controller.simulation.recording import record_synthetic
    from controller.table.recording import SessionRecorder, read_inputs

    folder = scratch / game
    recorder = SessionRecorder(folder, game=game, table="bench", seed=seed)
    journal = open_journal(recorder.journal, key=UNKEYED)
    began = time.perf_counter()
    try:
        made = record_synthetic(game, rounds, seed, recorder, journal, film=False,
                                say=lambda _: None)
    finally:
        journal.close()
        recorder.close()
    record_s = time.perf_counter() - began
    inputs = read_inputs(folder)
    recorded_s = float(inputs[-1]["t"]) - float(inputs[0]["t"])
    with (folder / "camera" / "times.csv").open(encoding="utf-8", newline="") as f:
        times = [float(row["t"]) for row in csv.DictReader(f)]
    film_s = times[-1] - times[0] if times else 0.0
    recorded = open_journal(folder / "journal.sqlite", create=False)
    try:
        began = time.perf_counter()
        result = replay_recording(folder, recorded)
        replay_s = time.perf_counter() - began
    finally:
        recorded.close()
    truth = result.truth
    return {"game": game, "rounds": result.rounds, "differences": len(result.differences),
            "settled_as_truth": None if truth is None else truth.settled,
            "camera_read": None if truth is None else f"{truth.camera_read}/{truth.positions}",
            "keyed": made.keyed, "inputs": result.inputs, "camera_frames": result.camera_frames,
            "record_s": round(record_s, 2), "recorded_s": round(recorded_s, 2),
            "film_s": round(film_s, 2), "replay_s": round(replay_s, 2),
            "speed_recorded": round(recorded_s / replay_s, 2),
            "speed_film": round(film_s / replay_s, 2)}


def main(argv: list[str] | None = None) -> int:
    """Run the bench; 0 always (the figures are the result)."""
    import cv2

    cv2.setNumThreads(1)
    p = argparse.ArgumentParser(prog="bench_replay")
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--seed", type=int, default=21)
    p.add_argument("--games", nargs="+", choices=("poker", "tiles"), default=["poker", "tiles"])
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    rows = []
    with tempfile.TemporaryDirectory(prefix="paigow-bench-replay-") as scratch:
        for game in args.games:
            rows.append(bench_game(game, args.rounds, args.seed, Path(scratch)))
    if args.json:
        print(json.dumps({"bench": "replay", "rows": rows}))
        return 0
    print("replay of synthetic recordings (paigow replay DIR), wall time")
    for row in rows:
        print(f"{row['game']:>5}: {row['rounds']} rounds, {row['inputs']} inputs, "
              f"{row['camera_frames']} frames; differences {row['differences']}, settled as "
              f"truth {row['settled_as_truth']}, camera read {row['camera_read']}, keyed "
              f"{row['keyed']}")
        print(f"       replay {row['replay_s']} s; recorded clock {row['recorded_s']} s "
              f"({row['speed_recorded']}x real time), film clock {row['film_s']} s "
              f"({row['speed_film']}x); the recording itself took {row['record_s']} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
