"""Benchmark: where the card reader loses the cards it does not find, stage by stage.

Run: ``.venv/bin/python bench/bench_vision_lost.py [--render plain|real] [--holdout NAME ...]
[--styles STYLE ...] [--scenes N] [--seed S] [--list N]``. ``bench_vision.py --why`` counts a
card "not found" where no item at all lies near it (``evaluate.Tally``); that covers every
stage of ``CardReader.read`` that drops a card silently. This bench reads the same frames
(``bench_vision``'s scene generator, seed, renders and hold-out calibrations) and, for each
card not found, tells the first stage at which nothing lies at its index any more:

- where its indices lie is known from the truth: the deck's offsets (``Deck.offsets``,
  ``Deck.lengths``, ``Deck.twin``) put on the card's face image, mapped onto the frame by
  the card's corners; an index is visible where no card placed later covers its rank or its
  suit;
- ink: is there ink (``ink.masks``) at the index's rank and suit; are they one mark, or is
  one of them a mark JOINED lengths across (run into a pip, a frame or an edge line), or are
  they two marks that no group joins (``link``);
- candidates: is there a group of ``ink.find_groups`` at the index (its rank and suit ends
  within SUIT_TOL and RANK_TOL card widths), kept by the size filter
  (``CardReader._candidates``) and cut (``CardReader._by_size``);
- verdict: whether it was seen (``Thresholds.seen``), left out of the competition for marks
  (a split mark's part read not surely and cleanly, ``naming.holds_part``) or lost its marks
  to another candidate (``naming.Naming.reads``), with its best name, odds and fit;
- reads: which of the reader's later filters dropped the read at its index (corners,
  ``ground.on_cards``, ``ground.on_paper``, ``lattice``, ``reads.like_sizes``,
  ``reads.merge``, the second look, the split parts named nothing), or whether it lived on
  but put its card elsewhere.

The reader's stages are traced by repeating ``CardReader.read`` here step by step; each
frame's items are checked equal to ``CardReader.read``'s, so a change to the reader that the
trace misses stops this bench rather than mislead it. Jokers and faces without an index are
left out (``strips``); faces the calibration refused are counted apart.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections import Counter, defaultdict
from collections.abc import Sequence
from pathlib import Path

for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(var, "1")

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT / "scripts"))

import bench_vision as bv  # noqa: E402
import cv2  # noqa: E402
import numpy as np  # noqa: E402
from holdout_decks import DECKS as HOLDOUT  # noqa: E402
from holdout_decks import deck_dir  # noqa: E402
from numpy.typing import NDArray  # noqa: E402
from vision_decks import calibrate_deck  # noqa: E402

from controller.config.locations import assets_dir  # noqa: E402
from vision.cards import (  # noqa: E402
    CardReader,
    load_faces,
)
from vision.cards import reader as rd  # noqa: E402
from vision.cards.cache import cached_deck  # noqa: E402
from vision.cards.corners import edge_sides  # noqa: E402
from vision.cards.corners import place as by_corner  # noqa: E402
from vision.cards.deck import Deck  # noqa: E402
from vision.cards.evaluate import NEAR, ON_TOP, Tally, evaluate  # noqa: E402
from vision.cards.felt import Felt  # noqa: E402
from vision.cards.ground import inked, on_cards, on_paper  # noqa: E402
from vision.cards.ink import Groups, find_groups, masks  # noqa: E402
from vision.cards.lattice import LATTICE, withdrawn  # noqa: E402
from vision.cards.measure import label  # noqa: E402
from vision.cards.parting import markish  # noqa: E402
from vision.cards.pyramid import Pyramid  # noqa: E402
from vision.cards.reads import (  # noqa: E402
    ODD_SIZE,
    Read,
    but,
    eliminate,
    in_step,
    like_sizes,
    merge,
    tens,
)
from vision.cards.verdict import Judged  # noqa: E402
from vision.cards.white import balanced  # noqa: E402
from vision.items import Item  # noqa: E402
from vision.scene import Placement  # noqa: E402
from vision.scene.hands import table_scene  # noqa: E402

Image = NDArray[np.uint8]
F64 = NDArray[np.float64]
Point = NDArray[np.float64]
Index = tuple[Point, Point]  # an index's suit and rank centroids in the frame
# A group lies at an index when its suit end is this near the true suit centroid and its rank
# end this near the true rank's, in card widths: the rank's centroid moves more (a "10" is two
# glyphs; a court's rank may be cut from its frame), and the indices of two cards of a spread
# lie a step (at least 0.2 card widths) apart.
SUIT_TOL, RANK_TOL = 0.08, 0.12
# A mark this many rank-to-suit lengths across is more than one glyph: an index's rank or
# suit run into the large pip, a court's frame or the edge line of a card on top (a glyph is
# at most about one length across).
JOINED = 1.6
INK_AT = 0.04  # card widths about an index's rank or suit centroid where its ink is sought
STAGES = ("corner", "on_cards", "on_paper", "lattice", "like_sizes", "merge", "second_look",
          "split")


def indices(deck: Deck, face: Image, card: Placement) -> list[Index]:
    """Where ``card``'s indices lie in the frame: the top-left one and the bottom-right one
    turned (and their twins on a four-corner deck), mapped by the card's corners."""
    k = deck.codes.index(card.label)
    h, w = face.shape[:2]
    square = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    homography = cv2.getPerspectiveTransform(square, np.array(card.corners, np.float32))
    offset, length = deck.offsets[k].astype(np.float64), float(deck.lengths[k])
    centre = np.array([w / 2, h / 2])
    pairs = []
    for sign in (1.0, -1.0):
        suit = centre - sign * w * offset
        rank = suit - sign * np.array([0.0, length * w])
        pairs.append((suit, rank))
        if deck.twin != (0.0, 0.0):
            step = sign * w * np.array(deck.twin)
            pairs.append((suit + step, rank + step))
    out = []
    for suit, rank in pairs:
        seen = cv2.perspectiveTransform(np.array([[suit, rank]], np.float32), homography)[0]
        out.append((seen[0].astype(np.float64), seen[1].astype(np.float64)))
    return out


def covered(point: Point, truth: Sequence[Placement], z: int) -> bool:
    """Whether a card placed above ``z`` covers ``point``."""
    at = (float(point[0]), float(point[1]))
    return any(t.z > z and cv2.pointPolygonTest(np.array(t.corners, np.float32), at, False) >= 0
               for t in truth)


def at_index(reads: Sequence[Read], where: Sequence[Index], width: float) -> list[Read]:
    """The reads with an index (suit centroid) at one of ``where``."""
    return [r for r in reads if any(
        np.hypot(*(p - suit)) < SUIT_TOL * width for p, _, _ in r.indices for suit, _ in where)]


def group_rows(groups: Groups, where: Sequence[Index], width: float) -> NDArray[np.int64]:
    """The groups whose rank and suit ends (in either sense) lie at one of ``where``."""
    hit = np.zeros(len(groups), np.bool_)
    for suit, rank in where:
        for sense in range(2):
            ds = np.hypot(*(groups.ends[:, sense, 1] - suit).T)
            dr = np.hypot(*(groups.ends[:, sense, 0] - rank).T)
            hit |= (ds < SUIT_TOL * width) & (dr < RANK_TOL * width)
    return np.flatnonzero(hit)


class Trace:
    """``CardReader.read`` step by step: the groups found and kept, the competition for
    marks (its groups, verdicts and reads), the reads after each later stage, the items."""

    def __init__(self, reader: CardReader, frame: Image) -> None:
        limits, deck = reader.limits, reader.deck
        frame = balanced(frame)
        ink, _, paper, deep = masks(frame, sharpen=limits.sharpen, deep=limits.split,
                                    bays=limits.bays)
        self.ink = ink
        felt = Felt(paper, frame)
        self.found = find_groups(frame, limits, ink, deep)
        self.kept = reader._candidates(self.found)
        calls: list[tuple[Groups, Judged, list[Read]]] = []
        names = reader._naming
        match = names.reads

        def spy(pyramid: Pyramid, groups: Groups, every: Judged, least: float = 0.0
                ) -> list[Read]:
            out = match(pyramid, groups, every, least)
            calls.append((groups, every, out))
            return out

        names.reads = spy  # type: ignore[method-assign]
        try:
            reads = reader._by_size(Pyramid(frame), self.kept)
            self.cut, self.every, _ = calls[0]
            self.reads: dict[str, list[Read]] = {"match": reads}
            aspect = deck.aspect
            reads = by_corner(reads, deck.twin, lambda rs: on_cards(felt, rs, aspect),
                              lambda rs: edge_sides(frame, rs, reader._edges(rs)))
            self.reads["corner"] = reads
            reads = rd.off_cards(reads, on_cards(felt, reads, aspect).tolist())
            self.reads["on_cards"] = [r for r in reads if r.note != rd.OFF_CARDS_NOTE]
            reads = [r for r, ok in zip(reads, on_paper(frame, reads, aspect).tolist(),
                                        strict=True) if ok]
            self.reads["on_paper"] = reads
            reads = [r if ok else but(r, code=None, guess=None, pair=None, note="faint")
                     for r, ok in zip(reads, inked(frame, reads).tolist(), strict=True)]
            reads = withdrawn(ink, reads)
            self.reads["lattice"] = [r for r in reads if r.note != LATTICE]
            reads = like_sizes(tens(in_step(reads)), reader.thresholds.widths)
            self.reads["like_sizes"] = [r for r in reads if r.note != ODD_SIZE]
            reads = merge(reads)
            self.reads["merge"] = reads
            if reader.second_look:
                reads = reader._second_look(frame, reads, felt)
            self.reads["second_look"] = reads
            reads = [r for r in eliminate(reads) if r.code is not None or not r.split]
            self.reads["split"] = reads
        finally:
            del names.reads
        self.items = reader._with_strips(frame, reads, felt)


def contest(reader: CardReader, groups: Groups, every: Judged
            ) -> tuple[set[int], dict[int, int], NDArray[np.bool_]]:
    """``naming.Naming.contest``'s competition for marks: the candidates chosen, the
    candidate that took each other's marks, and which may compete at all."""
    c = reader._naming.contest(groups, every)
    taker = {i: next(c.owner[k] for k in c.members[i] if k in c.owner and c.owner[k] != i)
             for i in range(len(groups))
             if any(k in c.owner and c.owner[k] != i for k in c.members[i])}
    return set(c.chosen), taker, c.eligible | c.late


def lost(reader: CardReader, trace: Trace, faces: dict[str, Image], frame: Image,
         truth: Sequence[Placement]) -> list[tuple[str, str, str, str]]:
    """Each card of ``truth`` not found (no item within ``NEAR``): its code, "top" or
    "covered", the stage it was lost at, and what was read there."""
    deck = reader.deck
    cards = [t for t in truth if t.kind == "card"]
    centres = np.array([t.center for t in cards], np.float64)
    widths = np.array([np.hypot(*np.subtract(t.corners[1], t.corners[0])) for t in cards])
    owners = [int(np.argmin(np.hypot(*(centres - np.array(i.center)).T) / widths))
              for i in trace.items]
    near = {j for i, j in zip(trace.items, owners, strict=True)
            if np.hypot(*(centres[j] - np.array(i.center))) < NEAR * widths[j]}
    chosen, taker, competes = contest(reader, trace.cut, trace.every)
    _, labels, measures = label(trace.ink)
    stats = measures.stats
    is_mark = markish(stats, reader.limits)
    out = []
    for j, card in enumerate(cards):
        if j in near or card.label in deck.strip_codes or card.label == "Jk":
            continue
        lies = "top" if card.visible >= ON_TOP else "covered"
        if card.label not in deck.codes:
            out.append((card.label, lies, "face refused by the calibration", ""))
            continue
        w = float(widths[j])
        shown = [(s, r) for s, r in indices(deck, faces[card.label], card)
                 if not covered(s, truth, card.z) and not covered(r, truth, card.z)
                 and 0 <= s[0] < frame.shape[1] and 0 <= s[1] < frame.shape[0]]
        stage, said = _stage(reader, trace, shown, w, labels, stats, is_mark, chosen, taker,
                             competes, card, centres[j])
        out.append((card.label, lies, stage, said))
    return out


def _stage(reader: CardReader, trace: Trace, shown: list[Index], w: float,
           labels: NDArray[np.int32], stats: NDArray[np.int32], is_mark: NDArray[np.bool_],
           chosen: set[int], taker: dict[int, int], competes: NDArray[np.bool_],
           card: Placement, centre: F64) -> tuple[str, str]:
    """The stage a card whose indices ``shown`` lie in the frame was lost at (``lost``)."""
    if not shown:
        return "no index shows", ""
    deck, every = reader.deck, trace.every
    reach = max(2, round(INK_AT * w))

    def mark_at(p: Point) -> int:
        x, y = round(float(p[0])), round(float(p[1]))
        window = labels[max(y - reach, 0):y + reach + 1, max(x - reach, 0):x + reach + 1]
        inked_ = window[window > 0]
        return int(np.bincount(inked_).argmax()) if len(inked_) else 0

    marks = [(mark_at(s), mark_at(r)) for s, r in shown]
    found = group_rows(trace.found, shown, w)
    if not any(a and b for a, b in marks):
        return "ink: none at the index", ""
    if len(found) == 0:
        length = float(deck.lengths[deck.codes.index(card.label)]) * w
        why = []
        for suit, rank in ((a, b) for a, b in marks if a and b):
            big = [k for k in (suit, rank) if max(stats[k, 2], stats[k, 3]) > JOINED * length]
            if suit == rank:
                why.append("ink: rank and suit one mark")
            elif big:
                why.append(f"ink: {'suit' if big[0] == suit else 'rank'} joined to another "
                           "glyph")
            elif not (is_mark[suit] and is_mark[rank]):
                why.append("ink: a glyph not of a mark's size")
            else:
                why.append("link: rank and suit in no group")
        return sorted(why)[0], ""
    if len(group_rows(trace.kept, shown, w)) == 0:
        return "candidates: group size (_candidates)", ""
    rows = group_rows(trace.cut, shown, w)
    if len(rows) == 0:
        return "candidates: not cut (_by_size: card width)", ""
    at = at_index(trace.reads["match"], shown, w)
    if not at:
        best = int(rows[np.argmin(every.loose[rows])])
        name = reader._naming.codes(every.r_best[[best]], every.s_best[[best]])[0]
        said = f"best {name} odds {every.odds[best]:.1f} fit {every.loose[best]:.2f}"
        t = reader.thresholds
        seen = ((every.r_d[rows] <= t.seen * deck.ranks.typical)
                & (every.s_d[rows] <= t.seen * deck.suits.typical))
        if any(i in chosen for i in rows.tolist()) or not seen.any():
            return "verdict: not seen (Thresholds.seen)", said
        if not competes[rows].any():
            return "verdict: a split part not read surely and cleanly", said
        took = [taker[i] for i in rows.tolist() if i in taker]
        if took:
            name = reader._naming.codes(every.r_best[[took[0]]], every.s_best[[took[0]]])[0]
            said += f"; marks taken by {name} fit {every.loose[took[0]]:.2f}"
        return "verdict: marks taken (Naming.reads)", said
    said = f"read {at[0].code or at[0].guess} ({at[0].note}) odds {at[0].odds:.1f} " \
           f"fit {at[0].fit:.2f}"
    last = at
    for stage in STAGES:
        now = at_index(trace.reads[stage], shown, w)
        if not now:
            return f"reads: dropped at {stage}", said
        last = now
    if not any(np.hypot(*(r.center - centre)) < NEAR * w for r in last):
        return "reads: its card placed elsewhere", said + f" as {last[0].code}"
    return "items: withdrawn (WITHDRAWN)", said


def deck_of(name: str, faces: dict[str, Image]) -> Deck:
    """A deck's calibration as ``vision_decks.holdout_report`` makes it (the faces it
    refuses left out) or a tuning style's cached one."""
    if name in bv.STYLES:
        return cached_deck(name, faces, assets_dir() / "decks")
    deck, refused, _, _ = calibrate_deck(f"holdout-{name}", faces)
    if deck is None:
        raise SystemExit(f"{name}: calibration refused: {refused}")
    return deck


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--render", choices=sorted(bv.RENDERS), default="real")
    parser.add_argument("--holdout", nargs="*", default=["bonded", "tigullio"],
                        choices=[d.name for d in HOLDOUT])
    parser.add_argument("--styles", nargs="*", default=[], choices=bv.STYLES)
    parser.add_argument("--scenes", type=int, default=10)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--list", type=int, default=0, metavar="N",
                        help="list N cards of each stage (frame, code, what was read)")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    for name in args.styles + args.holdout:
        folder = assets_dir() / "cards" / name if name in bv.STYLES else deck_dir(name)
        if folder is None:
            print(f"{name}: not drawn (scripts/holdout_decks.py)")
            continue
        faces = load_faces(folder)
        deck = deck_of(name, faces)
        reader = CardReader(deck)
        evaluate(reader, faces, 1, args.seed + 1)  # as bench_vision: the same renders follow
        rng = np.random.default_rng(args.seed)
        tally, stages = Tally(), Counter[tuple[str, str]]()
        cards: dict[str, list[str]] = defaultdict(list)
        for frame_no in range(args.scenes):
            image, truth = table_scene(faces, rng, hands=7, **bv.RENDERS[args.render])
            items = reader.read(image)
            trace = Trace(reader, image)
            if _key(trace.items) != _key(items):
                raise SystemExit("the trace no longer reads as CardReader.read: update Trace")
            tally.add(items, truth, frame_no)
            for code, lies, stage, said in lost(reader, trace, faces, image, truth):
                stages[(stage, lies)] += 1
                cards[stage].append(f"frame {frame_no} {code} ({lies}) {said}".rstrip())
        print(f"{name} ({args.render}, {args.scenes} frames, seed {args.seed}): right "
              f"{tally.right}, wrong {tally.wrong}, unknown {tally.unknown} of {tally.cards}; "
              f"not found {sum(stages.values())} (covered + top):")
        for stage in sorted({s for s, _ in stages}, key=lambda s: -sum(
                n for (t, _), n in stages.items() if t == s)):
            print(f"    {stages[(stage, 'covered')]:>4} + {stages[(stage, 'top')]:<4} {stage}")
            for line in cards[stage][:args.list]:
                print(f"            {line}")
    return 0


def _key(items: Sequence[Item]) -> list[tuple[str | None, tuple[float, float]]]:
    return [(i.code, i.center) for i in items]


if __name__ == "__main__":
    raise SystemExit(main())
