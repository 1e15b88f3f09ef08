"""Learn a deck from one image per face (``As.png`` ... ``Jk.png``), as shufflers calibrate.

First the deck's own spacing of rank and suit is found (``choose_link``), whether its
strokes are thin enough to be sharpened before the ink threshold (``choose_sharpen``), and
where each index sits on its card (``index_position``). Then the faces are laid in small
spreads many times by the scene renderer (turned, scaled, blurred, noisy) and cut by the
very code that reads frames (``samples``), and discriminants for ranks and suits are
fitted to those cuts (``model.Lda``), so the deck learns what the reader will see. A face
whose top-left corner holds no index (this artwork's joker) is learned as an edge strip
(``strips``).
"""

from __future__ import annotations

from collections.abc import Mapping

import cv2
import numpy as np
from numpy.typing import NDArray

from ..errors import CalibrationError
from ..scene import Camera, Felt, Pose, Scene
from . import samples, strips
from .codes import CODES
from .deck import Deck
from .faces import card_face
from .ink import Groups, Limits, find_groups
from .model import Lda

Image = NDArray[np.uint8]
F32 = NDArray[np.float32]

QUIET = Camera(tilt=0.0, light=(1.0, 1.0), glare=(0, 0.0), blur=(0.0, 0.0), noise=(0.0, 0.0),
               tint=0.0)
REFERENCE_WIDTH = 150.0
LINKS = (0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6)
# A deck whose rank glyphs' strokes are narrower than THIN card widths (the median over its
# faces of twice a glyph's area over its outline's length) is sharpened by SHARPEN before
# the ink threshold (``ink.SHARPEN_SIGMA``). The test deck's plain styles draw ranks 0.014
# card widths wide (1.4 px on a card 100 px wide, which the camera's blur of up to a pixel
# leaves faint), its bold styles 0.026. Sharpening by SHARPEN reads the most thin-stroked
# cards right; a bold deck sharpened reads fewer right and mistakes a ten for a king, so it
# is not sharpened (figures in ``docs/benchmarks.md``).
THIN = 0.02
SHARPEN = 1.0


def calibrate(
    faces: Mapping[str, Image], name: str = "deck", rounds: int = 32, seed: int = 0
) -> Deck:
    """A deck calibration from face images (code -> BGR or BGRA), all 53 faces required.

    ``rounds`` passes over the deck make the training samples (about 1.3 per face each).
    """
    missing = [c for c in CODES if c not in faces]
    if missing:
        raise CalibrationError(f"deck {name!r}: no face for {', '.join(missing)}")
    rng = np.random.default_rng(seed)
    cards = {code: card_face(faces[code]) for code in CODES}
    aspect = float(np.median([f.shape[0] / f.shape[1] for f in cards.values()]))
    renders = _references(cards)
    link = choose_link(cards, renders)
    limits = Limits(link=link, sharpen=choose_sharpen(cards, link, renders))
    where: dict[str, tuple[float, float]] = {}
    strip_codes: list[str] = []
    for (code, face), render in zip(cards.items(), renders, strict=True):
        # where the index sits on the card, from the clean render's plain ink
        spot = index_position(face, Limits(link=link), render)
        if spot is None:
            strip_codes.append(code)
        else:
            where[code] = spot
    if not where:
        raise CalibrationError(f"deck {name!r}: no face shows a corner index")
    found = samples.collect(cards, where, limits, rng, rounds)
    codes = tuple(where)
    offsets, lengths = [], []
    for code in codes:
        mine = [i for i, c in enumerate(found.codes) if c == code]
        if not mine:  # ranks and suits are learned across faces; one sample places it
            raise CalibrationError(
                f"deck {name!r}: the corner index of {code!r} was never found "
                f"in {rounds} renders"
            )
        offsets.append(np.median([found.offsets[i] for i in mine], axis=0))
        lengths.append(float(np.median([found.lengths[i] for i in mine])))
    strip_templates, strip_accept = strips.learn(cards, strip_codes, aspect, rng)
    rank_of, suit_of = [c[0] for c in found.codes], [c[1] for c in found.codes]
    return Deck(
        name=name, aspect=aspect, link=link, sharpen=limits.sharpen, codes=codes,
        ranks=Lda.fit(np.stack(found.ranks), rank_of),
        suits=Lda.fit(np.stack(found.suits), suit_of),
        fine_ranks=Lda.fit(np.stack(found.fine_ranks), rank_of),
        fine_suits=Lda.fit(np.stack(found.fine_suits), suit_of),
        offsets=np.array(offsets, np.float32), lengths=np.array(lengths, np.float32),
        strip_codes=tuple(strip_codes), strips=strip_templates, strip_accept=strip_accept,
    )


def _render(face: Image, angle: float, width: float, camera: Camera, rng: np.random.Generator
            ) -> tuple[Image, Pose]:
    side = int(width * 2.0) + 8
    scene = Scene(size=(side, side), felt=Felt(), shadow=0.0)
    pose = Pose(side / 2 + rng.uniform(-2, 2), side / 2 + rng.uniform(-2, 2), angle,
                width / face.shape[1])
    scene.place(face, pose, "face")
    image, _ = scene.render(rng, camera)
    return image, pose


def _references(faces: Mapping[str, Image]) -> list[tuple[Image, Pose]]:
    """Each face upright, ``REFERENCE_WIDTH`` wide, as a quiet camera sees it."""
    return [_render(face, 0.0, REFERENCE_WIDTH, QUIET, np.random.default_rng(0))
            for face in faces.values()]


def choose_link(faces: Mapping[str, Image],
                renders: list[tuple[Image, Pose]] | None = None) -> float:
    """How close a deck's marks must lie to join one index (``ink.Limits.link``).

    The smallest of ``LINKS`` that joins rank and suit on every face with an index, raised
    by a quarter while that joins nothing more, so noise does not split an index and
    neighbouring pips do not join it. ``renders``: the faces' ``_references``.
    """
    renders = renders or _references(faces)
    counts = []
    for link in LINKS:
        limits = Limits(link=link)
        marks = []
        for (image, pose), face in zip(renders, faces.values(), strict=True):
            found = _top_left(find_groups(image, limits), pose, face)
            marks.append(0 if found is None else int(found.marks[0]))
        counts.append(marks)
    indexed = [i for i, m in enumerate(counts[-1]) if m > 0]
    for k, marks in enumerate(counts):
        if all(marks[i] >= 2 for i in indexed):
            best = LINKS[k]
            for j in range(k + 1, len(LINKS)):
                if LINKS[j] > LINKS[k] * 1.25 + 1e-9 or counts[j] != marks:
                    break
                best = LINKS[j]
            return best
    raise CalibrationError("no link distance joins rank and suit on every face")


def choose_sharpen(faces: Mapping[str, Image], link: float,
                   renders: list[tuple[Image, Pose]] | None = None) -> float:
    """How much a deck's ink is sharpened (``ink.Limits.sharpen``): ``SHARPEN`` where its
    rank glyphs' strokes (``stroke``, median over the faces with an index) are narrower than
    ``THIN`` card widths, none otherwise. ``renders``: the faces' ``_references``."""
    renders = renders or _references(faces)
    plain = Limits(link=link)
    widths = [w for (image, pose), face in zip(renders, faces.values(), strict=True)
              if (w := stroke(image, pose, face, plain)) is not None]
    if not widths:
        raise CalibrationError("no face shows a corner index")
    return SHARPEN if float(np.median(widths)) < THIN else 0.0


def stroke(image: Image, pose: Pose, face: Image, limits: Limits) -> float | None:
    """The width of the strokes of the rank glyph in the top-left index of a face rendered
    upright (``_render``), in card widths: twice its ink's area over its outline's length;
    None where the face shows no index."""
    found = _top_left(find_groups(image, limits), pose, face)
    if found is None or found.mark_map is None:
        return None
    shown = found.mark_map.lut[found.mark_map.labels]
    marks = [int(k) for k in found.members[0] if k >= 0]
    rows = [float(np.nonzero(shown == k)[0].mean()) for k in marks]
    rank = np.isin(shown, [k for k, row in zip(marks, rows, strict=True) if row < max(rows)])
    outline = cv2.findContours(rank.astype(np.uint8), cv2.RETR_LIST, cv2.CHAIN_APPROX_NONE)[-2]
    length = float(sum(cv2.arcLength(c, True) for c in outline))
    return 2.0 * float(rank.sum()) / max(length, 1.0) / float(pose.scale * face.shape[1])


def _top_left(groups: Groups, pose: Pose, face: Image) -> Groups | None:
    groups = groups.take(~groups.variant)
    w = pose.scale * face.shape[1]
    half_h = pose.scale * face.shape[0] / 2 / w
    gx = (groups.cx - pose.x) / w
    gy = (groups.cy - pose.y) / w
    upright = np.abs(np.cos(groups.theta)) < 0.5
    corner = (gx < -0.18) & (gy < -half_h + 0.45) & upright
    if not corner.any():
        return None
    dist = (gx + 0.5) ** 2 + (gy + half_h) ** 2
    return groups.take(np.array([int(np.argmin(np.where(corner, dist, np.inf)))]))


def index_position(face: Image, limits: Limits, render: tuple[Image, Pose] | None = None
                   ) -> tuple[float, float] | None:
    """The top-left index's ink centroid relative to the card centre, in card widths;
    ``render``: the face's ``_references`` render, made here when not given."""
    image, pose = render or _render(face, 0.0, REFERENCE_WIDTH, QUIET, np.random.default_rng(0))
    found = _top_left(find_groups(image, limits), pose, face)
    if found is None:
        return None
    w = pose.scale * face.shape[1]
    return float((found.cx[0] - pose.x) / w), float((found.cy[0] - pose.y) / w)
