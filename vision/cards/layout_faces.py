"""Cut a deck's faces out of frames of the deck laid face up on the felt, to learn it.

A casino learns its own deck at the table: the dealer lays the cards face up, apart, in rows
(the codes' order, or any order with the codes given), the camera takes one frame or a few,
and each card is cut out, straightened and named by its place in reading order.

``find_cards(frame)`` finds the cards of one frame and returns its places in reading order
(``Place``): a card cut to a face image, or a place where a card should be and none could be
cut (its outline not a card's quadrilateral, or a gap in a row). ``cut_deck(frames, codes)``
names each place by the codes, in reading order across the frames, and returns the faces;
any place it cannot use, or places and codes that do not pair up, are refused
(``CalibrationError``) naming the frame, row, place and the code it would have had.
``parse_codes`` reads the codes as given on a command line or in a file.

How a card is found: its paper is pale against the felt. The darkest channel of each pixel
(white paper is bright in all three, a felt of any colour dark in at least one) is compared
with its neighbourhood's mean (``cv2.adaptiveThreshold``), so uneven light and broad glare
raise both alike; each outer contour is approximated by a quadrilateral, whose sides are then
fitted to the contour (the corners of a card are rounded, so the polygon's corners are not
the card's), and kept when it has a card's aspect (63.5 x 88.9 mm, allowing for the
camera's perspective), a card's size for the frame, and fills its quadrilateral.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

import cv2
import numpy as np
from numpy.typing import NDArray

from ..errors import CalibrationError
from .codes import normalize

Image = NDArray[np.uint8]
F64 = NDArray[np.float64]

CARD_ASPECT = 88.9 / 63.5  # a poker card's height over its width (63.5 x 88.9 mm)
# The face images a deck is learned from are portrait, the index at the top left, this size
# (width, height), as the test deck's artwork is drawn (250 x 350: the card's aspect); a cut
# from a camera frame is enlarged to it, never much reduced.
FACE_SIZE = (250, 350)
# The corners of a cut are made transparent on a circle of this radius (a poker card's
# corners are rounded about 3.2 mm on 63.5 mm), as the artwork's own images are, so the
# calibration's renders lay no felt-coloured corner on the felt.
CORNER = 3.2 / 63.5
# A card seen with fewer than MIN_WIDTH pixels across gives a face too coarse to learn its
# index from (the calibration renders faces 150 px wide; an index is then under 15 px
# tall); one wider than MAX_WIDTH of the frame's shorter side is not a card laid among
# others on the felt (the neighbourhood the paper is compared with is smaller than it).
MIN_WIDTH = 60.0
MAX_WIDTH = 0.45
# The aspect of a card's outline (mean long side over mean short side) may differ from
# CARD_ASPECT by this factor either way: a camera's perspective over a laid-out deck (a few
# degrees off straight down) changes it by under 10 %; a chip, a marker or two cards side by
# side differ by far more.
ASPECT_SLACK = 1.2
# A card's outline fills at least FILL of its fitted quadrilateral (its rounded corners
# leave about 1 % out); a card with a bite out of it (covered, glare merged into its edge),
# or a bulge, does not.
FILL = 0.95
# Cards in one frame lie at one distance from the camera: each card's area lies within
# SIZE_SPREAD times the median card's either way (perspective alone changes it by a third at
# most). A pale blob that is card-sized by this rule but not a card's quadrilateral is a
# place where a card lies unusable (named); a blob more than SIZE_SPREAD times a card is
# cards touching or overlapping (named); smaller blobs (glare, chips, noise) are ignored.
SIZE_SPREAD = 1.7
# The paper is compared with the mean of a neighbourhood NEIGHBOURHOOD of the frame's
# shorter side wide (about a card's width in a frame of two or three rows), and must be
# brighter than it by CONTRAST of the frame's range of darkest channels (5th to 95th
# percentile): the felt's weave and sensor noise are far below it, paper against felt far
# above.
NEIGHBOURHOOD = 0.15
CONTRAST = 0.08
# A new row begins where the next card, in order of height, lies more than ROW_GAP of a
# card's height below the one before: cards of one row lie level (give or take the camera's
# turn of a few degrees), rows a whole card's height apart.
ROW_GAP = 0.5
# In a row, a step to the next card more than GAP_STEP times the median step of the frame
# leaves places for missing cards (the step over the median, rounded, less one).
GAP_STEP = 1.5


@dataclass(frozen=True)
class Place:
    """A place in one frame's reading order (``row``, ``place`` in the row, from 1).

    ``face``: the card cut to ``FACE_SIZE`` (BGRA), or None where no card could be cut, and
    then ``why`` says what was seen there; ``centre`` and ``corners`` (top-left, top-right,
    bottom-right, bottom-left of the card, frame pixels; None for a gap) say where."""

    row: int
    place: int
    centre: tuple[float, float]
    corners: F64 | None
    face: Image | None
    why: str = ""


@dataclass(frozen=True)
class _Blob:
    centre: tuple[float, float]
    area: float
    quad: F64 | None
    why: str


def parse_codes(text: str) -> list[str]:
    """Card codes in order from ``text``: separated by spaces, commas or lines, or run
    together (``As2c10hJk``); ValueError naming the first part that is no card code."""
    codes: list[str] = []
    token = re.compile(r"joker|jk|(?:10|[2-9tjqka])[cdhs]", re.IGNORECASE)
    for word in re.split(r"[\s,;]+", text.strip()):
        at = 0
        while at < len(word):
            found = token.match(word, at)
            if found is None:
                raise ValueError(
                    f"unknown card code {word[at:at + 3]!r} in {word!r}: expected rank and "
                    "suit like 'As' or 'Td' (or '10d'), or 'Jk'")
            codes.append(normalize(found.group(0)))
            at = found.end()
    return codes


def find_cards(frame: Image) -> list[Place]:
    """The places of one BGR frame of cards laid face up and apart, in reading order: rows
    top to bottom (``ROW_GAP``), left to right in a row, gaps in a row kept as places."""
    if frame.ndim != 3 or frame.shape[2] != 3:
        raise CalibrationError(f"expected a BGR frame, got an array of shape {frame.shape}")
    blobs = _blobs(frame)
    cards = [b for b in blobs if b.quad is not None]
    if not cards:
        return [Place(1, i + 1, b.centre, None, None, b.why) for i, b in enumerate(blobs)]
    sizes = np.array([b.area for b in cards])
    typical = float(np.median(sizes))
    height = float(np.sqrt(typical * CARD_ASPECT))
    kept: list[_Blob] = []
    for blob in blobs:
        if blob.area > SIZE_SPREAD * typical:
            kept.append(_Blob(blob.centre, blob.area, None, (
                f"a pale patch the size of {blob.area / typical:.1f} cards: cards touching "
                "or overlapping")))
        elif blob.area * SIZE_SPREAD >= typical:
            kept.append(blob)
    return _in_order(frame, kept, height)


def cut_deck(frames: Sequence[tuple[str, Image]], codes: Sequence[str]) -> dict[str, Image]:
    """The faces (code -> BGRA, ``FACE_SIZE``) cut from ``frames`` (name, BGR image), named by
    ``codes`` in reading order across the frames (the first frame's places first).

    CalibrationError names a code given twice, and every place that cannot be used (no card
    there, no card's outline), with its frame, row, place and the code it would have had;
    or, where places and codes do not pair up, the counts and the places or codes left over.
    """
    seen: dict[str, int] = {}
    for i, code in enumerate(codes):
        if code in seen:
            raise CalibrationError(
                f"code {code!r} given twice (codes {seen[code] + 1} and {i + 1})")
        seen[code] = i
    found = [(name, find_cards(frame)) for name, frame in frames]
    places = [(name, place) for name, mine in found for place in mine]
    per_frame = ", ".join(f"{name}: {len(mine)}" for name, mine in found)
    unusable = [(name, p) for name, p in places if p.face is None]
    if len(places) != len(codes):
        extra = (f"; no code for {_where(*places[len(codes)])}" if len(places) > len(codes)
                 else f"; no card for {', '.join(codes[len(places):][:6])}"
                 f"{' ...' if len(codes) - len(places) > 6 else ''} (the last codes)")
        seen_there = "".join(f"; {_where(n, p)}: {p.why}" for n, p in unusable[:4])
        raise CalibrationError(
            f"{len(places)} card places in {len(frames)} frame(s) ({per_frame}) for "
            f"{len(codes)} codes{extra}{seen_there}")
    if unusable:
        shown = [f"{codes[i]} at {_where(n, p)}: {p.why}"
                 for i, (n, p) in enumerate(places) if p.face is None][:6]
        more = f"; and {len(unusable) - 6} more" if len(unusable) > 6 else ""
        raise CalibrationError(
            f"{len(unusable)} card(s) not cut: {'; '.join(shown)}{more}")
    return {codes[i]: p.face for i, (_, p) in enumerate(places) if p.face is not None}


def _where(name: str, place: Place) -> str:
    return (f"{name} row {place.row} place {place.place} "
            f"(x {place.centre[0]:.0f}, y {place.centre[1]:.0f})")


def _blobs(frame: Image) -> list[_Blob]:
    """Every pale blob at least half the smallest card's area: its centre, area, and the
    card's quadrilateral where it is a card's, else why not."""
    h, w = frame.shape[:2]
    low = cv2.min(cv2.min(frame[:, :, 0], frame[:, :, 1]), frame[:, :, 2])
    low = cv2.GaussianBlur(low, (0, 0), 1.0)
    p5, p95 = np.percentile(low[::4, ::4], (5, 95))
    block = int(NEIGHBOURHOOD * min(h, w)) | 1
    pale = cv2.adaptiveThreshold(low, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY,
                                 max(block, 3), -max(CONTRAST * float(p95 - p5), 4.0))
    pale = cv2.morphologyEx(pale, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    contours = cv2.findContours(pale, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)[-2]
    least = 0.5 * MIN_WIDTH * MIN_WIDTH * CARD_ASPECT
    most_width = MAX_WIDTH * min(h, w)
    blobs = []
    for contour in contours:
        area = float(cv2.contourArea(contour))
        if area < least:
            continue
        m = cv2.moments(contour)
        centre = (m["m10"] / m["m00"], m["m01"] / m["m00"])
        quad, why = _quad(np.asarray(contour, np.int32), area)
        if quad is not None:
            short, _ = _sides(quad)
            if short < MIN_WIDTH:
                quad, why = None, f"a card {short:.0f} px wide, under {MIN_WIDTH:.0f}"
            elif short > most_width:
                quad, why = None, f"a card {short:.0f} px wide, over {most_width:.0f}"
        blobs.append(_Blob(centre, area, quad, why))
    return blobs


def _sides(quad: F64) -> tuple[float, float]:
    """The mean short and mean long side of a quadrilateral (corners in order)."""
    lengths = np.hypot(*(np.roll(quad, -1, axis=0) - quad).T)
    a, b = (lengths[0] + lengths[2]) / 2, (lengths[1] + lengths[3]) / 2
    return float(min(a, b)), float(max(a, b))


def _quad(contour: NDArray[np.int32], area: float) -> tuple[F64 | None, str]:
    """A card's corners (top-left, top-right, bottom-right, bottom-left as the card lies
    upright, its short side on top) from its outline, or None and why not."""
    hull = cv2.convexHull(contour)
    perimeter = cv2.arcLength(hull, True)
    approx = None
    for eps in (0.01, 0.02, 0.03, 0.045):
        poly = cv2.approxPolyDP(hull, eps * perimeter, True)
        if len(poly) == 4:
            approx = poly.reshape(4, 2).astype(np.float64)
            break
    if approx is None:
        return None, "no card's outline (not four-sided)"
    quad = _fit_sides(contour.reshape(-1, 2).astype(np.float64), approx)
    short, long = _sides(quad)
    aspect = long / max(short, 1e-6)
    if not CARD_ASPECT / ASPECT_SLACK <= aspect <= CARD_ASPECT * ASPECT_SLACK:
        return None, f"no card's outline (sides {long / max(short, 1e-6):.2f} to 1, " \
                     f"a card's {CARD_ASPECT:.2f})"
    fill = area / max(float(cv2.contourArea(quad.astype(np.float32))), 1.0)
    if not FILL <= fill <= 1.0 / FILL:
        return None, f"no card's outline (fills {fill:.0%} of its four sides)"
    return _upright(quad), ""


def _fit_sides(points: F64, approx: F64) -> F64:
    """The corners where lines fitted to the outline's four sides meet; each line fitted to
    the outline points near a side of ``approx`` and away from its rounded ends."""
    lines = []
    for k in range(4):
        a, b = approx[k], approx[(k + 1) % 4]
        d = b - a
        length = float(np.hypot(*d))
        u = d / max(length, 1e-9)
        rel = points - a
        t = rel @ u / max(length, 1e-9)
        off = np.abs(rel[:, 0] * u[1] - rel[:, 1] * u[0])
        near = (t > 0.15) & (t < 0.85) & (off < max(0.04 * length, 2.0))
        if near.sum() < 5:
            lines.append((a, u))
            continue
        vx, vy, x0, y0 = cv2.fitLine(points[near].astype(np.float32), cv2.DIST_HUBER, 0, 0.01,
                                     0.01).ravel()
        lines.append((np.array([x0, y0], np.float64), np.array([vx, vy], np.float64)))
    corners = []
    for k in range(4):
        (p, u), (q, v) = lines[k - 1], lines[k]
        det = u[0] * (-v[1]) - u[1] * (-v[0])
        if abs(det) < 1e-9:
            return approx
        s = ((q - p)[0] * (-v[1]) - (q - p)[1] * (-v[0])) / det
        corners.append(p + s * u)
    return np.array(corners, np.float64)


def _upright(quad: F64) -> F64:
    """The corners turned clockwise (as seen, y down) from the top-left of the card lying
    upright: its first side one of the short sides, the higher one (for a card lying on its
    side, the left one)."""
    centre = quad.mean(axis=0)
    order = np.argsort(np.arctan2(quad[:, 1] - centre[1], quad[:, 0] - centre[0]))
    q = quad[order]  # clockwise on screen, y pointing down
    best: tuple[float, int] | None = None
    for k in range(4):
        r = np.roll(q, -k, axis=0)
        top, side = np.hypot(*(r[1] - r[0])), np.hypot(*(r[2] - r[1]))
        if top > side:
            continue
        mid = (r[0] + r[1]) / 2
        key = float(mid[1] - centre[1]) if abs(mid[1] - centre[1]) >= abs(
            mid[0] - centre[0]) else float(mid[0] - centre[0]) - 1e6
        if best is None or key < best[0]:
            best = (key, k)
    return np.roll(q, -(best[1] if best else 0), axis=0)


def _in_order(frame: Image, blobs: list[_Blob], height: float) -> list[Place]:
    """The blobs as places in reading order, gaps in rows kept as places."""
    if not blobs:
        return []
    by_y = sorted(blobs, key=lambda b: b.centre[1])
    rows: list[list[_Blob]] = [[by_y[0]]]
    for blob in by_y[1:]:
        if blob.centre[1] - rows[-1][-1].centre[1] > ROW_GAP * height:
            rows.append([])
        rows[-1].append(blob)
    rows = [sorted(row, key=lambda b: b.centre[0]) for row in rows]
    steps = [b.centre[0] - a.centre[0] for row in rows for a, b in pairwise(row)]
    pitch = float(np.median(steps)) if steps else 0.0
    left = min(row[0].centre[0] for row in rows)
    right = max(row[-1].centre[0] for row in rows)
    places: list[Place] = []
    for r, row in enumerate(rows, start=1):
        slots: list[_Blob | tuple[float, float]] = []
        if pitch > 0:
            lead = round((row[0].centre[0] - left) / pitch)
            slots += [(row[0].centre[0] - (lead - i) * pitch, row[0].centre[1])
                      for i in range(lead)]
        for k, blob in enumerate(row):
            slots.append(blob)
            if k + 1 < len(row) and pitch > 0:
                step = row[k + 1].centre[0] - blob.centre[0]
                if step > GAP_STEP * pitch:
                    missing = round(step / pitch) - 1
                    nxt = row[k + 1].centre
                    slots += [(blob.centre[0] + (nxt[0] - blob.centre[0]) * (i + 1)
                               / (missing + 1),
                               blob.centre[1] + (nxt[1] - blob.centre[1]) * (i + 1)
                               / (missing + 1)) for i in range(missing)]
        if pitch > 0 and r < len(rows):  # the last row may be short: no gaps after it
            trail = round((right - row[-1].centre[0]) / pitch)
            slots += [(row[-1].centre[0] + (i + 1) * pitch, row[-1].centre[1])
                      for i in range(trail)]
        for p, slot in enumerate(slots, start=1):
            if isinstance(slot, tuple):
                places.append(Place(r, p, slot, None, None, "no card there (a gap in the row)"))
            elif slot.quad is None:
                places.append(Place(r, p, slot.centre, None, None, slot.why))
            else:
                places.append(Place(r, p, slot.centre, slot.quad, _cut(frame, slot.quad)))
    return places


def _cut(frame: Image, quad: F64) -> Image:
    """The card inside ``quad`` warped upright to ``FACE_SIZE``, BGRA with rounded corners."""
    w, h = FACE_SIZE
    dst = np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], np.float32)
    m = cv2.getPerspectiveTransform(quad.astype(np.float32), dst)
    face = cv2.warpPerspective(frame, m, (w, h), flags=cv2.INTER_CUBIC,
                               borderMode=cv2.BORDER_REPLICATE)
    return np.concatenate([np.asarray(face, np.uint8), _corner_alpha()[:, :, None]], axis=2)


@functools.cache
def _corner_alpha() -> Image:
    """The opacity of a card ``FACE_SIZE`` with corners rounded by ``CORNER`` (edges
    anti-aliased over a pixel)."""
    w, h = FACE_SIZE
    r = CORNER * w
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float64) + 0.5
    cx = np.clip(xs, r, w - r)
    cy = np.clip(ys, r, h - r)
    outside = np.hypot(xs - cx, ys - cy) - r
    alpha = np.clip(0.5 - outside, 0.0, 1.0)
    out = np.asarray(np.round(alpha * 255), np.uint8)
    out.flags.writeable = False
    return out
