"""``python -m vision.table_video OUT --game poker|tiles [--seed S] [--size WxH] [--fps F]
[--faces DIR] [--read]``: render one seeded round into the new folder OUT (format in
``docs/recordings.md``) and print the render time per frame (arm frames and still frames
apart); with ``--read``, wait for each still felt (``vision.still``), calibrate by the markers,
read it and print the read time per still frame and how many hand codes were read right.
Times are wall clock: run it under ``taskset -c 0`` for one core."""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import cv2
import numpy as np

from ..layout import Layout
from .camera import TableCamera
from .recording import read_times, read_truth, write_timeline
from .render import Looks
from .round_steps import round_steps
from .state import Game
from .timeline import Motion

ROOT = Path(__file__).resolve().parents[2]


def main(argv: list[str] | None = None) -> int:
    """Render (and read) one round; 0 when done."""
    from ..memory import keep_freed_memory

    keep_freed_memory()
    cv2.setNumThreads(1)
    p = argparse.ArgumentParser(prog="python -m vision.table_video")
    p.add_argument("out", type=Path)
    p.add_argument("--game", choices=("poker", "tiles"), default="poker")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--size", default="1280x720")
    p.add_argument("--fps", type=float, default=15.0)
    p.add_argument("--faces", type=Path, help="a folder of the 53 card faces (poker)")
    p.add_argument("--read", action="store_true")
    args = p.parse_args(argv)
    game: Game = args.game
    w, h = (int(v) for v in args.size.split("x"))
    layout = Layout.load(ROOT / "config" / "layouts" / f"paigow-{game}.toml")
    faces = {}
    if game == "poker":
        from ..cards.faces import load_faces

        if args.faces is None:
            p.error("--faces DIR is needed for poker")
        faces = load_faces(args.faces)
    rng = np.random.default_rng(args.seed)
    codes = sorted(faces) if game == "poker" else _tiles()
    order = [codes[i] for i in rng.permutation(len(codes))]
    high = 5 if game == "poker" else 2
    seats = range(2, 8) if game == "poker" else range(2, 9)
    settings = {}
    for position in ["dealer"] + [f"seat{s}" for s in seats]:
        settings[position] = (order[:2], order[2:2 + high])
        order = order[2 + high:]
    motion = Motion(fps=args.fps)
    steps = round_steps(game, settings, tuple(int(v) for v in rng.integers(1, 7, 3)),
                        {f"seat{s}": 2 for s in seats}, motion=motion)
    start = time.perf_counter()
    write_timeline(args.out, steps, layout, Looks(faces=faces), args.seed,
                   TableCamera(size=(w, h)), motion)
    spent = time.perf_counter() - start
    times = read_times(args.out)
    arm = sum(1 for row in times if row[3])
    print(f"{len(times)} frames ({arm} with the arm) in {spent:.1f} s wall: "
          f"{1000 * spent / len(times):.1f} ms a frame, writing included")
    if args.read:
        _read(args.out, layout, game, faces, args.faces.name if args.faces else "")
    return 0


def _read(out: Path, layout: Layout, game: Game, faces: dict[str, np.ndarray],
          style: str) -> None:
    from ..cards import CardReader
    from ..cards.cache import cached_deck
    from ..frame import for_game
    from ..markers import calibrate
    from ..sources import open_source
    from ..still import StillScene

    _, truth = read_truth(out)
    times = read_times(out)
    cards = None
    if game == "poker":
        # The deck kept where the tests keep it, by the faces folder's name (its style).
        cards = CardReader(cached_deck(style, faces, Path.home() / ".cache" / "paigow" /
                                       "assets" / "decks"))
    detector = StillScene()
    reader = None
    spent, reads, right, total = 0.0, 0, 0, 0
    source = open_source(str(out / "frames"))
    while (frame := source.read()) is not None:
        _, t, step, _ = times[frame.index]
        still = detector.feed(frame.image, t)
        if still is None:
            continue
        if reader is None:
            reader = for_game(game, cards, calibrate(frame.image, layout).apply(layout))
        began = time.perf_counter()
        result = reader.read(still.image)
        spent += time.perf_counter() - began
        reads += 1
        want = truth[step].state.hands()
        total += sum(len(c) for c in want.values())
        right += sum(1 for i in result.items if i.code in want.get(i.region or "", ()))
    source.close()
    print(f"{reads} still frames read: {1000 * spent / max(reads, 1):.0f} ms each; "
          f"{right} of {total} hand codes read in their box")


def _tiles() -> list[str]:
    from ..tiles.faces import full_set

    return list(full_set())


if __name__ == "__main__":
    raise SystemExit(main())
