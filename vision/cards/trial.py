"""A deck's reading tried on tables of its own faces: whether parting glyphs from the large
pips they blur into (``ink.Limits.pips``) reads no fewer of its cards; whether holding
its ranks closer at the fine cut (``Deck.fine_rank_fit``) reads fewer wrongly; and whether
sharpening its ink more than the reader must (``Deck.read_sharpen``) reads more.

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
as "3" where its thin top stroke is lost. Most such wrong reads fit their rank loosely at
the fine cut, and a deck's right reads fit it more or less closely as its artwork goes: a
limit that withdraws one deck's wrong reads (``Deck.fine_rank_fit``) withdraws many of
another's right ones. Which weighs more is again the deck's artwork, shown by its tables in
the camera's light (``in_light``), each way of reading worth its right reads less
``WRONG_WORTH`` for each wrong one (``worth``); where a few tables show sharpening gaining
little, or reading more cards right and a few more wrongly, more tables weigh them.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
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
# The sharpening tried (``in_light``): twice ``reader.READ_SHARPEN``. Every deck read
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
# right, and is worth as much (``worth``).
SHARPEN_SEED = 100
SHARPEN_FRAMES = 16
SHARPEN_GAIN = 0.005
SHARPEN_CLEAR = 2 * SHARPEN_GAIN
# But sixteen tables do not settle a gain of a card in a hundred: a four-corner deck's
# misses come a hand at a time (``corners.CORNER``), so Bonded's gain from one set of
# sixteen to the next ran from none to 12 cards, Dondorf's from 1 to 23. And a thin deck's
# wrong reads are a card or two in 784, and come and go by as much. So the first set settles
# sharpening only where it gains SHARPEN_CLEAR of the cards, twice SHARPEN_GAIN, and is
# worth as much (``settles``); else SHARPEN_MORE_FRAMES tables more are read (seeds on from
# the first set's), and the deck is sharpened where over all of them it still gains
# SHARPEN_GAIN and is worth as much. A way of reading is worth its right reads less
# WRONG_WORTH for each wrong read: the targets weigh 0.5 % of cards unknown against
# one in 10,000 read wrongly, fifty to one. Thirty-two tables more keep a calibration near a
# minute; 144 took Bellot's to 133 s. They cannot show every deck's choice: Bellot's first
# 48 tables, its ranks held to CLOSE_RANK_FIT, read 1,681 -> 1,745 right sharpened and 4 ->
# 6 wrong, so it was not sharpened, though 200 real frames read it so 3 % more right and with
# fewer wrong reads (``docs/benchmarks.md``, stops 52 and 53). Since its close calls are
# held to that limit too (``naming.held_close``), its tables choose sharpening (stop 58).
SHARPEN_MORE_FRAMES = 32
WRONG_WORTH = 50
# The closer limit tried on the fine cut's rank fit (``Deck.fine_rank_fit``), in place of
# ``naming.FINE_RANK_FIT``, on the same tables: taken where it is worth more. Bellot's
# right reads fit their ranks at 0.30 or closer (99.5 %), its 5s read as 3s at 0.23-0.45; on
# 80 such tables (stop 52's calibration of it) the limit named 3,066 -> 3,069 cards right
# sharpened and 15 -> 5 wrongly. Tigullio's right reads fit as closely, and its tables
# chose the limit too: over 200 real frames it cost 89 and 73 right reads for one and two
# wrong (two seeds). kde-standard's right reads fit up to 0.47: the limit would cost it 279
# for none, and its tables do not choose it (``docs/benchmarks.md``, stops 52 and 53).
CLOSE_RANK_FIT = 0.3


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
    read = _tables([deck, tried], faces, TRIAL_SEED, TRIAL_FRAMES, {})
    if read is None:
        return deck
    before, after = read
    return tried if after.right >= before.right and after.wrong <= before.wrong else deck


def in_light(deck: Deck, faces: Mapping[str, Image]) -> Deck:
    """``deck``, read as its ``faces`` dealt on tables in the table camera's light read best:
    its ranks held to ``CLOSE_RANK_FIT`` at the fine cut (``Deck.fine_rank_fit``) where that
    is worth more (``holds_closer``); and sharpened by ``MORE_SHARPEN``
    (``Deck.read_sharpen``) where that reads more cards right and is worth as much
    (``sharpens``), over ``SHARPEN_MORE_FRAMES`` tables more where the first do not settle
    it (``settles``). Sharpening is not tried where the reader sharpens the deck as much
    already."""
    sharpen = max(deck.sharpen, deck.read_sharpen) < MORE_SHARPEN
    ways = [deck, dataclasses.replace(deck, fine_rank_fit=CLOSE_RANK_FIT)]
    if sharpen:
        ways += [dataclasses.replace(way, read_sharpen=MORE_SHARPEN) for way in ways]
    read = _tables(ways, faces, SHARPEN_SEED, SHARPEN_FRAMES, REAL_SCENE)
    if read is None:
        return deck
    # Held closer where, read sharpened and not alike, that is worth more.
    held = int(holds_closer(read[0::2], read[1::2]))
    if not sharpen:
        return ways[held]
    (before, after), tried = read[held::2], ways[held + 2]
    if not settles(before, after):  # more tables weigh them
        _tables([ways[held], tried], faces, SHARPEN_SEED + SHARPEN_FRAMES,
                SHARPEN_MORE_FRAMES, REAL_SCENE, [before, after])
    return tried if sharpens(before, after) else ways[held]


def worth(tally: Tally) -> int:
    """What a way of reading tables is worth: its right reads less ``WRONG_WORTH`` for each
    wrong read."""
    return tally.right - WRONG_WORTH * tally.wrong


def holds_closer(loose: Sequence[Tally], close: Sequence[Tally]) -> bool:
    """Whether the tables read with the ranks held to ``CLOSE_RANK_FIT`` (``close``) are worth
    more than the same tables read held as any deck's (``loose``): only where they read fewer
    wrongly, and where the right reads lost are fewer than ``WRONG_WORTH`` for each."""
    return sum(map(worth, close)) > sum(map(worth, loose))


def gains(before: Tally, after: Tally, share: float = SHARPEN_GAIN) -> bool:
    """Whether tables read sharpened more (``after``) read ``share`` of their cards more
    right than read as any deck (``before``)."""
    return after.right - before.right >= share * before.cards


def settles(before: Tally, after: Tally) -> bool:
    """Whether the first tables settle sharpening (``in_light``): read sharpened more
    (``after``), they gain ``SHARPEN_CLEAR`` of their cards and are worth as much as read as
    any deck (``before``; ``worth``)."""
    return gains(before, after, SHARPEN_CLEAR) and worth(after) >= worth(before)


def sharpens(before: Tally, after: Tally) -> bool:
    """Whether tables read sharpened more (``after``) gain (``gains``) and are worth as much
    as read as any deck (``before``; ``worth``)."""
    return gains(before, after) and worth(after) >= worth(before)


def _tables(decks: Sequence[Deck], faces: Mapping[str, Image], seed: int, frames: int,
            render: Mapping[str, Any], tallies: Sequence[Tally] | None = None
            ) -> list[Tally] | None:
    """How each of ``decks`` reads ``frames`` tables of ``faces`` (from seeds ``seed`` on,
    drawn with ``render``'s scene arguments, each table drawn once), counted into
    ``tallies`` where given (the tables read before); None where the faces are too few for
    a hand."""
    hands = most_hands(faces)
    if hands == 0:
        return None
    counted = list(tallies) if tallies is not None else [Tally() for _ in decks]
    readers = [CardReader(deck) for deck in decks]
    for k in range(frames):
        frame, placed = table_scene(faces, np.random.default_rng(seed + k), hands=hands,
                                    **render)
        for tally, reader in zip(counted, readers, strict=True):
            tally.add(reader.read(frame), placed, k)
    return counted
