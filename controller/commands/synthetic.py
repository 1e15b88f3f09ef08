"""``paigow sim record --game poker|tiles --rounds N --seed S --out DIR [--json]``: a synthetic
recording, in the format ``paigow run --record`` writes (``docs/recordings.md``), of the live
table played by scripted people on the seeded simulators with a rendered felt for its camera,
and the truth of every round beside it (``controller.simulation.recording``).

``paigow replay DIR`` plays it back with no device and checks each settlement against the
truth.  Exit 0 when every round was played; 2 with one line when the folder is taken, the
card artwork is missing or the table got stuck (naming where).
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from ..errors import ControllerError
from .common import number_in
from .journal import JournalCommandError, add_key_option, open_writer


class SyntheticCommandError(ControllerError):
    """A synthetic recording that could not be made; one line."""


def size(text: str) -> tuple[int, int]:
    """An argparse type: ``WIDTHxHEIGHT`` in pixels, each 320..8192."""
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not WIDTHxHEIGHT") from None
    if not (320 <= w <= 8192 and 320 <= h <= 8192):
        raise argparse.ArgumentTypeError(f"{text!r}: each side must be 320..8192 pixels")
    return w, h


def cmd_record(args: argparse.Namespace) -> int:
    """Make the synthetic recording ``args`` describe."""
    from ..simulation.recording import SIZE, SyntheticSummary, record_synthetic
    from ..table.errors import TableError
    from ..table.recording import SessionRecorder

    try:
        recorder = SessionRecorder(args.out, game=args.game, table="sim-table (synthetic)",
                                   seed=args.seed)
    except TableError as err:
        raise SyntheticCommandError(str(err)) from err
    try:
        journal = open_writer(str(recorder.journal), args, "paigow sim record", make_key=True)
    except JournalCommandError as err:
        recorder.close()
        raise SyntheticCommandError(str(err)) from err
    summary: SyntheticSummary
    try:
        say = (lambda _line: None) if args.json else (lambda line: print(line, flush=True))
        summary = record_synthetic(args.game, args.rounds, args.seed, recorder, journal,
                                   size=args.size or SIZE, film=not args.no_film, say=say)
    except TableError as err:
        raise SyntheticCommandError(f"sim record: {err}") from err
    finally:
        journal.close()
        recorder.close()
    out: dict[str, Any] = {**summary.to_json(), "out": str(args.out)}
    if args.json:
        print(json.dumps(out, sort_keys=True))
    else:
        print(f"{summary.rounds} round(s) recorded into {args.out}: {summary.camera_set} "
              f"setting(s) read by the camera, {summary.keyed} keyed by the dealer, "
              f"{summary.frames} frames read of a film of {summary.film_frames}; replay: "
              f"paigow replay {args.out}")
    return 0


def add_parser(subparsers: Any) -> None:
    """Register ``record`` on ``paigow sim``'s ``add_subparsers()`` object."""
    p = subparsers.add_parser("record", help="a synthetic recording of whole rounds: the "
                                             "simulators' bytes, scripted people, a rendered "
                                             "felt on camera, and the truth")
    p.add_argument("--game", choices=("poker", "tiles"), default="poker")
    p.add_argument("--rounds", type=number_in("rounds", int, 1, 1000), default=5, metavar="N")
    p.add_argument("--seed", type=int, required=True, help="everything is drawn from it")
    p.add_argument("--out", required=True, metavar="DIR", help="a new folder")
    p.add_argument("--size", type=size, metavar="WxH",
                   help="the camera's frame (default 2560x1440: the card reader needs it)")
    p.add_argument("--no-film", action="store_true",
                   help="leave out the video of the whole session (camera/film.avi): the "
                        "frames the camera read are recorded all the same")
    p.add_argument("--json", action="store_true", help="one JSON object at the end")
    add_key_option(p, writer=True)
    p.set_defaults(handler=cmd_record)


__all__ = ["SyntheticCommandError", "add_parser", "cmd_record"]
