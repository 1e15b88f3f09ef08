"""Cards on the scene: spread hands as a dealer lays them out, and whole seven-hand tables.

A spread is a row of cards, each next one on top and moved along the cards' own x axis, so
every covered card still shows the strip with its corner index.

A table is framed as a fixed layout camera frames the felt: every position lies in the
picture. ``table_scene`` lays each spread in its cell as before (same draws, same spread,
overlap, turn, tilt, blur, glare and noise), then moves the spread as a whole, the least it
takes, so that all its cards lie at least the camera's tilt (4 % of the frame, plus 2 px)
inside the frame's edges; before, spreads in the outer cells could run off the frame, and a
card cut by the frame's edge is not what a table camera sees (the bench's figures moved
with it: ``docs/benchmarks.md``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from .augment import REAL, Camera
from .paper import Paper
from .scene import Placement, Pose, Scene
from .surface import AnySurface, Surface

Image = NDArray[np.uint8]


@dataclass(frozen=True)
class Spread:
    """How hands are laid: card width in pixels, the step between cards as a fraction of the
    card width, each card's own angle and position jitter, and how often a hand lies upside
    down (turned 180 degrees, as seen from the far side of the table)."""

    width: tuple[float, float] = (92.0, 106.0)
    step: tuple[float, float] = (0.27, 0.36)
    angle: float = 8.0
    card_jitter: tuple[float, float] = (2.5, 1.5)
    flip: float = 0.5


def spread_poses(
    n: int, x: float, y: float, angle: float, width_px: float, face_width: int,
    spread: Spread, rng: np.random.Generator,
) -> list[Pose]:
    """Poses of ``n`` cards spread about (x, y) at ``angle`` degrees, each one on the last."""
    scale = width_px / face_width
    steps = rng.uniform(*spread.step, size=max(n - 1, 0)) * width_px
    offsets = np.concatenate([[0.0], np.cumsum(steps)])
    offsets -= offsets[-1] / 2
    a = math.radians(angle)
    ux, uy = math.cos(a), -math.sin(a)
    poses = []
    for off in offsets:
        ja = float(rng.normal(0, spread.card_jitter[0] / 2))
        jx, jy = rng.normal(0, spread.card_jitter[1], 2)
        poses.append(Pose(x + ux * off + jx, y + uy * off + jy, angle + ja, scale))
    return poses


# A table seats seven hands (six players and the dealer) of seven cards each.
SEATS = 7
CARDS_A_HAND = 7
# ``table_scene``'s arguments for a table as a real camera sees it: the camera's defocus,
# uneven light, glare, noise and compression (``augment.REAL``), on any felt or wooden table,
# cards on card stock. The benchmarks' real scenes and a deck's trial tables are drawn so.
REAL_SCENE: Mapping[str, Any] = {"camera": REAL, "surface": AnySurface(), "paper": Paper()}


def most_hands(faces: Mapping[str, Image]) -> int:
    """How many hands of a full table (``SEATS`` at most) ``faces`` deal without a card
    twice: a deck learned from fewer faces (a few faces refused) deals fewer."""
    return min(SEATS, len(faces) // CARDS_A_HAND)


def table_scene(
    faces: Mapping[str, Image],
    rng: np.random.Generator,
    *,
    size: tuple[int, int] = (1280, 720),
    hands: int = 7,
    spread: Spread | None = None,
    camera: Camera | None = None,
    cells: Sequence[int] | None = None,
    surface: Surface | None = None,
    paper: Paper | None = None,
) -> tuple[Image, list[Placement]]:
    """A frame of ``hands`` positions, each a spread high hand (5) then low hand (2), with
    truth (placements in that order, hand by hand); laid on ``surface`` (felt when none),
    each card's stock finished by ``paper`` where given.

    Cards are drawn without replacement from ``faces`` (code -> BGRA image), so a frame never
    shows a card twice. Spreads sit in a 4 x 4 grid of cells, row by row: two cells per
    position, chosen at random or given by ``cells`` (as ``config/layouts/sim-table.toml``
    names them: 0, 1 for seat 1's high and low hands ... 12, 13 for the dealer's).
    """
    spread = spread or Spread()
    # The camera's tilt moves a frame corner by up to this much: a spread kept this far from
    # the frame's edges stays whole in the picture.
    tilt = (camera or Camera()).tilt
    mx, my = tilt * size[0] + 2, tilt * size[1] + 2
    within = (mx, my, size[0] - mx, size[1] - my)
    codes = list(faces)
    need = hands * CARDS_A_HAND
    if need > len(codes):
        raise ValueError(f"{hands} hands need {need} cards, the deck has {len(codes)}")
    order = [codes[i] for i in rng.permutation(len(codes))[:need]]
    scene = Scene(size=size, paper=paper) if surface is None else Scene(
        size=size, felt=surface, paper=paper)
    cols, rows = 4, 4
    cw, ch = size[0] / cols, size[1] / rows
    chosen = list(cells) if cells is not None else rng.permutation(cols * rows)[: hands * 2]
    if len(chosen) < hands * 2 or not all(0 <= c < cols * rows for c in chosen):
        raise ValueError(f"cells {list(chosen)!r}: need {hands * 2} cells of 0..{cols * rows - 1}")
    for index, cell in enumerate(chosen[: hands * 2]):
        n = 5 if index % 2 == 0 else 2
        take, order = order[:n], order[n:]
        width_px = float(rng.uniform(*spread.width))
        angle = float(rng.uniform(-spread.angle, spread.angle))
        if rng.random() < spread.flip:
            angle += 180.0
        cx = (cell % cols + 0.5) * cw + rng.uniform(-0.04, 0.04) * cw
        cy = (cell // cols + 0.5) * ch + rng.uniform(-0.04, 0.04) * ch
        place_spread(scene, [(c, faces[c]) for c in take], cx, cy, angle, width_px, spread, rng,
                     within=within)
    return scene.render(rng, camera)


def place_spread(
    scene: Scene, cards: Sequence[tuple[str, Image]], x: float, y: float, angle: float,
    width_px: float, spread: Spread, rng: np.random.Generator,
    *, within: tuple[float, float, float, float] | None = None,
) -> None:
    """Place ``cards`` (code, BGRA face) as one spread about (x, y); with ``within`` (x0, y0,
    x1, y1) the whole spread is moved, the least it takes, to lie inside that box."""
    if not cards:
        return
    fh, fw = cards[0][1].shape[:2]
    poses = spread_poses(len(cards), x, y, angle, width_px, fw, spread, rng)
    if within is not None:
        dx, dy = _fit_shift(poses, fw, fh, within)
        poses = [Pose(p.x + dx, p.y + dy, p.angle, p.scale) for p in poses]
    for (code, face), pose in zip(cards, poses, strict=True):
        scene.place(face, pose, code, "card")


def _fit_shift(
    poses: Sequence[Pose], fw: int, fh: int, box: tuple[float, float, float, float]
) -> tuple[float, float]:
    """The least move putting every card of ``poses`` inside ``box`` (centred if too big)."""
    xs, ys = [], []
    for p in poses:
        a = math.radians(p.angle)
        hx, hy = p.scale * fw / 2, p.scale * fh / 2
        ex = abs(math.cos(a)) * hx + abs(math.sin(a)) * hy
        ey = abs(math.sin(a)) * hx + abs(math.cos(a)) * hy
        xs += [p.x - ex, p.x + ex]
        ys += [p.y - ey, p.y + ey]
    shift = []
    for lo, hi, b0, b1 in ((min(xs), max(xs), box[0], box[2]), (min(ys), max(ys), box[1], box[3])):
        if hi - lo > b1 - b0:
            shift.append((b0 + b1) / 2 - (lo + hi) / 2)
        else:
            shift.append(max(b0 - lo, 0.0) + min(b1 - hi, 0.0))
    return shift[0], shift[1]


def loose_scene(
    faces: Mapping[str, Image],
    rng: np.random.Generator,
    *,
    count: int = 6,
    size: tuple[int, int] = (1280, 720),
    width: tuple[float, float] = (100.0, 150.0),
    camera: Camera | None = None,
) -> tuple[Image, list[Placement]]:
    """A frame of ``count`` single cards at any rotation, apart from each other, with truth."""
    codes = list(faces)
    picks = [codes[i] for i in rng.permutation(len(codes))[:count]]
    scene = Scene(size=size)
    cols = max(1, math.ceil(math.sqrt(count * size[0] / size[1])))
    rows = math.ceil(count / cols)
    cw, ch = size[0] / cols, size[1] / rows
    for index, (code, cell) in enumerate(zip(picks, rng.permutation(cols * rows), strict=False)):
        del index
        face = faces[code]
        diag = math.hypot(*face.shape[:2])
        w = min(float(rng.uniform(*width)), 0.95 * min(cw, ch) * face.shape[1] / diag)
        x = (cell % cols + 0.5) * cw
        y = (cell // cols + 0.5) * ch
        scene.place(face, Pose(x, y, float(rng.uniform(0, 360)), w / face.shape[1]), code)
    return scene.render(rng, camera)
