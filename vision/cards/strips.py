"""Faces without a corner index (this artwork's joker, or one printing a star or the word
JOKER where the others print their index): found by their edge strip.

In a spread each covered card shows only its left strip. A face without an index is sought
only where a spread leaves room for a card: one step (``SLOT``) left or right of a card
already read, level with it, where no card is read and paper, or anything but the felt,
shows beyond the read card's edge (``_room``). There the band is straightened in the read
card's frame (``band``: a spread keeps the turn and size of its cards) and searched for the
face's left strip, upright or turned, by normalised correlation. The strip alone is weak
evidence (thin line art, blurred), so the face is named only where it also has a left edge
(``_edge``), lies wholly in the frame and on paper (``_on_cards``), shows a blank index
corner (``blank_corner``: the deck's index box, where every other face prints ink, so a
card whose index went unread is not taken for it), lies away from every card already found,
and only once per frame. A joker that shows ink there itself (a star, a circled star, the
word JOKER) shows its own mark there instead: it is named only where that corner, cut in
the strip's card frame, matches its mark better than calibration found any place a strip
search may probe away from it to match (the other faces' corners in spreads, moved a step
aside: ``corner_marks``), or where mark and strip both match better than all but one in a
thousand of those places (``corner_marks.both``); a joker whose own renders seldom match
that well cannot be told from a card with its index unread, and calibration refuses it by
name. A joker lying on top of another card shows little strip contrast over that card's
paper, and its left edge may not show there at all; where its two solid eyes show
(``_eyes``), a weaker match (``LOOSE``) and no edge are enough, and where its mark has
shown, a plain match (``ACCEPT``) and no edge.

The thresholds are set where lowering them further starts naming a card whose index was
rubbed out as the joker (the guard test in ``tests/vision/test_cards_reader.py``); the
figures behind each choice are in ``docs/benchmarks.md``. A joker beneath a top card whose
strip matches weakly over the felt is still left unread rather than guessed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import cv2
import numpy as np
from numpy.typing import NDArray

from ..items import Item, Point
from .band import LEVEL, SLOT, WIDTH, Box, band
from .blank_corner import CORNER, blank
from .corner_marks import mark_score
from .felt import Felt
from .reads import ODD_SIZE

Image = NDArray[np.uint8]
F32 = NDArray[np.float32]
F64 = NDArray[np.float64]

STRIP = (0.06, 0.24)  # the strip compared, from the card's left edge, in card widths
ROWS = (0.1, 1.02)  # its rows in the band (the card spans 0.06 .. 1.06 band heights)
APART = 0.2  # the least distance between the centres of two cards of a spread, card widths
REACH = 3  # pixels around a point searched for paper (ink strokes are thinner)
FELT = 0.55  # a card's paper is brighter than this fraction of the brightest paper near it
# A face found by its strip lies on paper to its far edges: its rim is nearly as bright as
# the paper of the card beside it (RIM of it, the brightest within ``REACH`` pixels), since
# both lie in the same light. ``FELT`` alone let a pale wooden table pass for paper, and a
# joker was read there (``tests/vision/test_cards_reader.py``, real scenes, seed 78): that
# rim fails at 0.7. Jokers lying in a spread on the simulated table's felt, under its light
# fall-off and glare, pass at 0.7 and two of them fail at 0.8 (``paigow sim record --game
# poker --seed 11``, ``tests/simulation/test_recording.py``).
RIM = 0.7
EDGE = 0.99  # left of a card's edge is darker than this fraction of its paper
ACCEPT = 0.6  # the least strip correlation that names the face
# A fainter match (down to FAINT) names it where the card's left edge shows clearly: darker
# outside than CLEAR of the paper inside, over most of its height (``_edge``): a covered
# joker's strip matches faintly, and no place away from a joker came within reach of both
# (the nearest: a pip column of a card on top taken for an edge; ``docs/benchmarks.md``).
FAINT, CLEAR = 0.5, 0.5
# A match between the two (down to MIDDLING) names it where the edge shows fairly
# (MIDDLING_EDGE): of all the strip matches logged away from a joker, none reached both
# that the rules above did not already take, while it finds more covered jokers in every
# style (``docs/benchmarks.md``).
MIDDLING, MIDDLING_EDGE = 0.55, 0.9
LOOSE = 0.4  # the least where the face's eyes show too (``_eyes``: a joker lying on top)
EYES = ((0.375, 0.658), (0.621, 0.658))  # this artwork's joker's eyes, card widths from top-left
SHIFT = 0.1  # how far the eyes are sought from where the strip puts them, card widths
SHIFT_STEP = 0.015  # in steps of about this much (the eyes are 0.07 card widths across)
# The strip places a card's left edge to within a band pixel or so: the edge is sought that
# many columns either side (``_edge``). A covered joker's edge, a faint shadow on the card
# beneath, was often missed a column off.
EDGE_SLACK = 1


def learn(cards: Mapping[str, Image], strip_codes: Sequence[str], aspect: float,
          rng: np.random.Generator, samples: int = 24) -> tuple[F32, float]:
    """Strip templates of ``strip_codes`` (two per face: upright, turned), stacked as
    (2 * len, height, width), and the correlation that names a face (``ACCEPT``).

    Each template is the mean strip of the face rendered ``samples`` times by the training
    camera and straightened from a slightly wrong pose, as a neighbour's pose would give.
    The correlation alone does not tell the face from every other face's strip (thin line
    art, blurred); ``find`` adds what the spread and the paper show.
    """
    from .samples import TRAINING_CAMERA  # the one camera of calibration

    if not strip_codes:
        return np.zeros((0, 0, 0), np.float32), 1.0
    height = round(WIDTH * aspect)

    def mean_strips(codes: Sequence[str], count: int) -> F32:
        out = []
        for code in codes:
            for turned in (False, True):
                face = cards[code][::-1, ::-1] if turned else cards[code]
                cuts = [_sample_strip(face, height, rng, TRAINING_CAMERA) for _ in range(count)]
                out.append(np.mean(cuts, axis=0).astype(np.float32))
        return np.stack(out)

    return mean_strips(strip_codes, samples), ACCEPT


def strip_score(frame: Image, corner: F64, right: F64, down: F64, width: float,
                aspect: float, templates: F32) -> float:
    """How well the left strip of the card at ``corner`` (``right`` and ``down`` unit
    vectors, ``width`` pixels, ``aspect`` high) matches the best of ``templates`` (as
    ``learn`` makes them): the best correlation within a band pixel of where the card lies,
    as ``find`` places a face to about that."""
    height = round(WIDTH * aspect)
    quad = np.array([corner, corner + width * right,
                     corner + width * (right + aspect * down), corner + width * aspect * down])
    grey, _ = band(frame, quad, height, (-1 / WIDTH, STRIP[1] + 0.02 + 1 / WIDTH))
    x0, r0 = round(STRIP[0] * WIDTH), round(ROWS[0] * height)
    th, tw = templates.shape[1:]
    window = grey[r0 - 1:r0 + th + 1, x0:x0 + tw + 2]
    if window.shape[0] < th or window.shape[1] < tw:
        return -1.0
    return max(float(cv2.matchTemplate(window, t, cv2.TM_CCOEFF_NORMED).max())
               for t in templates)


def _sample_strip(face: Image, height: int, rng: np.random.Generator, camera: object) -> F32:
    """One strip of ``face`` as the reader would cut it, from a rendered, jittered view."""
    from ..scene import Camera, Pose, Scene

    assert isinstance(camera, Camera)
    width = float(rng.uniform(86, 165))
    side = int(width * 2.2)
    scene = Scene(size=(side, side))
    angle = float(rng.uniform(0, 360))
    scene.place(face, Pose(side / 2, side / 2, angle, width / face.shape[1]), "card")
    image, truth = scene.render(rng, camera)
    quad = np.array(truth[0].corners)
    jitter = np.radians(rng.normal(0, 0.5))
    c, s = np.cos(jitter), np.sin(jitter)
    centre = quad.mean(axis=0) + rng.normal(0, 0.005 * width, 2)
    quad = (quad - centre) @ np.array([[c, -s], [s, c]]).T * rng.normal(1, 0.008) + centre
    grey, _ = band(image, quad, height, (0.0, STRIP[1] + 0.02))
    x0, x1 = (round(f * WIDTH) for f in STRIP)
    r0, r1 = (round(f * height) for f in ROWS)
    return grey[r0:r1, x0:x1].copy()


def find(frame: Image, strip_codes: Sequence[str], templates: F32, accept: float,
         aspect: float, items: Sequence[Item], both: Sequence[bool] = (),
         box: Box = CORNER, marks: Mapping[str, F32] | None = None,
         mark_box: Box = CORNER, mark_accept: float = 1.0,
         mark_both: tuple[float, float] = (1.0, 1.0), felt: Felt | None = None
         ) -> list[Item]:
    """Cards of ``strip_codes`` beside the card ``items`` already found in ``frame``.

    A face is sought only where a spread leaves room for a card: its left edge one step
    (``SLOT`` card widths) left or right of a read card's (right only of a covered card),
    level with it, where no card is found. There its strip must match (``accept``) and its
    left edge show (``_edge``), or match less (``MIDDLING``) where its edge shows more
    (``MIDDLING_EDGE``), or faintly (``FAINT``) where its edge shows clearly (``CLEAR``); its
    paper must reach its far edges (``_on_cards``) and its index corner, ``box``, be blank
    (``blank_corner.blank``): a card whose index went unread has ink there; a face with a
    mark there (``marks``: its two templates, upright and turned, cut in ``mark_box``) must
    show that mark instead (``corner_marks.mark_score`` of ``mark_accept`` or more, or of
    ``mark_both[0]`` where its strip matches by ``mark_both[1]``: ``corner_marks.both``).
    ``felt``: where the frame's felt shows (``room``: what lies beside a card and is not
    felt is room for a card too).
    ``both`` (one flag per item): both indices of that card were read, so it lies on top and
    may be turned.
    """
    marks = marks or {}
    if not strip_codes or templates.size == 0 or not items:
        return []
    height = round(WIDTH * aspect)
    found: list[tuple[float, str, np.ndarray, np.ndarray, np.ndarray, float]] = []
    x0 = round(STRIP[0] * WIDTH)
    r0 = round(ROWS[0] * height)
    th, tw = templates.shape[1:]
    known = [i for i in items if i.code is not None]
    if not known:
        return []
    # A card on top (``both`` its indices read) may have been read by its far index, turned
    # against the spread: it is searched in both senses (a covered card shows one index only,
    # the one whose sense is the spread's).
    on_top = [k for k, i in enumerate(items) if i.code is not None
              and k < len(both) and both[k]]
    cards = known + [items[k] for k in on_top]
    quads = np.array([i.corners for i in cards], np.float64)  # (n, 4, 2)
    quads[len(known):] = quads[len(known):, [2, 3, 0, 1]]
    centres = np.array([i.center for i in cards], np.float64)
    tl, edge_r, edge_d = quads[:, 0], quads[:, 1] - quads[:, 0], quads[:, 3] - quads[:, 0]
    widths = np.hypot(edge_r[:, 0], edge_r[:, 1])
    right_axis = edge_r / np.maximum(widths, 1e-6)[:, None]
    down_axis = edge_d / np.maximum(np.hypot(edge_d[:, 0], edge_d[:, 1]), 1e-6)[:, None]
    # Every card found, read or not, fills its place: an index read as unknown is still there
    # (not a read withdrawn for the size of card it implies: that is seldom an index).
    others = np.array([i.center for i in items if i.note != ODD_SIZE], np.float64).reshape(-1, 2)
    rel = others[None, :, :] - centres[:, None, :]  # (card, item, xy)
    # Products summed as einsum sums them (x, then y), without einsum's set-up: the same
    # values, more cheaply.
    along = (rel[..., 0] * right_axis[:, None, 0] + rel[..., 1] * right_axis[:, None, 1]
             ) / widths[:, None]
    level = np.abs(rel[..., 0] * down_axis[:, None, 0] + rel[..., 1] * down_axis[:, None, 1]
                   ) / widths[:, None] < 0.3
    white = lows(frame, tl, edge_r, edge_d, *_MARGIN).max(axis=1)
    # A card in a slot shows paper just beyond the read card's edge on that side; a card
    # found in the slot leaves no room (one two steps away does: a spread's step is at least
    # a quarter of a card).
    room = []
    for side, u in ((-1, -0.08), (1, 1.08)):
        near = side * along
        taken = ((near > SLOT[0] - 0.05) & (near < SLOT[1]) & level).any(axis=1)
        room.append(_room(frame, tl, edge_r, edge_d, u, white, felt) & ~taken)
    # A face one step right of a card on top would lie on it and hide the index it shows
    # (its far one, or in the turned sense its near one): only a covered card has such a
    # slot (such slots are many and hold no joker: ``docs/benchmarks.md``).
    lies_on = np.array([k in on_top for k, i in enumerate(items) if i.code is not None]
                       + [True] * len(on_top), np.bool_)
    for n, which in zip(*np.nonzero(np.stack(room, axis=1)), strict=True):
        side = -1 if which == 0 else 1
        quad, width = quads[n], float(widths[n])
        if width < 20 or (side == 1 and lies_on[n]):
            continue
        lo, hi = (-SLOT[1], -SLOT[0]) if side < 0 else SLOT
        span = (lo - 0.02, hi + STRIP[1] + 0.02)
        grey, m = band(frame, quad, height, span)
        cols = np.arange(grey.shape[1] - tw + 1)
        xs = (cols - x0) / WIDTH + span[0]  # the strip's card edge from this card's
        rows = grey.shape[0] - th + 1
        lift = (np.arange(rows) - r0) / WIDTH  # its top from this card's, card widths
        bad = ((xs < lo) | (xs > hi))[None, :] | (np.abs(lift) > LEVEL)[:, None]
        for k, code in enumerate(strip_codes):
            for turn in (0, 1):
                res = cv2.matchTemplate(grey, templates[2 * k + turn], cv2.TM_CCOEFF_NORMED)
                res[bad] = -1.0
                y, x = np.unravel_index(int(np.argmax(res)), res.shape)
                score = float(res[y, x])
                # The card's left edge and top in band pixels: the template begins x0 columns
                # right of the edge and r0 rows below the band's top, where the card's top
                # lies 0.06 of a height lower (``band``).
                left, top = int(x) - x0, int(y) - r0 + round(0.06 * height)
                mark = marks.get(code)
                if score < LOOSE or (mark is None and not blank(grey, left, top, box)):
                    continue
                by = float(y) - r0 + 0.06 * height
                corner = m[:, :2] @ np.array([float(left), by]) + m[:, 2]
                right = m[:, 0] / np.hypot(*m[:, 0])
                down = m[:, 1] / np.hypot(*m[:, 1])
                if mark is not None:
                    shows = mark_score(frame, corner, right, down, width, mark_box, mark[turn])
                    if shows < mark_accept and not (shows >= mark_both[0]
                                                    and score >= mark_both[1]):
                        continue
                # A face its mark has confirmed may print a picture to its rim: there the
                # felt tells what is off the cards (``_on_cards``); a face with a blank
                # corner only is held to its paper reaching its rim.
                if not _on_cards(frame, corner, right * width, down * width * aspect,
                                 float(white[n]), felt if mark is not None else None):
                    continue
                # A joker on top of another card may show no edge over its paper: its eyes
                # must show then, as they must for a weak match; or its mark, which has
                # shown (above), where its strip matches at ``accept``.
                edge = _edge(grey, left, top, height)
                plain = ((score >= accept and edge <= EDGE)
                         or (score >= MIDDLING and edge <= MIDDLING_EDGE)
                         or (score >= FAINT and edge <= CLEAR)
                         or (mark is not None and score >= accept))
                if not plain and not _eyes(frame, corner, right * width, down * width,
                                           aspect, float(white[n])):
                    continue
                found.append((score, code, corner, right, down, width))
    return _decide(found, aspect, items)


def lows(frame: Image, corner: F64, right: F64, down: F64, u: F64, v: F64,
         reach: int = 0) -> F32:
    """The darkest channel of ``frame`` at points (u, v) of the cards at ``corner`` (N x 2,
    with their right and down edges as vectors): N x len(u) values (or len(u) for one).
    With ``reach``, the brightest within that many pixels of each point (paper beside a
    stroke of ink, not beside the felt). A point is the pixel nearest corner + u * right +
    v * down (rounded half to even), clipped into the frame."""
    pts = (corner[..., None, :] + u[:, None] * right[..., None, :]
           + v[:, None] * down[..., None, :])
    h, w = frame.shape[:2]
    x = np.round(pts[..., 0]).astype(np.int64)
    y = np.round(pts[..., 1]).astype(np.int64)
    if reach:
        step = np.arange(-reach, reach + 1)
        x = x[..., None, None] + step[None, :]
        y = y[..., None, None] + step[:, None]
    bgr = np.take(frame.reshape(-1, 3), np.clip(y, 0, h - 1) * w + np.clip(x, 0, w - 1), axis=0)
    low = np.minimum(np.minimum(bgr[..., 0], bgr[..., 1]), bgr[..., 2])
    out = low.reshape(*pts.shape[:-1], -1).max(axis=-1) if reach else low
    return np.asarray(out, np.float32)


# Points inside a card's rim: far enough in that a size read from a neighbour's index
# (within about 5 %) keeps them on the card.
_EDGE = np.linspace(0.15, 0.85, 8)
_RIM = (np.concatenate([np.full(8, 0.12), np.full(8, 0.88), _EDGE, _EDGE]),
        np.concatenate([_EDGE, _EDGE, np.full(8, 0.1), np.full(8, 0.9)]))
_MARGIN = (np.array([0.25, 0.5, 0.75, 0.25, 0.5, 0.75]), np.array([0.03] * 3 + [0.97] * 3))
_SIDE = np.linspace(0.3, 0.7, 5)
ROOM = 0.6  # the share of ``_SIDE``'s points beside a card that must show room for another
_ACROSS, _ALONG = np.array([[0.0], [1.0], [1.0], [0.0]]), np.array([[0.0], [0.0], [1.0], [1.0]])


def _room(frame: Image, corner: F64, right: F64, down: F64, u: float, white: F32,
          felt: Felt | None) -> NDArray[np.bool_]:
    """Whether each card at ``corner`` (N x 2, its right and down edges as vectors) has
    paper beside it at ``u`` card widths across (``_SIDE`` down it): at least ``ROOM`` of
    those points are as bright as paper (``FELT`` of the card's ``white``), or lie where
    ``felt`` does not show. A card beneath whose strip shows there may print a coloured
    picture to its edge (a yellow star, a court's robe), whose darkest channel is no paper's;
    it is still no felt."""
    v = _SIDE
    paper = lows(frame, corner, right, down, np.full(len(v), u), v) > FELT * white[:, None]
    if felt is not None:
        paper |= _off_felt(felt, corner, right, down, np.full(len(v), u), v)
    out: NDArray[np.bool_] = np.mean(paper, axis=1) >= ROOM
    return out


def _off_felt(felt: Felt, corner: F64, right: F64, down: F64, u: F64, v: F64
              ) -> NDArray[np.bool_]:
    """Whether ``felt`` does not show at points (u, v) of the cards at ``corner`` (as
    ``lows`` takes them: N x len(u) values, or len(u) for one card); out of the frame is
    felt."""
    pts = (corner[..., None, :] + u[:, None] * right[..., None, :]
           + v[:, None] * down[..., None, :])
    under = felt.under(pts[..., 0].ravel(), pts[..., 1].ravel(), True)
    out: NDArray[np.bool_] = ~under.reshape(pts.shape[:-1])
    return out


def _on_cards(frame: Image, corner: F64, right: F64, down: F64, white: float,
              felt: Felt | None = None) -> bool:
    """Whether the card at ``corner`` lies in the frame and on paper to its far edges (its
    own, or that of cards on top of it), not partly on the felt; ``white``: the paper's
    brightness. With the frame's ``felt``, a point of its rim where the felt does not show
    is on cards too: a picture printed to the card's rim (a yellow star) is no paper by its
    darkest channel."""
    h, w = frame.shape[:2]
    pts = corner + _ACROSS * right + _ALONG * down  # its four corners
    if not ((pts >= 1).all() and (pts[:, 0] < w - 1).all() and (pts[:, 1] < h - 1).all()):
        return False  # partly out of the frame: no telling its corner is blank
    on = lows(frame, corner, right, down, *_RIM, reach=REACH) > RIM * white
    if felt is not None:
        on |= _off_felt(felt, corner, right, down, *_RIM)
    return float(np.mean(on)) >= 0.9


def _eyes(frame: Image, corner: F64, right: F64, down: F64, aspect: float,
          white: float) -> bool:
    """Whether the joker's two solid eyes (``EYES``) show on the card at ``corner`` (``right``
    and ``down``: a card width along each edge), upright or turned, the pair moved together
    by up to ``SHIFT`` (the strip places a card that well): each a dark dot with paper around
    it. Only a joker lying on top shows them; they confirm a weak strip match. Each test is
    made only at the shifts that passed the one before (``lows`` of the points at once)."""
    limits = np.array([0.5 * white, 0.75 * white, 0.85 * white], np.float32)
    for eyes in (EYES, tuple((1 - a, aspect - b) for a, b in EYES)):
        u = np.array([e[0] for e in eyes])[None, :] + _SHIFTS[0][:, None]
        v = np.array([e[1] for e in eyes])[None, :] + _SHIFTS[1][:, None]
        dots = lows(frame, corner, right, down, u.ravel(), v.ravel()).reshape(u.shape)
        keep = dots.max(axis=1) < limits[0]  # both eyes dark
        u, v = u[keep], v[keep]
        ru = (u[:, :, None] + _RING[0]).ravel()
        rv = (v[:, :, None] + _RING[1]).ravel()
        around = lows(frame, corner, right, down, ru, rv).reshape(len(u), 2 * len(_RING[0]))
        keep = around.min(axis=1) > limits[1]  # paper about both
        u, v = u[keep], v[keep]
        bu = (u[:, :1] + _BETWEEN * (u[:, 1:] - u[:, :1])).ravel()
        bv = (v[:, :1] + _BETWEEN * (v[:, 1:] - v[:, :1])).ravel()
        between = lows(frame, corner, right, down, bu, bv).reshape(len(u), len(_BETWEEN))
        if (between.min(axis=1) > limits[2]).any():  # and between them
            return True
    return False


# ``_eyes``' points: the pair's shifts (each of ``SHIFT``'s steps across and down), a ring
# about each eye, and the points between them, in card widths.
_SHIFTS = tuple(a.ravel() for a in np.meshgrid(
    *[np.linspace(-SHIFT, SHIFT, 2 * round(SHIFT / SHIFT_STEP) + 1)] * 2))
_RING = (0.07 * np.cos(np.linspace(0, 2 * np.pi, 8, endpoint=False)),
         0.07 * np.sin(np.linspace(0, 2 * np.pi, 8, endpoint=False)))
_BETWEEN = np.linspace(0.25, 0.75, 11)


def _edge(grey: F32, left: int, top: int, height: int) -> float:
    """How bright the band is just left of column ``left`` against just right of it, over
    the card's height, at the darkest of the columns within ``EDGE_SLACK`` of it: a card's
    left edge shows as paper beside felt or a shadowed card."""
    rows = grey[max(top + height // 10, 0):max(top + height * 9 // 10, 1)]
    at = np.arange(max(left - EDGE_SLACK, 3), min(left + EDGE_SLACK, grey.shape[1] - 4) + 1)
    if len(rows) == 0 or len(at) == 0:
        return 1.0
    return min(1.0, float(_edge_ratio(rows, int(at[0]), int(at[-1]))))


def _edge_ratio(rows: F32, first: int, last: int) -> float:
    """The least over columns ``first`` to ``last`` of ``rows`` of the median over rows of
    the darkest of the three pixels left of the column over the mean of the three right of
    it (at least 1)."""
    outside = np.minimum(np.minimum(rows[:, first - 3:last - 2], rows[:, first - 2:last - 1]),
                         rows[:, first - 1:last])
    inside = (rows[:, first + 1:last + 2] + rows[:, first + 2:last + 3]
              + rows[:, first + 3:last + 4]) / np.float32(3.0)
    ratios = outside / np.maximum(inside, np.float32(1.0))
    return float(np.median(ratios, axis=0).min())


def _decide(found: list[tuple[float, str, np.ndarray, np.ndarray, np.ndarray, float]],
            aspect: float, items: Sequence[Item]) -> list[Item]:
    out: list[Item] = []
    # The distances to all the cards taken at once, not one by one.
    taken = np.array([i.center for i in items if i.note != ODD_SIZE], np.float64).reshape(-1, 2)
    for score, code, corner, right, down, width in sorted(found, key=lambda f: -f[0]):
        h = width * aspect
        centre = corner + right * width / 2 + down * h / 2
        apart = centre - taken
        if (np.hypot(apart[:, 0], apart[:, 1]) < APART * width).any():
            continue
        taken = np.vstack([taken, centre])
        pts = [corner, corner + right * width, corner + right * width + down * h,
               corner + down * h]
        corners: list[Point] = [(float(p[0]), float(p[1])) for p in pts]
        out.append(Item(kind="card", code=code, confidence=max(0.0, min(1.0, score)),
                        center=(float(centre[0]), float(centre[1])),
                        corners=(corners[0], corners[1], corners[2], corners[3])))
    codes = [i.code for i in out]
    return [i.unknown("duplicate") if codes.count(i.code) > 1 else i for i in out]
