"""Score card reads against rendered ground truth: right, wrong, unknown (tests and bench).

A read belongs to the card whose true centre is nearest, if within ``NEAR`` card widths. A
card is right when the reads belonging to it name it and nothing else; wrong when any names
another card; unknown otherwise (not found, or found with ``code=None``). A named read that
belongs to no card is wrong too. Each unknown card is counted in ``losses`` by why: the note
of its reads ("unsure", "vetoed", "odd size", "conflict", "duplicate") or "not found", for
the joker apart from the rest and for covered cards apart from those on top.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

from ..items import Item
from ..scene import Camera, Placement
from ..scene.hands import table_scene
from ..scene.paper import Paper
from ..scene.surface import Surface
from .reader import CardReader

Image = NDArray[np.uint8]
NEAR = 0.25
ON_TOP = 0.95  # a card this much of which shows lies on top (its two indices show)


@dataclass
class Tally:
    """Counts over many frames, and the seconds each frame took to read: ``seconds`` by the
    wall clock, ``cpu`` by this thread's processor time (fair on a busy machine)."""

    right: int = 0
    wrong: int = 0
    unknown: int = 0
    frames: int = 0
    seconds: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)
    mistakes: list[str] = field(default_factory=list)
    losses: Counter[str] = field(default_factory=Counter)

    @property
    def cards(self) -> int:
        """Cards on the table plus stray named reads."""
        return self.right + self.wrong + self.unknown

    def rate(self, what: int) -> float:
        """``what`` as a fraction of ``cards``."""
        return what / self.cards if self.cards else 0.0

    def add(self, items: Sequence[Item], truth: Sequence[Placement], frame: int) -> None:
        """Score one frame's card reads against its truth."""
        cards = [t for t in truth if t.kind == "card"]
        centres = np.array([t.center for t in cards], np.float64).reshape(-1, 2)
        widths = np.array([np.hypot(*np.subtract(t.corners[1], t.corners[0])) for t in cards])
        mine: dict[int, list[Item]] = {i: [] for i in range(len(cards))}
        for item in (i for i in items if i.kind == "card"):
            d = np.hypot(*(centres - np.array(item.center)).T) / widths if len(cards) else []
            j = int(np.argmin(d)) if len(cards) else -1
            if j >= 0 and d[j] < NEAR:
                mine[j].append(item)
            elif item.code is not None:
                self.wrong += 1
                self.mistakes.append(f"frame {frame}: read {item.code} where no card lies")
        for j, card in enumerate(cards):
            named = {i.code for i in mine[j] if i.code is not None}
            if named == {card.label}:
                self.right += 1
            elif named:
                self.wrong += 1
                self.mistakes.append(f"frame {frame}: {card.label} read as {sorted(named)}")
            else:
                self.unknown += 1
                why = sorted({i.note or "unnamed" for i in mine[j]}) or ["not found"]
                face = "joker" if card.label == "Jk" else "card"
                lies = "top" if card.visible >= ON_TOP else "covered"
                self.losses[f"{face} {lies}: {'+'.join(why)}"] += 1
        self.frames += 1


def evaluate(reader: CardReader, faces: Mapping[str, Image], frames: int, seed: int,
             camera: Camera | None = None, hands: int = 7, surface: Surface | None = None,
             paper: Paper | None = None) -> Tally:
    """Read ``frames`` rendered seven-hand tables (``hands.table_scene``, on ``surface``,
    cards finished by ``paper``, seen by ``camera``) and score every card."""
    rng = np.random.default_rng(seed)
    tally = Tally()
    for frame in range(frames):
        image, truth = table_scene(faces, rng, hands=hands, camera=camera, surface=surface,
                                   paper=paper)
        start, start_cpu = time.perf_counter(), time.thread_time()
        items = reader.read(image)
        tally.cpu.append(time.thread_time() - start_cpu)
        tally.seconds.append(time.perf_counter() - start)
        tally.add(items, truth, frame)
    return tally
