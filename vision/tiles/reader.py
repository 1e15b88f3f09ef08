"""Find and read every Pai Gow tile in a frame: ``read_tiles(image) -> list[Item]``.

Each dark blob on the felt is one tile, or a row of tiles set side by side or end to end (a
hand): such a row is cut into equal tiles, and the cut is kept only when every tile in it reads
cleanly and no other cut does.  Anything else dark and large is an unknown tile.
"""

from __future__ import annotations

import cv2
import numpy as np

from ..items import Item, Point
from .faces import STANDARD_COLOURS, PipColours
from .find import Blob, Quad, check_image, find_blobs, order_quad, warp_quad
from .pips import LENGTH, WIDTH, TileRead, read_face
from .render import ASPECT, Image

MIN_WIDTH = 18.0  # narrower tiles (in pixels) are reported unknown: pips under ~3 px
MAX_BRIGHTNESS = 2.0  # a black tile is darker than the felt, unless glare lifts it (cards: 2.5+)
ASPECT_RANGE = (1.9, 3.5)
CUT_ASPECT = (2.0, 3.2)  # a row is cut only into pieces shaped like a tile
MAX_IN_ROW = 4


def is_tile(blob: Blob) -> bool:
    """Whether a blob is shaped and shaded like a single tile lying flat."""
    return (ASPECT_RANGE[0] <= blob.aspect <= ASPECT_RANGE[1]
            and blob.brightness < MAX_BRIGHTNESS
            and blob.area > 0.75 * blob.long_side * blob.short_side)


def may_hold_tiles(blob: Blob) -> bool:
    """A blob big enough to hold tiles, not shaped like one (tiles touching or covered)."""
    return blob.brightness < MAX_BRIGHTNESS and blob.area >= ASPECT * MIN_WIDTH**2 * 1.5


def looks_like_tiles(blob: Blob) -> bool:
    """Such a blob dark enough to be reported as tiles that could not be read."""
    return may_hold_tiles(blob) and blob.brightness < 1.0


def read_quad(image: Image, quad: Quad, colours: PipColours = STANDARD_COLOURS) -> TileRead:
    """Straighten one tile outline (first edge a short side) and read it."""
    width = float(min(np.linalg.norm(quad[1] - quad[0]), np.linalg.norm(quad[2] - quad[1])))
    if width < MIN_WIDTH:
        return TileRead(None, 0.0, (0, 0), (0, 0), "too small to read")
    return read_face(warp_quad(image, quad, (WIDTH, LENGTH)), colours)


def row_cuts(quad: Quad) -> list[list[Quad]]:
    """Ways to cut a rectangle into 2 to ``MAX_IN_ROW`` equal tile-shaped pieces."""
    cuts = []
    for start in (0, 1):  # cut along the first edge, or along the second
        q = np.roll(quad, -start, axis=0)
        along = float(np.linalg.norm(q[1] - q[0]) + np.linalg.norm(q[2] - q[3])) / 2
        across = float(np.linalg.norm(q[3] - q[0]) + np.linalg.norm(q[2] - q[1])) / 2
        for k in range(2, MAX_IN_ROW + 1):
            piece = along / k
            aspect = max(piece, across) / max(min(piece, across), 1e-6)
            if not CUT_ASPECT[0] <= aspect <= CUT_ASPECT[1]:
                continue
            tops = [q[0] + (q[1] - q[0]) * i / k for i in range(k + 1)]
            bottoms = [q[3] + (q[2] - q[3]) * i / k for i in range(k + 1)]
            cuts.append([order_quad(np.array([tops[i], tops[i + 1], bottoms[i + 1],
                                              bottoms[i]], np.float32)) for i in range(k)])
    return cuts


def read_row(image: Image, blob: Blob, colours: PipColours) -> list[tuple[Quad, TileRead]]:
    """The tiles of a row of touching tiles, or [] unless exactly one cut reads cleanly."""
    if blob.area < 0.85 * blob.long_side * blob.short_side:
        return []  # not a clean rectangle: tiles overlap, are staggered or covered
    good = []
    for cut in row_cuts(blob.quad):
        reads = []
        for quad in cut:
            read = read_quad(image, quad, colours)
            if read.code is None:
                break  # one piece unread fails the cut: its other pieces need not be read
            reads.append(read)
        else:
            good.append(list(zip(cut, reads, strict=True)))
    return good[0] if len(good) == 1 else []


def _item(quad: Quad, code: str | None, confidence: float, note: str | None) -> Item:
    q = [(float(x), float(y)) for x, y in quad]
    centre = quad.mean(axis=0)
    corners: tuple[Point, Point, Point, Point] = (q[0], q[1], q[2], q[3])
    return Item("tile", code, confidence, (float(centre[0]), float(centre[1])), corners,
                note=note)


def read_tiles(image: Image, colours: PipColours = STANDARD_COLOURS) -> list[Item]:
    """Every tile on the felt, code ``"a-b"`` (low end first) or None when unsure.

    Dark blobs that are not whole tiles (covered, staggered, cut by the frame) come back as
    unknown tiles, so the dealer is asked rather than a tile silently missed.
    """
    image = check_image(image)
    h, w = image.shape[:2]
    items = []
    for blob in find_blobs(image, darker_than=MAX_BRIGHTNESS):  # brighter: never a tile
        x, y, bw, bh = cv2.boundingRect(blob.contour)
        at_edge = x <= 1 or y <= 1 or x + bw >= w - 1 or y + bh >= h - 1
        if at_edge and (is_tile(blob) or looks_like_tiles(blob)):
            items.append(_item(blob.quad, None, 0.0, "cut by the edge of the frame"))
        elif is_tile(blob):
            read = read_quad(image, blob.quad, colours)
            items.append(_item(blob.quad, read.code, read.confidence, read.note))
        elif not at_edge and may_hold_tiles(blob):
            row = read_row(image, blob, colours)
            items += [_item(q, r.code, r.confidence, r.note) for q, r in row]
            if not row and looks_like_tiles(blob):
                items.append(_item(blob.quad, None, 0.0, "not one whole tile"))
    items.sort(key=lambda it: (it.center[1], it.center[0]))
    return items
