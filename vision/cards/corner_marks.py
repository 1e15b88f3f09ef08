"""A joker's corner mark (a star, a circled star, the word JOKER), learned to name it by,
and cut and scored where a strip search finds a face.

Some jokers print a mark where the other faces print their index, so a blank corner
(``blank_corner.index_box``) cannot confirm them. Calibration learns that mark as colour
templates, upright and turned, cut where the others print their index (``mark_box``), and
the score above which ``strips.find`` names the joker by it: above every score the places a
strip search may probe away from it reach (``learn_marks``); and the lower scores of mark
and strip that name it together, which no such place reaches both of (``both``). A joker
whose own renders reach that score too seldom cannot be told from a card whose index went
unread: it is refused. Where a strip search finds the joker, that corner is cut in the
strip's card frame (``cut_mark``) and scored against its mark (``mark_score``). Such a mark
is not read as an index: a single round mark tells no turn (a star is alike at a fifth of a
turn), so its card could not be placed from it; the strip's neighbour gives the turn."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NamedTuple

import cv2
import numpy as np
from numpy.typing import NDArray

from .band import BLUR, LEVEL, SLOT, Box
from .blank_corner import PLACED

Image = NDArray[np.uint8]
F32 = NDArray[np.float32]
F64 = NDArray[np.float64]

# The mark is cut in the corner where the other faces print their index: from MARK_EDGE
# card widths in from the card's left and top edges (the felt or card beyond them differs
# from frame to frame; Bellot's and Bonded's printed outlines lie within 0.02) to ``SLOT``'s
# nearest step across (a covered card shows no more of itself), and down to MARK_BELOW below
# the index box's foot, the suit's centroid (the suit's lower half and the blur's rim): so
# it holds the joker's mark and the paper where an index prints its suit, where the joker
# prints none.
MARK_EDGE, MARK_BELOW = 0.03, 0.04


def mark_box(box: Box) -> Box:
    """The box a face's corner mark is cut in (``MARK_EDGE``, ``MARK_BELOW``), in card
    widths from the top-left corner, from the deck's index ``box`` (``index_box``)."""
    return (MARK_EDGE, SLOT[0], MARK_EDGE, box[3] + MARK_BELOW)


# A marked face's corner (``mark_score``) is cut at MARK_WIDTH pixels per card width: the
# table's cards are 86-165 pixels wide, so the cut neither blurs nor invents much detail.
MARK_WIDTH = 100


def cut_mark(frame: Image, corner: F64, right: F64, down: F64, width: float, box: Box,
             grow: float = 0.0) -> F32:
    """``frame`` (BGR) in ``box`` (card widths from a card's top-left ``corner``, ``right``
    and ``down`` unit vectors, ``width`` pixels) grown by ``grow`` each way, straightened
    at ``MARK_WIDTH`` pixels per card width and softened as ``band`` softens a band. In
    colour: a red mark is told from a black index by its colour as well as its shape."""
    x0, x1, y0, y1 = box
    scale = width / MARK_WIDTH
    origin = corner + width * ((x0 - grow) * right + (y0 - grow) * down)
    m = np.array([[right[0] * scale, down[0] * scale, origin[0]],
                  [right[1] * scale, down[1] * scale, origin[1]]])
    size = (round((x1 - x0 + 2 * grow) * MARK_WIDTH), round((y1 - y0 + 2 * grow) * MARK_WIDTH))
    cut = cv2.warpAffine(frame, m.astype(np.float32), size,
                         flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                         borderMode=cv2.BORDER_REPLICATE)
    out: F32 = np.asarray(cv2.GaussianBlur(np.asarray(cut, np.float32), (0, 0), BLUR),
                          np.float32)
    return out


def mark_score(frame: Image, corner: F64, right: F64, down: F64, width: float, box: Box,
               template: F32) -> float:
    """How well the corner of the card at ``corner`` shows the mark ``template`` (cut in
    ``box``): the best normalised correlation within ``PLACED`` of where the card is
    placed (a strip places it to about a band pixel)."""
    region = cut_mark(frame, corner, right, down, width, box, PLACED)
    th, tw = template.shape[:2]
    if region.shape[0] < th or region.shape[1] < tw or float(region.std()) < 1e-3:
        return -1.0
    return float(cv2.matchTemplate(region, template, cv2.TM_CCOEFF_NORMED).max())


def _views(face: Image, rng: np.random.Generator, camera: object, count: int, jitter: bool
           ) -> list[tuple[Image, F64, F64, F64, float]]:
    """``count`` renders of ``face`` alone, at any turn and a table's size (86-165 pixels
    wide), each with its card's top-left corner, right and down unit vectors and width
    (the truth, or with ``jitter`` as a neighbour's slightly wrong pose gives it)."""
    from ..scene import Camera, Pose, Scene

    assert isinstance(camera, Camera)
    out = []
    for _ in range(count):
        width = float(rng.uniform(86, 165))
        side = int(width * 2.2)
        scene = Scene(size=(side, side))
        scene.place(face, Pose(side / 2, side / 2, float(rng.uniform(0, 360)),
                               width / face.shape[1]), "card")
        image, truth = scene.render(rng, camera)
        quad = np.array(truth[0].corners, np.float64)
        if jitter:
            turn = np.radians(rng.normal(0, 0.5))
            c, s = np.cos(turn), np.sin(turn)
            centre = quad.mean(axis=0) + rng.normal(0, 0.005 * width, 2)
            quad = (quad - centre) @ np.array([[c, -s], [s, c]]).T * rng.normal(1, 0.008) + centre
        tl, tr, _, bl = quad
        w = float(np.hypot(*(tr - tl)))
        right = (tr - tl) / w
        down = (bl - tl) / max(float(np.hypot(*(bl - tl))), 1e-6)
        out.append((image, tl, right, down, w))
    return out


class Learned(NamedTuple):
    """What ``learn_marks`` learns of a deck's marked faces."""

    box: Box  # where the marks are cut (``mark_box``)
    templates: F32  # two per face, upright and turned
    accept: float  # the mark score that names a face alone
    both: tuple[float, float]  # the mark and strip scores that name it together
    unusable: list[str]  # faces whose renders reach ``accept`` too seldom


# ``learn_marks``: a mark is named where its score exceeds by MARK_MARGIN the highest score
# of the places a strip search may probe away from it: the corners of the other faces laid
# in spreads (MARK_SHEETS sheets of three, as calibration's samples lie), moved anywhere a
# step beside a card and a little up or down (``SLOT``, ``LEVEL``), upright and turned,
# MARK_PROBES times each; there a probe straddles a card's edge, the felt, a pip, a
# neighbour's index. Scoring the other faces' corners in place alone put that highest far
# too low: corners straddling the felt or a red pip scored 0.83 for Bellot's word JOKER, and
# four such corners were read as the joker in 40 frames. A face whose own renders reach it
# less often than MARK_FOUND cannot be learned by its mark reliably: it is refused.
MARK_MARGIN, MARK_SHEETS, MARK_PROBES, MARK_FOUND = 0.05, 60, 8, 0.5


def learn_marks(cards: Mapping[str, Image], marked: Sequence[str], box: Box,
                others: Sequence[str], rng: np.random.Generator, strips: F32,
                aspect: float, samples: int = 24) -> Learned:
    """The corner marks of the strip faces ``marked`` (ink in the narrowest index ``box``):
    their box (``mark_box``), templates (two per face: upright, turned) as the training
    camera shows them, the score that names one (``MARK_MARGIN``), the scores of mark and
    strip (``strips``: the faces' strip templates, two per face, of cards ``aspect`` high)
    that name one together (``BOTH``), and the faces whose own renders reach the first too
    seldom (``MARK_FOUND``): their mark cannot be told from the corners of ``others`` (the
    faces with an index) in a spread reliably."""
    from .samples import TRAINING_CAMERA  # the one camera of calibration
    from .strips import strip_score  # strips names faces by these marks

    where = mark_box(box)
    templates = []
    for code in marked:
        for turned in (False, True):
            face = cards[code][::-1, ::-1] if turned else cards[code]
            cuts = [cut_mark(*view, where) for view in
                    _views(face, rng, TRAINING_CAMERA, samples, jitter=False)]
            templates.append(np.mean(cuts, axis=0).astype(np.float32))
    stack = np.stack(templates)
    probes = _probes(cards, others, rng, TRAINING_CAMERA)
    scores = np.array([[max(mark_score(*probe, where, t) for t in stack),
                        strip_score(*probe, aspect, strips)] for probe in probes],
                      np.float64).reshape(-1, 2)
    accept = (float(scores[:, 0].max()) if len(scores) else -1.0) + MARK_MARGIN
    unusable = []
    for k, code in enumerate(marked):
        own = [mark_score(*view, where, stack[2 * k + t]) for t in (0, 1)
               for view in _views(cards[code][::-1, ::-1] if t else cards[code], rng,
                                  TRAINING_CAMERA, samples // 2, jitter=True)]
        if float(np.mean(np.array(own) >= accept)) < MARK_FOUND:
            unusable.append(code)
    return Learned(where, stack, float(accept), both(scores), unusable)


# ``both``: a face is named by its mark and its strip together where each scores at least
# what BOTH of the places a strip search may probe away from it reach (``_probes``: one in
# a thousand), and no probe reached both. The two measure the same corner differently (the
# mark its colours where the index lies, the strip the grey of the card's whole left edge):
# the probes that come nearest the mark (a red suit under a rank) match the strip poorly,
# and those that match the strip best (a card's own edge and border) show no mark. So a
# joker whose mark the camera blurs or tints below ``accept`` is still named where its
# strip shows it too.
BOTH = 0.999


def both(scores: F64) -> tuple[float, float]:
    """The mark and strip scores (``BOTH``) that name a marked face together, from the
    probes' ``scores`` (N x 2: mark, strip); none (1.0, 1.0) where a probe reaches both."""
    if len(scores) == 0:
        return (1.0, 1.0)
    bars = np.quantile(scores, BOTH, axis=0)
    if bool(((scores[:, 0] >= bars[0]) & (scores[:, 1] >= bars[1])).any()):
        return (1.0, 1.0)
    return (float(bars[0]), float(bars[1]))


def _probes(cards: Mapping[str, Image], others: Sequence[str], rng: np.random.Generator,
            camera: object) -> list[tuple[Image, F64, F64, F64, float]]:
    """Places a strip search may probe away from a marked face (``MARK_MARGIN``): each
    card of ``MARK_SHEETS`` spreads of three of ``others``, its corner moved up to a step
    beside it and a little up or down, upright and turned (``MARK_PROBES`` each)."""
    from ..scene import Camera, Scene
    from ..scene.hands import place_spread
    from .samples import SHEET, TRAINING_SPREAD

    assert isinstance(camera, Camera)
    out = []
    for _ in range(MARK_SHEETS if others else 0):
        scene = Scene(size=(SHEET, SHEET))
        codes = [others[int(k)] for k in rng.integers(0, len(others), 3)]
        place_spread(scene, [(c, cards[c]) for c in codes], SHEET / 2, SHEET / 2,
                     float(rng.uniform(0, 360)), float(rng.uniform(*TRAINING_SPREAD.width)),
                     TRAINING_SPREAD, rng)
        image, truth = scene.render(rng, camera)
        for placed in truth:
            tl, tr, br, bl = np.array(placed.corners, np.float64)
            w = float(np.hypot(*(tr - tl)))
            right = (tr - tl) / w
            down = (bl - tl) / max(float(np.hypot(*(bl - tl))), 1e-6)
            for corner, r, d in ((tl, right, down), (br, -right, -down)):
                for _ in range(MARK_PROBES):
                    du, dv = rng.uniform(-SLOT[1], SLOT[1]), rng.uniform(-LEVEL, LEVEL)
                    out.append((image, corner + w * (du * r + dv * d), r, d, w))
    return out
