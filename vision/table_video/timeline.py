"""The frames a fixed table camera takes over a timeline of table states, dealer's arm included.

A timeline is a list of ``Step(t, state)``: from time ``t`` (seconds) the felt is to hold
``state``. Between two steps the dealer's arm reaches in from the straight edge, visits each
region that changes (in order along the felt, left to right as the camera sees it), and each
region takes its new content when the hand gets there; then the arm withdraws. The arm needs
``Motion.arm_time(n)`` seconds for ``n`` changed regions, and the felt must then lie still for
``Motion.settle`` seconds before the next step (and before the end): a step that comes sooner
is a ``StateError`` naming it.

``timeline_frames`` yields ``TimelineFrame``s (JPEG bytes and what lay under them) at ``fps``,
Everything is drawn from one
seed: the camera's mounting and light, the felt, where each item lies (by region and content,
so an item left in place never moves), the arm's side and tone per step, each frame's noise.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from ..layout import Layout
from .arm import Arm, dealer_arm
from .camera import MARGIN, Mount, TableCamera
from .render import Looks, compose, felt_canvas
from .state import StateError, TableState

Image = NDArray[np.uint8]
CACHED = 4  # composed states kept: the one before an arm's reach, the partial ones, the one after


@dataclass(frozen=True)
class Step:
    """From ``t`` seconds on the felt is to hold ``state``."""

    t: float
    state: TableState


@dataclass(frozen=True)
class Motion:
    """The camera's frame rate and the arm's pace (seconds): reaching in to the first region,
    moving on to each next one, withdrawing; and the still time required before a next step."""

    fps: float = 15.0
    reach: float = 0.5
    per_region: float = 0.35
    back: float = 0.5
    settle: float = 1.0

    def arm_time(self, changed: int) -> float:
        """How long the arm is in view for ``changed`` regions (0 when none changes): in to
        the first, on to each next, back out."""
        return 0.0 if changed == 0 else self.reach + (changed - 1) * self.per_region + self.back


@dataclass(frozen=True)
class TimelineFrame:
    """One frame: its number, time (seconds), JPEG bytes, the step it belongs to (the last
    whose time has come), and whether the dealer's arm is in it."""

    index: int
    t: float
    jpeg: bytes
    step: int
    arm: bool


def check_steps(steps: Sequence[Step], layout: Layout, motion: Motion) -> None:
    """A ``StateError`` naming the first step that is malformed or comes too soon."""
    if not steps:
        raise StateError("a timeline needs at least one step")
    for i, step in enumerate(steps):
        step.state.check(layout)
        if step.state.game != steps[0].state.game:
            raise StateError(f"step {i}: game {step.state.game!r} in a "
                             f"{steps[0].state.game!r} timeline")
        if i == 0:
            continue
        before = steps[i - 1]
        need = arm_time(steps, i - 1, motion) + motion.settle
        if step.t - before.t < need - 1e-9:
            raise StateError(f"step {i} at t={step.t:g} s comes {step.t - before.t:g} s after "
                             f"step {i - 1}; its arm and the still felt after need {need:g} s")


def arm_time(steps: Sequence[Step], i: int, motion: Motion) -> float:
    """How long the arm that brings step ``i`` about is in view (none for the first)."""
    return 0.0 if i == 0 else motion.arm_time(len(steps[i - 1].state.changed(steps[i].state)))


def timeline_frames(steps: Sequence[Step], layout: Layout, looks: Looks, seed: int,
                    camera: TableCamera | None = None, motion: Motion | None = None,
                    tail: float | None = None) -> Iterator[TimelineFrame]:
    """The frames of ``steps`` on ``layout`` (module docstring), drawn from ``seed``."""
    motion = motion or Motion()
    check_steps(steps, layout, motion)
    shooter = Shooter(layout, looks, seed, camera, motion)
    if tail is None:
        tail = arm_time(steps, len(steps) - 1, motion) + motion.settle
    t0, end = steps[0].t, steps[-1].t + tail
    count = math.floor((end - t0) * motion.fps + 1e-9) + 1
    i = 0
    for index in range(count):
        t = t0 + index / motion.fps
        while i + 1 < len(steps) and steps[i + 1].t <= t + 1e-9:
            i += 1
        yield shooter.frame(steps, i, index, t)


class Shooter:
    """Takes one timeline's frames: the camera's mounting, the felt and the arms, all drawn
    from ``seed``, so that a frame depends only on the steps up to it and its number (a
    timeline known in advance and one growing as a round goes, ``world.FeltWorld``, give the
    same frames for the same steps)."""

    def __init__(self, layout: Layout, looks: Looks, seed: int,
                 camera: TableCamera | None = None, motion: Motion | None = None) -> None:
        self.layout, self.seed = layout, seed
        self.motion = motion or Motion()
        self.mount = camera_mount(layout, seed, camera)
        felt = felt_canvas(layout, self.mount, np.random.default_rng([seed, 3]))
        self.film = _Film(layout, self.mount, felt, looks, seed)
        self._arms: dict[int, Arm] = {}

    def arm(self, i: int) -> Arm:
        """The arm that brings step ``i`` about (its side and tone drawn per step)."""
        if i not in self._arms:
            self._arms[i] = dealer_arm(self.layout.felt[0],
                                       np.random.default_rng([self.seed, 1, i]))
        return self._arms[i]

    def frame(self, steps: Sequence[Step], i: int, index: int, t: float) -> TimelineFrame:
        """Frame ``index``, taken at ``t`` while step ``i`` is the last come."""
        noise = np.random.default_rng([self.seed, 2, index])
        pose = _arm_pose(steps, i, t, self.layout, self.motion, self.arm(i)) if i > 0 else None
        if pose is None:
            jpeg = self.mount.expose(self.film.lit(steps[i].state), noise)
        else:
            under, tip = pose
            canvas = self.arm(i).draw(self.film.canvas(under), self.mount, tip)
            jpeg = self.mount.expose(self.mount.view(canvas), noise)
        return TimelineFrame(index, round(t, 6), jpeg, i, pose is not None)


def camera_mount(layout: Layout, seed: int, camera: TableCamera | None = None) -> Mount:
    """The camera a timeline of ``seed`` is taken with (its pose and light)."""
    return (camera or TableCamera()).mount(layout, np.random.default_rng([seed, 0]))


def _arm_pose(steps: Sequence[Step], i: int, t: float, layout: Layout, motion: Motion,
              arm: Arm) -> tuple[TableState, tuple[float, float]] | None:
    """What lies under the arm and where its fingertips are at ``t``, or ``None`` once it
    has gone. The hand moves at an even pace along its path (from the felt's edge to each
    changed region and back), never resting: a hand at rest in view would pass for a still
    felt by its pixels, and a dealer's hand does not rest on the layout."""
    before, after = steps[i - 1].state, steps[i].state
    changed = order_along(before.changed(after), layout)
    u = t - steps[i].t
    if not changed or u >= motion.arm_time(len(changed)):
        return None
    edge = (arm.shoulder[0], -MARGIN + arm.hand[0] / 2)  # the hand just in at the canvas edge
    path = [edge] + [layout.region(name).center for name in changed] + [edge]
    legs = [motion.reach] + [motion.per_region] * (len(changed) - 1) + [motion.back]
    under = before
    for j, leg in enumerate(legs):
        if j > 0:
            under = under.put(changed[j - 1], after.at(changed[j - 1]))
        if u < leg or j == len(legs) - 1:
            k = min(u / leg, 1.0)
            a, b = path[j], path[j + 1]
            return under, (a[0] + k * (b[0] - a[0]), a[1] + k * (b[1] - a[1]))
        u -= leg
    raise AssertionError("unreachable: the last leg returns")  # pragma: no cover


def order_along(regions: Sequence[str], layout: Layout) -> list[str]:
    """``regions`` in order along the felt, from its left end to its right."""
    return sorted(regions, key=lambda n: (layout.region(n).center[0], n))


class _Film:
    """Composed canvases and lit views of the states met lately (a few, as a timeline meets
    each state over many frames in a row)."""

    def __init__(self, layout: Layout, mount: Mount, felt: Image, looks: Looks,
                 seed: int) -> None:
        self.layout, self.mount, self.felt, self.looks, self.seed = layout, mount, felt, looks, seed
        self._canvas: OrderedDict[TableState, Image] = OrderedDict()
        self._lit: OrderedDict[TableState, NDArray[np.float32]] = OrderedDict()

    def canvas(self, state: TableState) -> Image:
        if state not in self._canvas:
            self._canvas[state] = compose(state, self.layout, self.mount, self.felt,
                                          self.looks, self.seed)
            while len(self._canvas) > CACHED:
                self._canvas.popitem(last=False)
        self._canvas.move_to_end(state)
        return self._canvas[state]

    def lit(self, state: TableState) -> NDArray[np.float32]:
        if state not in self._lit:
            self._lit[state] = self.mount.view(self.canvas(state))
            while len(self._lit) > CACHED:
                self._lit.popitem(last=False)
        self._lit.move_to_end(state)
        return self._lit[state]


__all__ = ["Motion", "Shooter", "Step", "TimelineFrame", "arm_time", "camera_mount", "check_steps",
           "order_along", "timeline_frames"]
