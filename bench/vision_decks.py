"""Decks the card reader was not tuned on, measured for ``bench_vision.py`` (issue 33).

Two kinds, each calibrated from its own faces and read on frames of seated hands
(``vision.scene.hands.table_scene``), scored card by card against the frames' truth:

- **hold-out artworks** (``holdout_report``): public deck artworks drawn by
  ``scripts/holdout_decks.py``, their clean faces calibrated and dealt;
- **single-card photographs** (``single_report``, ``docs/sources.md: [V2]``): a real deck, 24
  faces photographed nine times each, three times in each of three lights (a file's
  ``_LA``: light L, shot A). The first photograph of each face (``_00``) is its calibration
  face; each frame is dealt under one light, picked at random, a photograph of that light
  picked at random for each card (a table has one light; cards of different lights side by
  side no camera sees), so the cards read were never learned from and carry real print,
  paper and light. The photographs are read in place, never copied, and carry no licence.

A calibration that refuses faces is tried again without them (up to ``REFUSALS`` times), and
the deck measured all the same: its refused faces are never named, so their cards count as
unknown. Each deck gets a verdict against issue 33's hold-out targets.
"""

from __future__ import annotations

import math
import statistics
import time
from collections import Counter
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from controller.config.locations import assets_dir
from vision.cards import CODES, CardReader, Deck, card_face, load_faces
from vision.cards.cache import cached_deck
from vision.cards.calibrate import UnusableFaces, calibrate
from vision.cards.codes import JOKER, normalize
from vision.cards.evaluate import NEAR, Tally
from vision.cards.faces import read_image
from vision.cards.naming import rank_fit
from vision.errors import VisionError
from vision.items import Item
from vision.scene import Placement
from vision.scene.hands import REAL_SCENE, table_scene

Image = NDArray[np.uint8]
# Decks of ``holdout_decks`` the reader has since been changed while looking at (issue 33:
# Aguilar's covered cards not found, Bonded's index in four corners): still measured and
# judged by the hold-out targets, but reported as "tuned on", not as hold-outs; the decks
# never looked at stay the hold-outs.
TUNED_ON = frozenset({"aguilar", "bonded"})
# The scenes a deck is read in (``--render``): "plain", the felt and camera the reader was
# tuned with; "real", felt or a wooden table, card stock's mottle, cast, sheen and ink, and
# a camera with a stronger cast, defocus, vignetting, shot noise and JPEG (issue 33: "make
# the renderer as real as you can").
RENDERS: dict[str, Mapping[str, Any]] = {
    "plain": {},
    "real": REAL_SCENE,
}
# Issue 33's targets on every hold-out deck.
HOLDOUT_RIGHT, HOLDOUT_WRONG_PER_10K, HOLDOUT_MEDIAN_MS = 0.995, 1.0, 33.0
REFUSALS = 4  # calibrations tried on a deck, each without the faces refused before
# Seven seats need 49 cards; the photographed deck has 24 faces, so its frames seat three
# players (21 cards).
SINGLE_HANDS = 3
SINGLE_LEARNED = "_00"  # the photograph of each face its calibration learns from


def phantoms(items: list[Item], truth: list[Placement]) -> int:
    """Unknown card items (``code=None``) nearer no card than ``NEAR`` card widths: reported
    where no card lies (``Tally`` scores only the named ones of those, as wrong)."""
    cards = [t for t in truth if t.kind == "card"]
    if not cards:
        return sum(1 for i in items if i.kind == "card" and i.code is None)
    centres = np.array([t.center for t in cards], np.float64)
    widths = np.array([np.hypot(*np.subtract(t.corners[1], t.corners[0])) for t in cards])
    count = 0
    for item in items:
        if item.kind == "card" and item.code is None:
            d = np.hypot(*(centres - np.array(item.center)).T) / widths
            count += int(d.min() >= NEAR)
    return count


def calibrate_deck(name: str, faces: Mapping[str, Image], without: set[str] | None = None,
                   ) -> tuple[Deck | None, str | None, set[str], float]:
    """The calibration of ``faces`` (kept in the asset cache where nothing is left out), the
    refusals met on the way, joined (None: none), the faces refused, and the seconds the
    last calibration took (the one kept: what a user who leaves those faces out waits).
    Faces refused (``UnusableFaces``) are left out and the deck calibrated again, up to
    ``REFUSALS`` times; ``without``: faces the deck has no image of."""
    refusals: list[str] = []
    left_out = set(without or ())
    deck = None
    last = 0.0
    while deck is None:
        last = time.perf_counter()
        try:
            deck = (calibrate(faces, name=name, without=left_out) if left_out
                    else cached_deck(name, faces, assets_dir() / "decks"))
        except UnusableFaces as err:
            # Measured all the same, the refused faces left out (never named, so unknown);
            # a calibration without them may refuse others in turn.
            refusals.append(str(err))
            left_out |= set(err.faces)
            if len(refusals) == REFUSALS or len(left_out) >= len(faces):
                break
        except VisionError as err:
            refusals.append(str(err))
            break
    return (deck, " / then: ".join(refusals) or None, left_out - set(without or ()),
            time.perf_counter() - last)


def read_tables(reader: CardReader, deal: Callable[[np.random.Generator], Mapping[str, Image]],
                scenes: int, seed: int, render: str, hands: int) -> tuple[Tally, int]:
    """Read ``scenes`` frames of ``hands`` seats, each dealt from the faces ``deal`` gives,
    and score them (``evaluate``'s loop, with the phantoms counted too)."""
    rng = np.random.default_rng(seed + 1)
    warm, _ = table_scene(deal(rng), rng, hands=hands)
    reader.read(warm)  # compile (or load) the kernels: not timed
    tally, phantom = Tally(), 0
    rng = np.random.default_rng(seed)
    for frame in range(scenes):
        image, truth = table_scene(deal(rng), rng, hands=hands, **RENDERS[render])
        start, start_cpu = time.perf_counter(), time.thread_time()
        items = reader.read(image)
        tally.cpu.append(time.thread_time() - start_cpu)
        tally.seconds.append(time.perf_counter() - start)
        tally.add(items, truth, frame)
        phantom += phantoms(items, truth)
    return tally, phantom


def deck_row(name: str, deck: Deck, faces: Mapping[str, Image], tally: Tally, phantom: int,
             made: tuple[float, float], refused: str | None, mistakes: int
             ) -> dict[str, object]:
    """A measured deck's report, with its verdict against the hold-out targets."""
    ms = sorted(s * 1000 for s in tally.seconds)
    row: dict[str, object] = {
        "deck": name, "tuned_on": name in TUNED_ON, "absent": False, "measured": True,
        "frames": tally.frames, "cards": tally.cards,
        "right": tally.rate(tally.right), "wrong": tally.wrong,
        "unknown": tally.rate(tally.unknown), "phantom": phantom,
        "median_ms": statistics.median(ms) if ms else 0.0,
        "p95_ms": ms[int(0.95 * len(ms))] if ms else 0.0,
        "median_cpu_ms": statistics.median(s * 1000 for s in tally.cpu) if ms else 0.0,
        # All the calibrations a deck took (each without the faces the one before refused),
        # and the last, kept one.
        "calibration_s": made[0], "last_calibration_s": made[1], "refused": refused,
        "left_out": sorted(set(faces) - set(deck.faces)),
        "strip_codes": list(deck.strip_codes), "joker": JOKER in faces,
        # What the calibration chose for the deck (``calibrate``, ``trial``): how the reader
        # reads it, so that a change in a deck's figures can be traced to a change of choice.
        "read_as": read_as(deck),
        "mistakes": tally.mistakes[:mistakes], "wrong_codes": wrong_codes(tally.mistakes),
        "losses": dict(tally.losses.most_common()),
    }
    fails = []
    if tally.rate(tally.right) < HOLDOUT_RIGHT:
        fails.append(f"right {100 * tally.rate(tally.right):.2f} % < {100 * HOLDOUT_RIGHT} %")
    if tally.wrong / max(tally.cards, 1) * 1e4 > HOLDOUT_WRONG_PER_10K:
        fails.append(f"wrong {tally.wrong / max(tally.cards, 1) * 1e4:.1f} per 10k > "
                     f"{HOLDOUT_WRONG_PER_10K:g}")
    if float(str(row["median_ms"])) > HOLDOUT_MEDIAN_MS:
        fails.append(f"median {row['median_ms']:.1f} ms > {HOLDOUT_MEDIAN_MS:g} ms")
    # No wrong read in fewer cards than the target allows one in does not show the target
    # met: ten frames a deck (490 cards) read none wrongly where 200 frames of the same
    # decks read 1 to 35 in 10,000 wrongly (``docs/benchmarks.md``, stop 50).
    least = math.ceil(1e4 / HOLDOUT_WRONG_PER_10K)
    unshown = [f"wrong rate not shown: {tally.wrong} wrong in {tally.cards} cards, fewer "
               f"than {least}"] if tally.cards < least and not tally.wrong else []
    row["verdict"] = ("FAIL: " + "; ".join(fails + unshown) if fails
                      else "unresolved: " + unshown[0] if unshown else "pass")
    return row


def read_as(deck: Deck) -> dict[str, object]:
    """How a calibrated deck is read: its ink's sharpening (as learned, and as the reader
    applies it), how far the fine cut may find a read's rank (``Deck.fine_rank_fit``, as the
    reader applies it), and whether its marks split, glyphs are parted from its pips (and its
    courts') and cut from its outline, and its index prints at four corners."""
    return {"sharpen": deck.sharpen, "read_sharpen": CardReader(deck).limits.sharpen,
            "fine_rank_fit": rank_fit(deck),
            "split": deck.split, "pips": deck.pips, "courts": deck.courts, "bays": deck.bays,
            "four_corners": deck.twin != (0.0, 0.0)}


def refused_row(name: str, refused: str | None, left_out: set[str]) -> dict[str, object]:
    """The report of a deck no calibration could be made of."""
    return {"deck": name, "absent": False, "measured": False, "refused": refused,
            "left_out": sorted(left_out), "verdict": "FAIL: calibration refused"}


def holdout_report(name: str, folder: Path | None, scenes: int, seed: int, second_look: bool,
                   mistakes: int, render: str = "plain") -> dict[str, object]:
    """Calibrate hold-out deck ``name`` on its clean faces in ``folder`` and read ``scenes``
    rendered frames (the tuning styles' scene generator, seed and seven seats); ``absent``
    when it is not drawn (``folder`` None)."""
    if folder is None:
        return {"deck": name, "absent": True, "verdict": "absent"}
    faces = load_faces(folder)
    start = time.perf_counter()
    deck, refused, left_out, last = calibrate_deck(f"holdout-{name}", faces)
    if deck is None:
        return refused_row(name, refused, left_out)
    made = (time.perf_counter() - start, last)
    reader = CardReader(deck, second_look=second_look)
    tally, phantom = read_tables(reader, lambda _: faces, scenes, seed, render, hands=7)
    return deck_row(name, deck, faces, tally, phantom, made, refused, mistakes)


def single_photos(folder: Path) -> dict[str, list[Path]]:
    """The photographs of each face, by code, in file order (``labels.tsv``: file, code)."""
    by_code: dict[str, list[Path]] = {}
    for line in (folder / "labels.tsv").read_text().splitlines():
        if line.strip():
            name, code = line.split("\t")
            by_code.setdefault(normalize(code.strip()), []).append(folder / name.strip())
    return {code: sorted(paths) for code, paths in by_code.items()}


def single_report(folder: Path, scenes: int, seed: int, second_look: bool, mistakes: int,
                  render: str = "plain") -> dict[str, object]:
    """Calibrate the photographed deck from each face's ``SINGLE_LEARNED`` photograph and
    read ``scenes`` frames dealt from its other photographs (see the module's docstring)."""
    photos = single_photos(folder)
    learned = {code: card_face(read_image(p)) for code, paths in photos.items()
               for p in paths if p.stem.endswith(SINGLE_LEARNED)}
    held: dict[str, dict[str, list[Image]]] = {}  # light -> code -> its photographs
    for code, paths in photos.items():
        for path in paths:
            if not path.stem.endswith(SINGLE_LEARNED):
                light = path.stem.rsplit("_", 1)[-1][:1]
                held.setdefault(light, {}).setdefault(code, []).append(
                    card_face(read_image(path)))
    lights = sorted(light for light, shots in held.items() if set(shots) == set(learned))
    name = "single-cards"
    start = time.perf_counter()
    deck, refused, left_out, last = calibrate_deck(name, learned,
                                                   without=set(CODES) - set(learned))
    if deck is None:
        return refused_row(name, refused, left_out)
    made = (time.perf_counter() - start, last)
    reader = CardReader(deck, second_look=second_look)

    def deal(rng: np.random.Generator) -> dict[str, Image]:
        shots = held[lights[int(rng.integers(len(lights)))]]
        return {code: faces[int(rng.integers(len(faces)))] for code, faces in shots.items()}

    tally, phantom = read_tables(reader, deal, scenes, seed, render, hands=SINGLE_HANDS)
    row = deck_row(name, deck, learned, tally, phantom, made, refused, mistakes)
    row["photographs"] = {"faces": len(learned), "learned": len(learned), "lights": lights,
                          "read": sum(len(f) for s in held.values() for f in s.values())}
    return row


def wrong_codes(mistakes: list[str]) -> dict[str, int]:
    """The wrong reads by what was read as what (``"Kh->Kd"``; ``"->Qs"`` where no card lies),
    from ``Tally.mistakes``' lines."""
    counts = Counter[str]()
    for line in mistakes:
        what = line.split(": ", 1)[1]
        if what.startswith("read "):
            counts["->" + what.split()[1]] += 1
        else:
            card, named = what.split(" read as ")
            codes = "/".join(c.strip("[]' ") for c in named.split(","))
            counts[f"{card}->{codes}"] += 1
    return dict(counts.most_common())


def print_deck(row: dict[str, object], why: bool, label: str = "holdout") -> None:
    """One deck's report as lines."""
    if row["absent"]:
        print(f"{label} {row['deck']}: not drawn (scripts/holdout_decks.py), not measured")
        return
    if row["refused"]:
        print(f"{label} {row['deck']}: calibration refused: {row['refused']}")
        if not row["measured"]:
            print(f"{label} {row['deck']}: not measured (no calibration)  FAIL")
            return
        print(f"    measured without {' '.join(row['left_out'])}"  # type: ignore[arg-type]
              f" ({len(row['left_out'])} faces never named: unknown)")  # type: ignore[arg-type]
    cards = max(int(str(row["cards"])), 1)
    wrong = int(str(row["wrong"]))
    kind = "tuned on" if row["deck"] in TUNED_ON else "hold-out"
    print(f"{label} {row['deck']:<12} ({kind}) {cards:>6} cards  right "
          f"{100 * float(str(row['right'])):.2f} %  wrong {wrong} ({wrong / cards * 1e4:.1f} "
          f"per 10k)  unknown {100 * float(str(row['unknown'])):.2f} %  phantom "
          f"{row['phantom']}  frame median {row['median_ms']:.1f} ms (cpu "
          f"{row['median_cpu_ms']:.1f} ms) p95 {row['p95_ms']:.1f} ms  (calibration "
          f"{row['calibration_s']:.1f} s, the last {row['last_calibration_s']:.1f} s)  "
          f"{row['verdict']}")
    print(f"    read as: {row['read_as']}")
    for m in row["mistakes"]:  # type: ignore[attr-defined]
        print(f"    {m}")
    if row["wrong_codes"]:
        print(f"    wrong reads by code: {row['wrong_codes']}")
    if why:
        for cause, n in row["losses"].items():  # type: ignore[attr-defined]
            print(f"    unknown, {cause}: {n} ({100 * n / cards:.2f} %)")
