"""A deck's reading tried both ways on tables of its own faces: whether parting glyphs from
the large pips they blur into (``ink.Limits.pips``) reads no fewer of its cards.

Parting offers more candidates: the glyphs parted from the pips, found where they were
lost, and the pieces of the pips themselves, which compete with the whole candidates for
the marks. Which weighs more is a matter of the deck's artwork (how close its index lies
to its pips, how its pips are shaped), and renders of single faces do not show the
competition: a whole table does (counted on single faces, parting was chosen for Dondorf's
deck, whose tables read worse parted).
So a calibrated deck that splits its marks, and does not part them already, is read on
``TRIAL_FRAMES`` tables of its own faces both ways, and parts them unless that reads fewer
cards right or more wrongly (``parts_more``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

import numpy as np
from numpy.typing import NDArray

from ..scene.hands import most_hands, table_scene
from .deck import Deck
from .evaluate import Tally
from .reader import CardReader

Image = NDArray[np.uint8]

# Tables of seven spread hands (49 cards; fewer where a deck has fewer faces, as
# ``CardReader.warm``) rendered as the plain scenes are, from seeds TRIAL_SEED on: a fixed
# seed, so a deck calibrates the same every time, and none the benchmarks read (2026 on).
TRIAL_SEED = 7
# Four tables show each face of a 53-card deck about four times; reading them both ways
# costs a few seconds, a small share of a calibration's.
TRIAL_FRAMES = 4


def parts_more(deck: Deck, faces: Mapping[str, Image]) -> Deck:
    """``deck``, parting glyphs from its pips (``Deck.pips``) unless that reads fewer of its
    ``faces`` dealt on tables right, or more wrongly; as it is where it parts them already,
    or does not split its marks (parting needs the deeper ink).

    Where parting changes nothing on the tables it is taken: the renders show a deck's
    faces as printed, and real print and light (ink spread, a softer lens) join more small
    glyphs to the pips beside them than they do. The photographed deck's covered 9c, its
    small club joined to the large one, is read only parted, and its tables read the same
    both ways (``docs/benchmarks.md``, stop 48). A deck whose tables read worse parted
    (Dondorf's) keeps its marks whole."""
    if deck.pips or not deck.split:
        return deck
    tried = dataclasses.replace(deck, pips=True)
    hands = most_hands(faces)
    if hands == 0:
        return deck
    tallies = (Tally(), Tally())
    readers = (CardReader(deck), CardReader(tried))
    for k in range(TRIAL_FRAMES):
        frame, placed = table_scene(faces, np.random.default_rng(TRIAL_SEED + k), hands=hands)
        for tally, reader in zip(tallies, readers, strict=True):
            tally.add(reader.read(frame), placed, k)
    before, after = tallies
    if after.right >= before.right and after.wrong <= before.wrong:
        return tried
    return deck
