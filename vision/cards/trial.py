"""A deck's reading tried two ways on tables of its own faces: whether parting glyphs from
the large pips they blur into (``ink.Limits.pips``) reads no fewer of its cards, and
whether sharpening its ink more than the reader must (``Deck.read_sharpen``) reads more.

Parting offers more candidates: the glyphs parted from the pips, found where they were
lost, and the pieces of the pips themselves, which compete with the whole candidates for
the marks. Which weighs more is a matter of the deck's artwork (how close its index lies
to its pips, how its pips are shaped), and renders of single faces do not show the
competition: a whole table does (counted on single faces, parting was chosen for Dondorf's
deck, whose tables read worse parted).
So a calibrated deck that splits its marks, and does not part them already, is read on
``TRIAL_FRAMES`` tables of its own faces both ways, and parts them unless that reads fewer
cards right or more wrongly (``parts_more``).

Sharpening restores the thin strokes the table camera's defocus and compression break
into pieces (a hairline rank in fragments joins no suit), and it also shows a thin
deck's faint strokes as pieces that make one glyph look like another: Bellot's "5" read
as "3" where its thin top stroke is lost. Which weighs more is again the deck's artwork,
shown by its tables in the camera's light (``sharpens_more``); where a few tables show it
reading more cards right and a few more wrongly, more tables weigh the one against the other
(``outweighs``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ..scene.hands import REAL_SCENE, most_hands, table_scene
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
# The sharpening tried (``sharpens_more``): twice ``reader.READ_SHARPEN``. Every deck read
# so sharpened in the real scenes, most hold-out decks read many more cards right (their
# sum 3,502 -> 3,635 of 3,920), the bold styles one or two fewer, and Bellot, Tigullio and
# the photographed single cards some more wrongly; 1.5 read fewer right and as wrongly, 3
# more wrongly yet (``docs/benchmarks.md``, stop 49).
MORE_SHARPEN = 2.0
# It is tried on SHARPEN_FRAMES tables in the table camera's light (``hands.REAL_SCENE``),
# from seeds SHARPEN_SEED on, none the benchmarks read:
# sixteen, four times as many as parting, because the wrong reads sharpening adds to a
# thin deck are a card in a few hundred, and the gains of a deck it does not help are a
# card or two either way (its tables read a few cards apart from its faces as given or as
# calibration cuts them). So it is taken where it reads SHARPEN_GAIN of the cards more
# right, and none more wrongly.
SHARPEN_SEED = 100
SHARPEN_FRAMES = 16
SHARPEN_GAIN = 0.005
# But a thin deck's wrong reads are a card or two in 784, and come and go by as much from one
# set of tables to the next: where sharpening gains SHARPEN_GAIN but reads more wrongly on
# those tables, SHARPEN_MORE_FRAMES tables more are read (seeds on from the first set's),
# and the deck is sharpened where over all of them the right reads gained are still
# SHARPEN_GAIN and at least WRONG_WORTH times the wrong reads added: the targets
# weigh 0.5 % of cards unknown against one in 10,000 read wrongly, fifty to one. Bellot's
# first tables read 571 -> 589 of 784 right sharpened, 3 -> 6 wrong; the 144 more 5,359 ->
# 5,594 of 7,061, 19 -> 17 wrong (``docs/benchmarks.md``, stop 52).
SHARPEN_MORE_FRAMES = 144
WRONG_WORTH = 50


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
    read = _tables(deck, tried, faces, TRIAL_SEED, TRIAL_FRAMES, {})
    if read is None:
        return deck
    before, after = read
    return tried if after.right >= before.right and after.wrong <= before.wrong else deck


def sharpens_more(deck: Deck, faces: Mapping[str, Image]) -> Deck:
    """``deck``, read sharpened by ``MORE_SHARPEN`` (``Deck.read_sharpen``) where its
    ``faces`` dealt on tables in the table camera's light read ``SHARPEN_GAIN`` of their
    cards more right so, and none more wrongly; or, where they read that many more right but
    more wrongly too, where ``SHARPEN_MORE_FRAMES`` tables more show the right reads gained
    outweighing the wrong ones (``WRONG_WORTH``). As it is where the reader sharpens it as
    much already."""
    if max(deck.sharpen, deck.read_sharpen) >= MORE_SHARPEN:
        return deck
    tried = dataclasses.replace(deck, read_sharpen=MORE_SHARPEN)
    read = _tables(deck, tried, faces, SHARPEN_SEED, SHARPEN_FRAMES, REAL_SCENE)
    if read is None:
        return deck
    before, after = read
    if not outweighs(after.right - before.right, 0, before.cards):
        return deck
    if after.wrong <= before.wrong:
        return tried
    _tables(deck, tried, faces, SHARPEN_SEED + SHARPEN_FRAMES, SHARPEN_MORE_FRAMES,
            REAL_SCENE, read)
    return tried if outweighs(after.right - before.right, after.wrong - before.wrong,
                              before.cards) else deck


def outweighs(gained: int, added: int, cards: int) -> bool:
    """Whether a way of reading that reads ``gained`` more of ``cards`` right and ``added``
    more wrongly is worth taking: ``SHARPEN_GAIN`` of the cards more right, and at least
    ``WRONG_WORTH`` right reads for each wrong read added."""
    return gained >= SHARPEN_GAIN * cards and gained >= WRONG_WORTH * added


def _tables(deck: Deck, tried: Deck, faces: Mapping[str, Image], seed: int, frames: int,
            render: Mapping[str, Any], tallies: tuple[Tally, Tally] | None = None
            ) -> tuple[Tally, Tally] | None:
    """How ``deck`` and ``tried`` read ``frames`` tables of ``faces`` (from seeds ``seed``
    on, drawn with ``render``'s scene arguments), counted into ``tallies`` where given (the
    tables read before); None where the faces are too few for a hand."""
    hands = most_hands(faces)
    if hands == 0:
        return None
    tallies = tallies or (Tally(), Tally())
    readers = (CardReader(deck), CardReader(tried))
    for k in range(frames):
        frame, placed = table_scene(faces, np.random.default_rng(seed + k), hands=hands,
                                    **render)
        for tally, reader in zip(tallies, readers, strict=True):
            tally.add(reader.read(frame), placed, k)
    return tallies
