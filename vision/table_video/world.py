"""A felt that changes while it is filmed: a frame source whose timeline grows as a round goes.

``timeline_frames`` films a round known in advance. A table played live (by the simulation
that makes a synthetic recording) only knows what lies on the felt next once the round gets
there: ``FeltWorld.show(state)`` says the felt is to hold ``state`` from now on, and
``read()`` (the ``vision.sources.Source`` interface) hands out the next frame, at ``fps``, the
dealer's arm bringing each change about as in a timeline, then the felt lying still until
the next ``show``. Time is the film's own, as a recording's is: frame ``n`` is taken at
``n / fps`` seconds (``Frame.taken`` is None, as for recorded frames), so a reader that waits
for a still felt waits on frames, never on the clock.

A change starts with the next frame, or, while an arm is still in view, as soon as that arm
has gone: the felt never lies still between a ``show`` and its change, so a reader that waits
for a still felt after a ``show`` reads the new felt, as a camera does after the dealer's hand
has gone. Each change is its own step, so every felt in between is one a dealer could lay
(a felt is cleared before the next round's cards come). Frames are drawn only when taken:
``pass_time`` lets time go by with nobody looking (the players setting their hands), so a
reader is not made to watch every arm of a round it did not look at.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field

from ..errors import SourceError
from ..layout import Layout
from ..sources import Frame
from .camera import TableCamera, decode
from .render import Looks
from .state import TableState
from .timeline import Motion, Shooter, Step, TimelineFrame, arm_time

EXPECT_SECONDS = 60.0
"""The longest a read waits for a change ``expect`` announced (a script that never shows it
is broken: the read fails as a lost camera's would)."""


@dataclass(frozen=True)
class Shot:
    """A frame as the camera encoded it: the JPEG bytes, and the step it belongs to."""

    index: int
    t: float
    jpeg: bytes
    step: int
    arm: bool


@dataclass
class FeltWorld:
    """The felt of ``first``'s game on ``layout``, filmed by a camera drawn from ``seed``."""

    layout: Layout
    looks: Looks
    seed: int
    first: TableState
    camera: TableCamera | None = None
    motion: Motion = field(default_factory=Motion)
    name: str = "felt-world"
    history: list[tuple[int, str]] = field(default_factory=list)
    shots: list[Shot] = field(default_factory=list)
    """Every frame handed out, as encoded (a recording's truth keeps their steps)."""

    def __post_init__(self) -> None:
        self.first.check(self.layout)
        self.steps: list[Step] = [Step(0.0, self.first)]
        self._shooter = Shooter(self.layout, self.looks, self.seed, self.camera, self.motion)
        self._index = 0
        self._closed = False
        self._pending = False
        self._lock = threading.Condition()

    @property
    def state(self) -> TableState:
        """What the felt is to hold once the last change is done."""
        return self.steps[-1].state

    @property
    def now(self) -> float:
        """The time of the next frame (seconds from the first)."""
        return self._index / self.motion.fps

    def show(self, state: TableState) -> None:
        """From the next frame on, the dealer's arm brings ``state`` about (module docstring);
        a ``StateError`` if the layout cannot show it."""
        state.check(self.layout)
        with self._lock:
            self._pending = False
            self._lock.notify_all()
            last = self.steps[-1]
            if state == last.state:
                return
            gone = last.t + arm_time(self.steps, len(self.steps) - 1, self.motion)
            self.steps.append(Step(round(max(self.now, gone), 6), state))

    def expect(self) -> None:
        """The felt is about to change as the next ``show`` will say, and nothing can be
        filmed before (the dice are still in the shaker): until then ``read`` waits."""
        with self._lock:
            self._pending = True

    def pass_time(self, seconds: float | None = None) -> None:
        """Let ``seconds`` go by with no frame taken; by default until the last change is done
        and the felt has lain still ``Motion.settle`` seconds."""
        with self._lock:
            if seconds is None:
                last = self.steps[-1]
                seconds = last.t + arm_time(self.steps, len(self.steps) - 1, self.motion) \
                    + self.motion.settle - self.now
            self._index += max(0, math.ceil(seconds * self.motion.fps - 1e-9))

    def read(self) -> Frame | None:
        """The next frame, decoded as a reader of the camera's JPEG gets it."""
        with self._lock:
            if not self._lock.wait_for(lambda: not self._pending or self._closed,
                                       timeout=EXPECT_SECONDS):
                raise SourceError(f"{self.name}: the change expected was not shown within "
                                  f"{EXPECT_SECONDS:g} s")
            if self._closed:
                raise SourceError(f"{self.name}: closed")
            index, t = self._index, self.now
            step = max(i for i, s in enumerate(self.steps) if s.t <= t + 1e-9)
            taken = self._shooter.frame(self.steps, step, index, t)
            self._index += 1
        shot = Shot(index, taken.t, taken.jpeg, step, taken.arm)
        self.shots.append(shot)
        name = f"{self.name}#{index}"
        self.history.append((index, name))
        return Frame(decode(taken.jpeg), index, name)

    def film(self) -> Iterator[TimelineFrame]:
        """Every frame of the felt from the first to the end of the last change (its arm gone
        and the felt still ``Motion.settle``), seen or not: the video a camera filming all the
        while would have; a frame the camera took is the same frame here."""
        with self._lock:
            steps = list(self.steps)
        end = steps[-1].t + arm_time(steps, len(steps) - 1, self.motion) + self.motion.settle
        step = 0
        for index in range(math.floor(end * self.motion.fps + 1e-9) + 1):
            t = index / self.motion.fps
            while step + 1 < len(steps) and steps[step + 1].t <= t + 1e-9:
                step += 1
            yield self._shooter.frame(steps, step, index, t)

    def close(self) -> None:
        """No more frames (``read`` then raises ``SourceError``, as a lost camera does)."""
        with self._lock:
            self._closed = True
            self._lock.notify_all()


__all__ = ["FeltWorld", "Shot"]
