"""Cards on the scene: spread hands as a dealer lays them out, and whole seven-hand tables.

A spread is a row of cards, each next one on top and moved along the cards' own x axis, so
every covered card still shows the strip with its corner index.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from .augment import Camera
from .scene import Placement, Pose, Scene

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


def table_scene(
    faces: Mapping[str, Image],
    rng: np.random.Generator,
    *,
    size: tuple[int, int] = (1280, 720),
    hands: int = 7,
    spread: Spread | None = None,
    camera: Camera | None = None,
    cells: Sequence[int] | None = None,
) -> tuple[Image, list[Placement]]:
    """A frame of ``hands`` positions, each a spread high hand (5) then low hand (2), with
    truth (placements in that order, hand by hand).

    Cards are drawn without replacement from ``faces`` (code -> BGRA image), so a frame never
    shows a card twice. Spreads sit in a 4 x 4 grid of cells, row by row: two cells per
    position, chosen at random or given by ``cells`` (as ``config/layouts/sim-table.toml``
    names them: 0, 1 for seat 1's high and low hands ... 12, 13 for the dealer's).
    """
    spread = spread or Spread()
    codes = list(faces)
    need = hands * 7
    if need > len(codes):
        raise ValueError(f"{hands} hands need {need} cards, the deck has {len(codes)}")
    order = [codes[i] for i in rng.permutation(len(codes))[:need]]
    scene = Scene(size=size)
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
        place_spread(scene, [(c, faces[c]) for c in take], cx, cy, angle, width_px, spread, rng)
    return scene.render(rng, camera)


def place_spread(
    scene: Scene, cards: Sequence[tuple[str, Image]], x: float, y: float, angle: float,
    width_px: float, spread: Spread, rng: np.random.Generator,
) -> None:
    """Place ``cards`` (code, BGRA face) as one spread about (x, y)."""
    if not cards:
        return
    face_width = cards[0][1].shape[1]
    for (code, face), pose in zip(
        cards, spread_poses(len(cards), x, y, angle, width_px, face_width, spread, rng),
        strict=True,
    ):
        scene.place(face, pose, code, "card")


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
