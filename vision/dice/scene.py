"""Rendered dice scenes with ground truth: a still roll, a cocked die, and frame sequences."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..scene import Camera, Felt, Pose
from ..scene import Scene as Canvas
from ..tiles.scene import free_spot
from .faces import AROUND
from .render import DieLook, Image, render_cocked, render_die

Rect = tuple[tuple[float, float], tuple[float, float], float]


@dataclass(frozen=True, slots=True)
class DieTruth:
    """One die placed: its value (the top face), whether it is cocked, and where it lies."""

    value: int
    cocked: bool
    centre: tuple[float, float]
    corners: tuple[tuple[float, float], ...]


@dataclass(frozen=True, slots=True)
class DiceScene:
    """A rendered frame and the dice on it."""

    image: Image
    truths: tuple[DieTruth, ...]


@dataclass(frozen=True, slots=True)
class _Die:
    value: int
    front: int
    tilt: float  # 0 when flat
    side: int
    turns: int
    strip: float


def _random_die(rng: np.random.Generator, side: tuple[int, int], cocked: bool,
                tilt: tuple[float, float] = (15.0, 50.0)) -> _Die:
    value = int(rng.integers(1, 7))
    return _Die(value, int(rng.choice(AROUND[value])),
                float(rng.uniform(*tilt)) if cocked else 0.0,
                int(rng.integers(side[0], side[1] + 1)), int(rng.integers(4)),
                float(rng.uniform(0.0, 0.04)))


def _sprite(die: _Die, look: DieLook) -> Image:
    if die.tilt:
        return render_cocked(die.value, die.front, die.side, die.tilt, look, die.turns)
    return render_die(die.value, die.side, look, die.turns, die.strip)


def _look(rng: np.random.Generator) -> DieLook:
    w = int(rng.integers(215, 250))
    p = int(rng.integers(10, 50))
    return DieLook((w, w + int(rng.integers(-4, 5)), w), (p, p, p + 4))


def _compose(rng: np.random.Generator, dice: list[_Die], look: DieLook,
             size: tuple[int, int], seed: int, camera: Camera | None, felt: Felt | None = None,
             ) -> tuple[Image, tuple[DieTruth, ...]]:
    canvas = Canvas(size=size) if felt is None else Canvas(size=size, felt=felt)
    taken: list[Rect] = []
    placed = []
    for die in dice:
        sprite = _sprite(die, look)
        h, w = sprite.shape[:2]
        spot = free_spot(rng, taken, (w, h), 6.0, size, margin=30.0)
        if spot is None:
            continue
        canvas.place(sprite, Pose(spot[0], spot[1], spot[2]), str(die.value), "die")
        placed.append(die)
    # The felt and camera come from ``seed``: frames of one sequence share table and light.
    image, placements = canvas.render(np.random.default_rng(seed), camera)
    truths = tuple(DieTruth(d.value, d.tilt > 0, p.center, p.corners)
                   for d, p in zip(placed, placements, strict=True))
    return image, truths


def dice_scene(rng: np.random.Generator, count: int = 3, side: tuple[int, int] = (40, 72),
               cocked: int = 0, size: tuple[int, int] = (640, 480),
               camera: Camera | None = None, felt: Felt | None = None,
               tilt: tuple[float, float] = (15.0, 50.0)) -> DiceScene:
    """A frame of the dice area with ``count`` dice apart, the first ``cocked`` of them cocked
    (leaning ``tilt`` degrees)."""
    dice = [_random_die(rng, side, i < cocked, tilt) for i in range(count)]
    seed = int(rng.integers(2**31))
    image, truths = _compose(rng, dice, _look(rng), size, seed, camera, felt)
    return DiceScene(image, truths)


def roll_sequence(rng: np.random.Generator, moving: int = 3, still: int = 4,
                  count: int = 3, side: tuple[int, int] = (40, 72), cocked: int = 0,
                  size: tuple[int, int] = (640, 480), noise: float = 2.0,
                  ) -> tuple[list[Image], tuple[DieTruth, ...]]:
    """Frames of a roll: ``moving`` frames with the dice elsewhere each time, then ``still``
    frames of the final rest (the same picture, fresh sensor noise each), and its truth."""
    look = _look(rng)
    seed = int(rng.integers(2**31))
    frames = []
    for _ in range(moving):
        dice = [_random_die(rng, side, False) for _ in range(count)]
        frames.append(_compose(rng, dice, look, size, seed, None)[0])
    final = [_random_die(rng, side, i < cocked) for i in range(count)]
    rest, truths = _compose(rng, final, look, size, seed, None)
    for _ in range(still):
        grain = rng.normal(0.0, noise, rest.shape)
        frames.append(np.clip(rest + grain, 0, 255).astype(np.uint8))
    return frames, truths
