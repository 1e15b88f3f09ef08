"""``paigow vision calibrate cards DIR --out CALIB`` (or ``--frame IMG ... --codes CODES``: the
deck laid face up, learned from camera frames) and ``paigow vision read IMAGE...``.

``add_parsers(subparsers)`` registers ``vision``; each handler takes the parsed arguments and
returns the exit status, raising ``VisionCommandError`` (a ``ControllerError`` and a
``ValueError``) with a one-line reason on bad input. An image that cannot be read does not
stop ``read``: it is reported in place (an ``error`` in its JSON object) and the exit status
is 1.  An image whose header claims more pixels than the reader decodes (a decompression bomb)
is hostile input, not a bad frame: it stops the command with exit 2, naming the file.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from vision.errors import VisionError
from vision.image_size import ImageTooLargeError
from vision.items import Item

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

    from vision.frame import FrameReader, FrameResult, Game

    Face = NDArray[np.uint8]

# The camera's modules (numpy, OpenCV) are imported by the commands that use them, not when
# ``paigow`` starts: the process's thread settings must come before numpy loads
# (``controller.commands.startup``).

from ..config.files import read_text
from ..config.locations import config_file
from ..errors import ControllerError
from .common import number_in, run_alone


class VisionCommandError(ControllerError, ValueError):
    """A vision command that could not be done; the message is one line."""


def layout_path(name: str) -> Path:
    """The layout file a name stands for: a ``.toml`` path, or ``layouts/NAME.toml`` from the
    config folders (``controller.config.locations``)."""
    if name.endswith(".toml") or "/" in name:
        return Path(name)
    return config_file("layouts", f"{name}.toml")


def cmd_calibrate_cards(args: argparse.Namespace) -> int:
    """Learn a deck from a folder of face images, or from frames of the deck laid face up
    (``--frame``, named by ``--codes`` / ``--codes-file``), and save the calibration."""
    from vision.cards import calibrate, load_faces

    if (args.dir is None) == (not args.frame):
        raise VisionCommandError(
            "give either DIR (a folder of face images) or --frame IMG (frames of the deck "
            "laid face up), not " + ("both" if args.dir is not None else "neither"))
    try:
        if args.dir is not None:
            if args.codes is not None or args.codes_file is not None:
                raise VisionCommandError(
                    "--codes and --codes-file name the cards of --frame images; a folder's "
                    "faces are named by their files")
            faces = load_faces(args.dir)
            name = args.name or Path(args.dir).name
        else:
            faces = _faces_from_frames(args)
            name = args.name or Path(args.out).stem
        deck = calibrate(faces, name=name, rounds=args.rounds)
        deck.save(args.out)
    except VisionError as err:
        raise VisionCommandError(str(err)) from err
    strip = f", {len(deck.strip_codes)} by edge strip ({' '.join(deck.strip_codes)})" \
        if deck.strip_codes else ""
    thin = ", thin strokes: ink sharpened" if deck.sharpen else ""
    print(f"deck {deck.name!r}: {len(deck.codes)} faces by corner index{strip}{thin} "
          f"-> {args.out}")
    return 0


def faces_beside(calibration: str | Path) -> Path:
    """The folder the faces cut from frames are written to, beside the calibration file
    ``CALIB``: ``CALIB.faces/``, one ``CODE.png`` per card, for the operator to check (and
    to learn again from with the ``DIR`` form)."""
    path = Path(calibration)
    return path.with_name(path.name + ".faces")


def _codes(args: argparse.Namespace) -> list[str]:
    """The card codes of ``--codes`` or ``--codes-file`` (exactly one), in reading order;
    a code that is no card's, or given twice, is refused naming it."""
    from vision.cards.layout_faces import parse_codes

    if (args.codes is None) == (args.codes_file is None):
        raise VisionCommandError(
            "--frame needs the cards' codes in reading order: give --codes or --codes-file, "
            + ("not both" if args.codes is not None else "one of them"))
    text = args.codes if args.codes is not None else read_text(args.codes_file, "codes file")
    where = "--codes" if args.codes is not None else repr(str(args.codes_file))
    try:
        codes = parse_codes(text)
    except ValueError as err:
        raise VisionCommandError(f"{where}: {err}") from None
    first: dict[str, int] = {}
    for i, code in enumerate(codes, start=1):
        if code in first:
            raise VisionCommandError(
                f"{where}: {code!r} given twice (code {first[code]} and code {i})")
        first[code] = i
    return codes


def _faces_from_frames(args: argparse.Namespace) -> dict[str, Face]:
    """The faces cut from the ``--frame`` images, named by the codes, written to
    ``faces_beside(--out)``."""
    from vision.cards.codes import CODES, JOKER
    from vision.cards.faces import read_image
    from vision.cards.layout_faces import cut_deck

    codes = _codes(args)
    missing = [c for c in CODES if c != JOKER and c not in codes]
    if missing:
        raise VisionCommandError(
            f"the codes name {len(codes)} cards: {', '.join(missing[:6])}"
            f"{' ...' if len(missing) > 6 else ''} missing ({len(missing)} of the 52 standard "
            "cards; a deck is learned from all of them)")
    twice = sorted({p for p in args.frame if args.frame.count(p) > 1})
    if twice:
        raise VisionCommandError(f"--frame {twice[0]!r} given twice")
    frames = [(str(path), read_image(path)) for path in args.frame]
    faces = cut_deck([(Path(n).name if _unique_names(args.frame) else n, f)
                      for n, f in frames], codes)
    _write_faces(faces, faces_beside(args.out))
    return faces


def _unique_names(paths: Sequence[str]) -> bool:
    return len({Path(p).name for p in paths}) == len(paths)


def _write_faces(faces: dict[str, Face], folder: Path) -> None:
    """Each face as ``folder/CODE.png``; face images a former run left there are removed
    first, so the folder holds this deck's faces only."""
    import cv2

    from vision.cards.codes import normalize
    from vision.cards.faces import IMAGE_SUFFIXES

    try:
        folder.mkdir(parents=True, exist_ok=True)
        for old in folder.iterdir():
            try:
                normalize(old.stem)
            except ValueError:
                continue
            if old.suffix.lower() in IMAGE_SUFFIXES and old.is_file():
                old.unlink()
        for code, face in faces.items():
            path = folder / f"{code}.png"
            ok, data = cv2.imencode(".png", face)
            if not ok:  # pragma: no cover - OpenCV encodes any 8-bit BGRA image
                raise VisionCommandError(f"cannot encode the face {code!r} as PNG")
            path.write_bytes(data.tobytes())
    except OSError as err:
        raise VisionCommandError(
            f"cannot write the cut faces to {str(folder)!r}: {err.strerror or err}") from err


def _item_text(item: Item) -> str:
    code = item.code or "?"
    where = f"({item.center[0]:.0f}, {item.center[1]:.0f})"
    region = f" {item.region}" if item.region else ""
    note = f" [{item.note}]" if item.note else ""
    return f"  {item.kind:<4} {code:<4} {item.confidence:.3f} {where}{region}{note}"


def _summary(name: str, result: FrameResult) -> str:
    kinds = [(k, sum(1 for i in result.items if i.kind == k)) for k in ("card", "tile", "die")]
    found = ", ".join(f"{n} {k}{'s' if n != 1 else ''}" for k, n in kinds if n) or "nothing"
    unknown = sum(1 for i in result.items if i.code is None)
    extra = f" ({unknown} unknown)" if unknown else ""
    note = f" [{result.note}]" if result.note else ""
    return f"{name}: {found}{extra}{note}"


def _reader(args: argparse.Namespace) -> FrameReader:
    from vision.cards import CardReader, Deck
    from vision.frame import for_game
    from vision.layout import Layout

    try:
        cards = CardReader(Deck.load(args.deck)) if args.deck else None
        layout = None
        if args.layout:
            path = layout_path(args.layout)
            layout = Layout.parse(read_text(path, "layout"), path.stem)
    except VisionError as err:
        raise VisionCommandError(str(err)) from err
    game = cast("Game", args.game or ("poker" if cards is not None else "tiles"))
    if game == "poker" and cards is None:
        raise VisionCommandError("--game poker reads cards: give their deck with --deck CALIB")
    return for_game(game, cards, layout)


def cmd_read(args: argparse.Namespace) -> int:
    """Read every card, tile and die in each image."""
    from vision.sources import read_image

    reader = _reader(args)
    if not args.deck and args.game is None:
        print("paigow: note: no --deck given: read as a tiles table (tiles and dice)",
              file=sys.stderr)
    elif not args.deck and args.game == "any":
        print("paigow: note: no --deck given, so cards are not read", file=sys.stderr)
    elif args.deck and args.game == "tiles":
        print("paigow: note: --game tiles reads no cards: the deck is not used", file=sys.stderr)
    status = 0
    for name in args.images:
        out: dict[str, Any]
        try:
            result = reader.read(read_image(name))
        except ImageTooLargeError as err:
            raise VisionCommandError(str(err)) from err
        except VisionError as err:
            # Bad input, as any the command line names (exit 2, one line naming it), but
            # the other images are read all the same: one unreadable image loses none.
            status = 2
            said = str(err) if name in str(err) else f"{name}: {err}"
            print(f"paigow: error: {said}", file=sys.stderr)
            if args.json:
                out = {"image": name, "error": str(err), "items": []}
                print(json.dumps(out))
            continue
        if args.json:
            print(json.dumps(result.to_json(name)))
        else:
            print(_summary(name, result))
            for item in result.items:
                print(_item_text(item))
    return status


def add_parsers(subparsers: Any) -> None:
    """Register ``vision calibrate cards`` and ``vision read`` on ``add_subparsers()``."""
    from vision.frame import GAMES

    vision = subparsers.add_parser("vision", help="camera: calibrate a deck, read frames")
    sub = vision.add_subparsers(dest="vision_command", required=True, metavar="COMMAND")

    cal = sub.add_parser("calibrate", help="learn a deck from its face images")
    what = cal.add_subparsers(dest="calibrate_what", required=True, metavar="WHAT")
    p = what.add_parser(
        "cards", help="one image per face in DIR (As.png ... Jk.png), or frames of the deck "
                      "laid face up (--frame IMG ... --codes CODES)")
    p.add_argument("dir", metavar="DIR", nargs="?",
                   help="folder of face images named by card code (Jk optional)")
    p.add_argument("--frame", action="append", metavar="IMG", default=[],
                   help="a frame of cards laid face up, apart, in rows (repeat for more "
                        "frames); the faces cut are written to CALIB.faces/")
    p.add_argument("--codes", metavar="CODES",
                   help="the cards' codes in reading order across the frames (rows top to "
                        "bottom, left to right): 'As Ks Qs ...' or 'AsKsQs...'; Jk allowed")
    p.add_argument("--codes-file", metavar="F",
                   help="a file of the codes in reading order (one a line or space separated)")
    p.add_argument("--out", required=True, metavar="CALIB", help="calibration file to write")
    p.add_argument("--name", help="the deck's name (default: the folder's, or CALIB's stem)")
    p.add_argument("--rounds", type=number_in("rounds", int, 1), default=32,
                   help="training renders per face, about (default 32)")
    p.set_defaults(handler=cmd_calibrate_cards)

    p = sub.add_parser("read", help="read the cards, tiles and dice in images")
    p.add_argument("images", nargs="+", metavar="IMAGE")
    p.add_argument("--deck", metavar="CALIB", help="a deck calibration (to read cards)")
    p.add_argument("--layout", metavar="NAME",
                   help="table layout: config/layouts/NAME.toml or a .toml path")
    p.add_argument("--game", choices=list(GAMES),
                   help="the table's game: poker reads cards and dice, tiles reads tiles and "
                        "dice, any reads every kind (default: poker with --deck, else tiles)")
    p.add_argument("--json", action="store_true", help="one JSON object per image per line")
    p.set_defaults(handler=cmd_read)




def main(argv: Sequence[str] | None = None) -> int:
    """Run these subcommands alone (``python -m controller.commands.vision``)."""
    return run_alone(add_parsers, argv)


if __name__ == "__main__":
    raise SystemExit(main())
