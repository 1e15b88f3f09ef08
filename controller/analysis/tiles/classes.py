"""Four-tile hands grouped by face multiset, with how many physical hands each class stands for.

The 32 physical tiles are 21 faces (11 civil twice, 10 military once), so the 35,960 four-tile
hands fall into 8,130 face-multiset classes (docs/sources.md: [T1]; recomputed by enumeration).
Every strategy sees faces only, so all hands of one class play alike, and the dealer hands left
by a player hand depend only on its class: the number of dealer hands of class ``d`` beside a
player hand of class ``c`` is the product over faces of C(copies - c_f, d_f).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from itertools import combinations_with_replacement
from math import comb, prod
from typing import Final

import numpy as np
import numpy.typing as npt

from controller.rules.tiles.dominoes import FACE_COUNT, FACES, Tile

from ..progress import Progress

HAND_SIZE: Final = 4
FACE_COPIES: Final = np.array([t.copies for t in FACES], dtype=np.int8)

IntArray = npt.NDArray[np.int64]


@dataclass(frozen=True, slots=True, eq=False)
class TileClasses:
    """Every face multiset of four tiles one set can give, in a fixed order."""

    hands: tuple[tuple[Tile, ...], ...]  # one representative hand per class, faces sorted
    counts: npt.NDArray[np.int8]  # (N, 21): how many tiles of each face
    multiplicity: IntArray  # (N,): physical four-tile hands in the class
    faces: npt.NDArray[np.intp]  # (N, 4): the class's distinct faces, padded with face 0
    face_counts: npt.NDArray[np.int8]  # (N, 4): how many of each (0 for padding)
    by_face: npt.NDArray[np.int8]  # (21, N): counts transposed, one row per face

    def __len__(self) -> int:
        return len(self.hands)

    def index(self, tiles: tuple[Tile, ...] | list[Tile]) -> int:
        """The class of four tiles (in any order)."""
        return _index_of(self)[tuple(sorted(tiles))]

    def dealer_weights(self, rows: npt.NDArray[np.intp] | slice) -> npt.NDArray[np.int64]:
        """(B, N): for each player class in ``rows``, how many dealer hands of every class the
        28 tiles left by one physical player hand of that class can make.

        A dealer class's own multiplicity counts its hands in a full set; each face the player
        holds changes that only where the dealer wants it too: none left, or more than are left,
        gives 0; one of a civil pair left, wanted once, halves it (C(1,1) / C(2,1))."""
        faces, held = self.faces[rows], self.face_counts[rows]
        possible = np.ones((faces.shape[0], len(self)), dtype=bool)
        halvings = np.zeros((faces.shape[0], len(self)), dtype=np.int8)
        for j in range(HAND_SIZE):  # padding (face 0, none held) changes nothing
            face = faces[:, j]
            left = (FACE_COPIES[face] - held[:, j])[:, None]
            wanted = self.by_face[face]  # (B, N) rows of the dealer classes' counts
            possible &= wanted <= left
            halvings += (wanted == 1) & (left == 1) & (FACE_COPIES[face] == 2)[:, None]
        return np.where(possible, self.multiplicity >> halvings, 0)


def weight_matrix(classes: TileClasses, progress: Progress | None = None
                  ) -> npt.NDArray[np.int8]:
    """(N, N) ``dealer_weights`` of every player class, built once per process (costly, and
    66 MB: each weight is at most 16, so one byte) and shared by every run; read-only."""
    matrix = _MATRICES.get(classes)
    if matrix is None:
        rows = np.arange(len(classes), dtype=np.intp)
        blocks = []
        for start in range(0, len(classes), 512):
            blocks.append(classes.dealer_weights(rows[start:start + 512]).astype(np.int8))
            if progress is not None:
                progress(min(start + 512, len(classes)), len(classes))
        matrix = np.concatenate(blocks)
        matrix.setflags(write=False)
        _MATRICES[classes] = matrix
    return matrix


_MATRICES: dict[TileClasses, npt.NDArray[np.int8]] = {}  # a cache: classes hash by identity


@cache
def _index_of(classes: TileClasses) -> dict[tuple[Tile, ...], int]:
    return {hand: i for i, hand in enumerate(classes.hands)}


@cache
def tile_classes() -> TileClasses:
    """The 8,130 face-multiset classes of four-tile hands (built once and cached)."""
    hands = []
    for faces in combinations_with_replacement(range(FACE_COUNT), HAND_SIZE):
        if all(faces.count(f) <= FACES[f].copies for f in set(faces)):
            hands.append(tuple(FACES[f] for f in faces))
    n = len(hands)
    counts = np.zeros((n, FACE_COUNT), dtype=np.int8)
    faces_arr = np.zeros((n, HAND_SIZE), dtype=np.intp)
    face_counts = np.zeros((n, HAND_SIZE), dtype=np.int8)
    multiplicity = np.zeros(n, dtype=np.int64)
    for i, hand in enumerate(hands):
        distinct = sorted(set(hand))
        for j, face in enumerate(distinct):
            k = hand.count(face)
            counts[i, face] = k
            faces_arr[i, j] = face
            face_counts[i, j] = k
        multiplicity[i] = prod(comb(face.copies, hand.count(face)) for face in distinct)
    return TileClasses(tuple(hands), counts, multiplicity, faces_arr, face_counts,
                       np.ascontiguousarray(counts.T))
