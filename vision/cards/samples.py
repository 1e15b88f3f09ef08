"""Training samples for a deck: its faces rendered in small spreads, cut as the reader cuts.

Each sheet is one spread of three cards at any turn and size, seen by a camera with blur,
noise and uneven light a little beyond what the table should see. Every group the reader
would find is matched to the index it came from by the known placement, so each sample has
its card, its rank and suit vectors (in the right sense) and the card's geometry.

The "0" of a ten with its suit, the "1" dropped, is a group the reader also meets (a part of
the ten's group, or the whole of it where the "1" is lost in an edge line), and it passes for
an eight. It is learned as a rank of its own, ``TEN_PART``, that names no card, so the
discriminant learns what tells an "0" from an "8" and such a group is read "unknown". So is
the "1" with its suit (``TEN_ONE``): a patch keeps only its own marks' ink, so that part
shows no "0" beside it and passes for a seven.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Collection, Mapping
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from ..scene import Camera, Placement, Scene
from ..scene.hands import Spread, place_spread
from . import patch
from .codes import TEN_ONE, TEN_PART
from .ink import Groups, Limits, find_groups, masks
from .pyramid import Pyramid

Image = NDArray[np.uint8]
F32 = NDArray[np.float32]

TRAINING_CAMERA = Camera(tilt=0.03, light=(0.5, 1.2), glare=(1, 80.0), blur=(0.0, 1.2),
                         noise=(1.0, 8.0))
TRAINING_SPREAD = Spread(width=(86.0, 165.0), step=(0.24, 0.4), angle=180.0, flip=0.5)
SHEET = 420
# The least cosine of a sample's axis to its card's down (``_along``): an index runs down
# its card; Bonded's ten lying across (17 samples) is at about 90 degrees, and only 3 of the
# 2color deck's samples lie beyond 45.
ALONG = float(np.cos(np.radians(45.0)))


@dataclass
class Samples:
    """Index samples: card code, rank and suit vectors (cut ``patch.COARSE`` and
    ``patch.FINE``), centre offset and index length."""

    codes: list[str]
    ranks: list[F32]
    suits: list[F32]
    offsets: list[tuple[float, float]]
    lengths: list[float]
    fine_ranks: list[F32]
    fine_suits: list[F32]
    split: list[bool]  # the sample's group holds a part of a split mark (``ink.find_groups``)

    def unsplit(self, parted: Collection[str] = ()) -> Samples:
        """The samples whose group holds no part of a split mark, and those of the faces
        ``parted`` (codes) whose does."""
        keep = [k for k, s in enumerate(self.split) if not s or self.codes[k] in parted]
        return self._rows(keep)

    def only(self, codes: Collection[str]) -> Samples:
        """The samples of the faces ``codes``."""
        return self._rows([k for k, c in enumerate(self.codes) if c in codes])

    def joined(self, other: Samples) -> Samples:
        """These samples and ``other``'s."""
        return Samples(*(getattr(self, f) + getattr(other, f) for f in _FIELDS))

    def _rows(self, keep: list[int]) -> Samples:
        return Samples(*([getattr(self, f)[k] for k in keep] for f in _FIELDS))


_FIELDS = ("codes", "ranks", "suits", "offsets", "lengths", "fine_ranks", "fine_suits", "split")


def collect(
    faces: Mapping[str, Image], where: Mapping[str, tuple[float, float]], limits: Limits,
    rng: np.random.Generator, rounds: int, joined: Collection[str] = (),
) -> Samples:
    """Samples of every face in ``where`` (its top-left index centroid, card widths from the
    centre), from ``rounds`` passes over the deck in sheets of three cards. ``joined``: the
    faces whose index joins a pip printed close to it (``calibrate.corner_index``)."""
    out = Samples([], [], [], [], [], [], [], [])
    codes = list(where)
    for _ in range(rounds):
        order = [codes[i] for i in rng.permutation(len(codes))]
        for start in range(0, len(order), 3):
            _sheet(faces, where, order[start:start + 3], limits, rng, out, joined)
    return out


def _sheet(
    faces: Mapping[str, Image], where: Mapping[str, tuple[float, float]], codes: list[str],
    limits: Limits, rng: np.random.Generator, out: Samples, joined: Collection[str],
) -> None:
    scene = Scene(size=(SHEET, SHEET))
    spread = TRAINING_SPREAD
    width = float(rng.uniform(*spread.width))
    angle = float(rng.uniform(0, 360))
    place_spread(scene, [(c, faces[c]) for c in codes], SHEET / 2, SHEET / 2, angle, width,
                 spread, rng)
    image, truth = scene.render(rng, TRAINING_CAMERA)
    # Learn from the ink of whole indices: a glyph tied to the felt by a card on top (see
    # ``ink.masks``) is left out, as an index near a card on top is (``_covered``). Learning
    # from them too left more reads unsure and more wrong (``docs/benchmarks.md``).
    found = masks(image, tied=False, sharpen=limits.sharpen, deep=True, bays=limits.bays)
    # Marks are split at their necks too (``ink.Limits.necks``): a face whose index joins
    # the pip beside it by a neck as dark as ink (Dondorf's and Bonded's clubs 4-10) is
    # found split, so learned (``calibrate``), and read from the candidates the reader has.
    every = find_groups(image, dataclasses.replace(limits, necks=True), found.ink, found.deep)
    # Learn cards from whole groups; a face whose index joins a pip printed close to it (the
    # small ranks of many real decks; ``joined``) from the group's part that is the index,
    # as the reader offers it (``link.candidates``), where no whole group lies at its index.
    # Other faces not from parts: those are indices joined to an edge line or a neighbour's
    # marks, and learning from them read a covered card in a thousand fewer (2color-bf and
    # 4color-bf, 20 frames each, seed 2026). Where none lies at an index, from a candidate
    # holding a part of a split mark (``ink.find_groups``), whole or part: such samples
    # tell whether the deck needs its marks split (``calibrate.SPLIT_LEAST``).
    held = (np.zeros(len(every), np.bool_) if every.mark_map is None
            else (every.members >= every.mark_map.first_part).any(axis=1))
    groups = every.take(~every.variant & ~held)
    pieces = every.take(every.variant & ~held)
    split = (every.take(~every.variant & held), every.take(every.variant & held))
    if len(every) == 0:
        return
    pyramid = Pyramid(image)
    for z, placed in enumerate(truth):
        quad = np.array(placed.corners, np.float32)
        unit = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32)
        to_image = np.asarray(cv2.getPerspectiveTransform(unit, quad), np.float64)
        w = float(np.hypot(*(quad[1] - quad[0])))
        aspect = faces[placed.label].shape[0] / faces[placed.label].shape[1]
        wx, wy = where[placed.label]
        for sense in (1, -1):
            u, v = 0.5 + sense * wx, 0.5 + sense * wy / aspect
            spot = cv2.perspectiveTransform(np.array([[[u, v]]], np.float32), to_image)[0, 0]
            if _covered(spot, truth[z + 1:], 0.12 * w):
                continue
            one = _at(groups, spot, 0.04 * w)
            if one is None and placed.label in joined:
                one = _at(pieces, spot, 0.04 * w)
            parted = one is None
            for kind in split if parted else ():
                one = _at(kind, spot, 0.04 * w) if one is None else one
            if one is None or not _along(one, to_image):
                continue
            way = _way(one, sense, to_image)
            _add(out, placed.label, one, way, to_image, w, pyramid, parted)
            if placed.label[0] == "T":
                parts = _ten_parts(every, one, way)  # none, or both
                for name, part in zip((TEN_PART, TEN_ONE), parts, strict=False):
                    _add(out, name + placed.label[1], part, _way(part, sense, to_image),
                         to_image, w, pyramid, parted)


def _at(groups: Groups, spot: NDArray[np.float32], reach: float) -> Groups | None:
    """The group whose centroid lies nearest ``spot``, if within ``reach`` pixels."""
    if len(groups) == 0:
        return None
    d = np.hypot(groups.cx - spot[0], groups.cy - spot[1])
    g = int(np.argmin(d))
    return groups.take(np.array([g])) if d[g] <= reach else None


def _covered(point: NDArray[np.float32], above: list[Placement], margin: float) -> bool:
    p = (float(point[0]), float(point[1]))
    for other in above:
        quad = np.array(other.corners, np.float32).reshape(-1, 1, 2)
        if cv2.pointPolygonTest(quad, p, True) > -margin:
            return True
    return False


def _ten_parts(every: Groups, ten: Groups, way: int) -> tuple[Groups, ...]:
    """The parts of a ten's group (``ten``, read in sense ``way``) that hold its "0" and
    suit, and its "1" and suit, when the group has three marks: its two-mark parts ending at
    the ten's suit, the one with more ink first (the "0" outweighs the "1"); none else."""
    if ten.marks[0] != 3:
        return ()
    suit = ten.ends[0, way, 1]
    parts = np.flatnonzero((every.parent == ten.parent[0]) & every.variant & (every.marks == 2))
    ending = [int(k) for k in parts
              if np.abs(every.ends[k, :, 1] - suit).max(axis=1).min() < 1e-6]
    if len(ending) != 2:
        return ()
    ending.sort(key=lambda k: -float(every.pixels[k]))
    return every.take(np.array(ending[:1])), every.take(np.array(ending[1:]))


def _along(one: Groups, to_image: NDArray[np.float64]) -> bool:
    """Whether group ``one`` runs down its card (its axis within 45 degrees of the card's
    own down, ``ALONG``), as an index does. A group found at a card's index may lie across
    it: the "1" and "0" of a ten side by side, where the ten's suit joins a pip and so is
    not linked to them; learned as its card, such a group was read so, the "0" taken for
    the suit, where no card lies."""
    centre = cv2.perspectiveTransform(np.array([[[0.5, 0.5]]], np.float32), to_image)[0, 0]
    below = cv2.perspectiveTransform(np.array([[[0.5, 0.6]]], np.float32), to_image)[0, 0]
    card_down = (below - centre) / max(float(np.hypot(*(below - centre))), 1e-6)
    return abs(float(patch.geometry(one, 0)[2][0] @ card_down)) >= ALONG


def _way(one: Groups, sense: int, to_image: NDArray[np.float64]) -> int:
    """The sense of group ``one``'s axis that runs down its card (``sense`` -1: the card's
    bottom index, upside down)."""
    centre = cv2.perspectiveTransform(np.array([[[0.5, 0.5]]], np.float32), to_image)[0, 0]
    below = cv2.perspectiveTransform(np.array([[[0.5, 0.6]]], np.float32), to_image)[0, 0]
    card_down = (below - centre) / max(float(np.hypot(*(below - centre))), 1e-6)
    return 0 if float(patch.geometry(one, 0)[2][0] @ card_down) * sense > 0 else 1


def _add(out: Samples, code: str, one: Groups, way: int,
         to_image: NDArray[np.float64], width: float, pyramid: Pyramid, split: bool) -> None:
    """Add the sample of group ``one``, read as ``code`` in sense ``way`` (``_way``);
    ``split``: a candidate holding a part of a split mark."""
    centre = cv2.perspectiveTransform(np.array([[[0.5, 0.5]]], np.float32), to_image)[0, 0]
    _, suit, axis, length = patch.geometry(one, way)
    rank_vec, suit_vec = patch.cut(pyramid, one, way)
    fine_rank, fine_suit = patch.cut(pyramid, one, way, patch.FINE)
    across = np.array([axis[0, 1], -axis[0, 0]])
    off = (centre - suit[0]) / width
    out.codes.append(code)
    out.ranks.append(rank_vec[0])
    out.suits.append(suit_vec[0])
    out.fine_ranks.append(fine_rank[0])
    out.fine_suits.append(fine_suit[0])
    out.offsets.append((float(off @ across), float(off @ axis[0])))
    out.lengths.append(float(length[0]) / width)
    out.split.append(split)
