"""A table state drawn on its layout's felt: cloth, printed lines and markers, then the items.

``felt_canvas`` draws the felt once per recording: a woven cloth of one colour, the layout's
region outlines printed in gold, its four ArUco markers on white paper (their cells from
``vision.layout_sheet.sheet_image``, so they are the very markers the sheet prints) and a
wooden rail round the semicircle. ``compose`` lays a ``TableState`` on a copy, through the
shared scene compositor (``vision.scene.Scene``: shadows, stacking): cards spread along their
box as a dealer turns a hand up, tiles side by side, packets and stacks face down, the dice
apart in the dice area, chips on the bet circles. Items have their true sizes in mm; where
each lies in its box (a few mm off centre, a few degrees off square, turned to face the
player or the dealer) is drawn from the ``rng`` handed in.
"""

from __future__ import annotations

import math
import zlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache

import cv2
import numpy as np
from numpy.typing import NDArray

from ..dice.render import DieLook, render_die
from ..layout import Layout
from ..layout_markers import Markers
from ..layout_sheet import marker_drawings, sheet_image
from ..scene.augment import Camera
from ..scene.felt import Felt
from ..scene.hands import Spread, place_spread
from ..scene.scene import Pose, Scene
from ..shapes import Box, Circle
from ..tiles.render import TileLook, render_tile
from .camera import MARGIN, RAIL_BGR, Mount
from .state import Chips, Dice, Hand, Packet, TableState

Image = NDArray[np.uint8]
F64 = NDArray[np.float64]
CARD_MM = (63.5, 88.9)  # a poker-size card
TILE_MM = 29.0  # a tile's width; its length is 2.6 times that
DIE_MM = 19.0  # a casino die
CHIP_MM = 39.0
LINE_BGR = (70, 175, 215)  # the gold the layout's lines are printed in
PAPER = 235  # the markers' paper: white, a little less than the lamps' full white
# Items are laid on the canvas itself: the compositor's own camera must change nothing.
FLAT = Camera(tilt=0.0, light=(1.0, 1.0), glare=(0, 0.0), blur=(0.0, 0.0), noise=(0.0, 0.0),
              tint=0.0)
# A hand is spread along its box a little tighter than hands.Spread's default, so five
# poker cards fit a 190 mm high box: 63.5 mm + 4 steps of at most 0.33 card widths.
SPREAD_STEP = (0.27, 0.33)
CARD_JITTER = (2.0, 0.8)  # each card's turn (degrees) and shift (mm) off its place in a spread


@dataclass(frozen=True)
class Looks:
    """How the items look: card faces (code to BGRA), the tiles' and dice's colours, the
    card back's colour and the chips' colours (BGR)."""

    faces: Mapping[str, Image] = field(default_factory=dict)
    tile: TileLook = field(default_factory=TileLook)
    die: DieLook = field(default_factory=DieLook)
    back: tuple[int, int, int] = (40, 40, 170)
    chips: tuple[tuple[int, int, int], ...] = ((40, 40, 190), (160, 90, 30), (30, 30, 30),
                                               (40, 140, 40))


@dataclass(frozen=True, eq=False)
class _Canvas(Felt):
    """The scene compositor's felt: the table's drawn canvas, whatever size is asked."""

    canvas: Image = field(default_factory=lambda: np.zeros((1, 1, 3), np.uint8))

    def render(self, size: tuple[int, int], rng: np.random.Generator) -> Image:
        """A copy of the canvas (it is drawn for the compositor's size)."""
        del size, rng
        return self.canvas.copy()


def felt_canvas(layout: Layout, mount: Mount, rng: np.random.Generator,
                colour: tuple[int, int, int] | None = None) -> Image:
    """The layout's felt with its lines, markers and rail, as ``mount``'s canvas (BGR)."""
    if layout.markers is None:
        raise ValueError(f"layout {layout.name!r} has no markers for the camera to find")
    size = mount.canvas_for(layout)
    ppm = mount.px_per_mm
    cloth_colour = colour or ((45, 110, 30), (40, 95, 20), (110, 70, 25))[int(rng.integers(3))]
    cloth = Felt(colours=(cloth_colour,), jitter=6.0, grain=4.0).render(size, rng)
    work = cloth.astype(np.float32)
    shift = 4

    def pix(points: F64) -> NDArray[np.int32]:
        return np.round(mount.to_canvas(points) * (1 << shift)).astype(np.int32)

    on_felt = np.zeros(size[::-1], np.uint8)
    cv2.fillPoly(on_felt, [pix(layout.surface.outline())], 255, cv2.LINE_AA, shift)
    rail = np.full_like(work, RAIL_BGR) * (0.9 + 0.2 * cloth.astype(np.float32) / 255)
    inside = (on_felt.astype(np.float32) / 255)[..., None]
    work = np.asarray(work * inside + rail * (1 - inside), np.float32)
    # The sheet's lines (black on white there) become the felt's gold print here.
    lines = np.zeros(size[::-1], np.uint8)
    thick = max(1, round(3.0 * ppm))
    cv2.polylines(lines, [pix(s.polygon()) for _, s in layout.regions], True, 255, thick,
                  cv2.LINE_AA, shift)
    ink = (lines.astype(np.float32) / 255 * 0.85)[..., None]
    work = np.asarray(work * (1 - ink) + np.array(LINE_BGR, np.float32) * ink, np.float32)
    _paste_markers(work, layout, layout.markers, mount)
    return np.clip(work, 0, 255).astype(np.uint8)


def _paste_markers(work: NDArray[np.float32], layout: Layout, markers: Markers,
                   mount: Mount) -> None:
    """The markers and their white quiet zones from the sheet, moved onto the canvas."""
    ppm = mount.px_per_mm
    sheet = sheet_image(layout, ppm).astype(np.float32) * (PAPER / 255)
    off = round(MARGIN * ppm)  # the sheet's pixels sit MARGIN mm (whole pixels) in on the canvas
    paper = np.zeros(work.shape[:2], np.uint8)
    for drawing in marker_drawings(markers):
        quiet = np.round(mount.to_canvas(drawing.quiet) * 16).astype(np.int32)
        cv2.fillPoly(paper, [quiet], 255, cv2.LINE_AA, 4)
    region = work[off:off + sheet.shape[0], off:off + sheet.shape[1]]
    mask = (paper[off:off + sheet.shape[0], off:off + sheet.shape[1]].astype(np.float32)
            / 255)[..., None]
    region[:] = region * (1 - mask) + sheet[:region.shape[0], :region.shape[1]] * mask


def compose(state: TableState, layout: Layout, mount: Mount, felt: Image, looks: Looks,
            seed: int) -> Image:
    """``felt`` (from ``felt_canvas``) with ``state``'s items laid on it. Where an item lies
    is drawn from ``seed``, its region's name and its content alone, so a hand left in its
    box lies still from one state to the next, whatever else changes."""
    state.check(layout)
    ppm = mount.px_per_mm
    scene = Scene(size=(felt.shape[1], felt.shape[0]), felt=_Canvas(canvas=felt))
    for name, content in state.regions:
        rng = np.random.default_rng([seed, zlib.crc32(f"{name} {content!r}".encode())])
        shape = layout.region(name)
        centre = mount.to_canvas(np.array([shape.center]))[0]
        if isinstance(content, Chips):
            _chips(scene, centre, content.count, ppm, looks, rng)
        elif isinstance(content, Dice):
            radius = shape.radius if isinstance(shape, Circle) else 80.0
            _dice(scene, centre, radius * ppm, content.values, ppm, looks, rng)
        elif isinstance(shape, Box):
            # Pose angles turn counter-clockwise on screen; a box's angle turns clockwise.
            angle = -shape.angle + float(rng.normal(0, 1.5))
            if rng.random() < 0.5:
                angle += 180.0  # turned to face the player, or the dealer
            x = centre[0] + float(rng.normal(0, 2.5)) * ppm
            y = centre[1] + float(rng.normal(0, 2.5)) * ppm
            if state.game == "poker":
                _cards(scene, content, x, y, angle, ppm, looks, rng)
            else:
                _tiles(scene, content, x, y, angle, ppm, looks, rng)
    image, _ = scene.render(np.random.default_rng(seed), FLAT)
    return image


def _cards(scene: Scene, content: Hand | Packet, x: float, y: float, angle: float,
           ppm: float, looks: Looks, rng: np.random.Generator) -> None:
    width = CARD_MM[0] * ppm
    if isinstance(content, Packet):
        back = card_back(looks.back)
        for i in range(2):  # the packet's edge shows under its top card
            offset = 0.6 * ppm * (1 - i)
            scene.place(back, Pose(x + offset, y + offset, angle, width / back.shape[1]),
                        "back")
        return
    cards = [(code, looks.faces[code]) for code in content.codes]
    spread = Spread(width=(width, width), step=SPREAD_STEP, angle=0.0,
                    card_jitter=(CARD_JITTER[0], CARD_JITTER[1] * ppm), flip=0.0)
    place_spread(scene, cards, x, y, angle, width, spread, rng)


def _tiles(scene: Scene, content: Hand | Packet, x: float, y: float, angle: float,
           ppm: float, looks: Looks, rng: np.random.Generator) -> None:
    width = max(4, round(TILE_MM * ppm))
    faces: list[tuple[int, int] | None]
    if isinstance(content, Packet):
        faces = [None, None]  # a stack of four seen from above: its top two, side by side
    else:
        faces = []
        for code in content.codes:
            top, bottom = (int(p) for p in code.split("-"))
            faces.append((top, bottom) if rng.random() < 0.5 else (bottom, top))
    gap = float(rng.uniform(0.0, 1.0)) * ppm
    a = math.radians(angle)
    ux, uy = math.cos(a), -math.sin(a)
    for i, ends in enumerate(faces):
        sprite, alpha = render_tile(ends, width, looks.tile)
        shift = (i - (len(faces) - 1) / 2) * (width + gap)
        pose = Pose(x + shift * ux, y + shift * uy, angle + float(rng.normal(0, 0.8)))
        label = "down" if ends is None else f"{min(ends)}-{max(ends)}"
        scene.place(np.dstack([sprite, alpha]), pose, label, "tile")


def _dice(scene: Scene, centre: F64, radius: float, values: tuple[int, ...], ppm: float,
          looks: Looks, rng: np.random.Generator) -> None:
    side = max(4, round(DIE_MM * ppm))
    spots: list[tuple[float, float]] = []
    for value in values:
        for _ in range(200):
            r = (radius - side) * math.sqrt(float(rng.random()))
            t = float(rng.uniform(0, 2 * math.pi))
            spot = (centre[0] + r * math.cos(t), centre[1] + r * math.sin(t))
            if all(math.dist(spot, s) > 1.6 * side for s in spots):
                break
        spots.append(spot)
        sprite = render_die(value, side, looks.die, int(rng.integers(4)))
        scene.place(sprite, Pose(spot[0], spot[1], float(rng.uniform(0, 90))), str(value), "die")


def _chips(scene: Scene, centre: F64, count: int, ppm: float, looks: Looks,
           rng: np.random.Generator) -> None:
    colour = looks.chips[int(rng.integers(len(looks.chips)))]
    chip = chip_image(colour, max(8, round(CHIP_MM * ppm)))
    x = centre[0] + float(rng.normal(0, 3)) * ppm
    y = centre[1] + float(rng.normal(0, 3)) * ppm
    for i in range(min(count, 3)):  # a stack from above: its lower chips peep out a little
        scene.place(chip, Pose(x + i * 0.8 * ppm, y + i * 0.8 * ppm,
                               float(rng.uniform(0, 360))), "chip")


@lru_cache(maxsize=8)
def card_back(colour: tuple[int, int, int]) -> Image:
    """A card back (BGRA, the faces' 250 x 350): a white border round a lattice in ``colour``."""
    w, h = 250, 350
    image = np.full((h, w, 3), 250, np.uint8)
    cv2.rectangle(image, (16, 16), (w - 17, h - 17), colour, -1)
    light = tuple(float(min(255, c + 70)) for c in colour)
    for k in range(-h, w + h, 22):
        cv2.line(image, (k, 16), (k + h, 16 + h), light, 3, cv2.LINE_AA)
        cv2.line(image, (k, 16), (k - h, 16 + h), light, 3, cv2.LINE_AA)
    image[:16], image[-16:], image[:, :16], image[:, -16:] = 250, 250, 250, 250
    alpha = np.zeros((h, w), np.uint8)
    r = 12  # the corners' radius
    cv2.rectangle(alpha, (r, 0), (w - 1 - r, h - 1), 255, -1)
    cv2.rectangle(alpha, (0, r), (w - 1, h - 1 - r), 255, -1)
    for cx, cy in ((r, r), (w - 1 - r, r), (r, h - 1 - r), (w - 1 - r, h - 1 - r)):
        cv2.circle(alpha, (cx, cy), r, 255, -1, cv2.LINE_AA)
    return np.asarray(np.dstack([image, alpha]), np.uint8)


@lru_cache(maxsize=16)
def chip_image(colour: tuple[int, int, int], size: int) -> Image:
    """A casino chip seen from above (BGRA, ``size`` across): ``colour`` with white edge
    spots and an inlay."""
    big = 8 * size
    c = big // 2
    image = np.zeros((big, big, 3), np.uint8)
    cv2.circle(image, (c, c), c - 1, colour, -1, cv2.LINE_AA)
    for k in range(6):
        a = k * math.pi / 3
        p = (round(c + 0.85 * c * math.cos(a)), round(c + 0.85 * c * math.sin(a)))
        cv2.circle(image, p, big // 14, (240, 240, 240), -1, cv2.LINE_AA)
    cv2.circle(image, (c, c), round(0.55 * c), (225, 225, 225), -1, cv2.LINE_AA)
    cv2.circle(image, (c, c), round(0.45 * c), colour, 2 * big // 80, cv2.LINE_AA)
    alpha = np.zeros((big, big), np.uint8)
    cv2.circle(alpha, (c, c), c - 1, 255, -1, cv2.LINE_AA)
    small = cv2.resize(np.dstack([image, alpha]), (size, size), interpolation=cv2.INTER_AREA)
    return np.asarray(small, np.uint8)
