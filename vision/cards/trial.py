"""A deck's reading tried both ways on tables of its own faces: whether parting glyphs from
the large pips they blur into (``ink.Limits.pips``) reads more of its cards.

Parting offers more candidates: the glyphs parted from the pips, found where they were
lost, and the pieces of the pips themselves, which compete with the whole candidates for
the marks. Which weighs more is a matter of the deck's artwork (how close its index lies
to its pips, how its pips are shaped), and the renders of single faces that calibration
learns from (``calibrate.choose_pips``) do not show the competition: a whole table does.
So a calibrated deck that splits its marks, and does not part them already, is read on
``TRIAL_FRAMES`` tables of its own faces both ways, and parts them where that reads
enough more cards right (``TRIAL_GAIN``) and none more wrongly.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

import numpy as np
from numpy.typing import NDArray

from ..scene.hands import CARDS_A_HAND, most_hands, table_scene
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
# Parting is chosen where it names at least TRIAL_GAIN of the tables' cards more rightly:
# a card or two of four tables come and go with any change that moves a candidate, and
# Bonded, whose small clubs blur into its large ones, gains about 3 % (plain scenes,
# ``docs/benchmarks.md``, stop 43).
TRIAL_GAIN = 0.01


def parts_more(deck: Deck, faces: Mapping[str, Image]) -> Deck:
    """``deck``, parting glyphs from its pips (``Deck.pips``) where that reads more of its
    ``faces`` dealt on tables (``TRIAL_GAIN``); as it is where it parts them already, or
    does not split its marks (parting needs the deeper ink)."""
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
    cards = TRIAL_FRAMES * hands * CARDS_A_HAND
    if after.right - before.right >= TRIAL_GAIN * cards and after.wrong <= before.wrong:
        return tried
    return deck
