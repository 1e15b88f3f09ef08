"""Read every card in a frame by its corner index, against one calibrated deck.

A frame taken in tinted light is balanced first, its paper made white (``white``), and its
ink is sharpened against the camera's blur (``READ_SHARPEN``).
Each candidate index (``ink``) is cut upright in both senses (``patch``) and its rank and
suit are classified by the deck's discriminants (``model``), only those candidates that may
be of the table's card size (``_by_size``). The candidates compete for their marks, and the
winners are named surely, weakly or as guesses, or not at all (``naming``).
Where the deck prints its index at all four corners, each read is taken for the corner it
is, its card to the index's right or left (``corners``).
A read whose card would lie on the felt (``felt``) is withdrawn (``ground.on_cards``); one
that implies a card where no white paper lies (a wooden table, a card's back) is dropped
(``ground.on_paper``), and one whose index is not dark as ink is unknown, "faint"
(``ground.inked``). A read named but not surely and cleanly whose index lies among dozens of
marks like its suit, a card back's lattice, is withdrawn (``lattice``). A guess is named
where its index lies as a spread lays it beside a card named plainly (``reads.in_step``).
The reads become one per card (``reads.merge``).
The empty places of spreads are then read again with ink found another way (``slots``). An
unsure read that is surely one of two cards (``naming.PAIR_FIT``) is named the one not read
elsewhere (``reads.eliminate``). Faces without an index are sought by ``strips``: by
their edge strip beside a card read, and by a blank corner or, for a joker printing a mark
where the others print their index, by that mark.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
from numpy.typing import NDArray

from ..items import Item
from ..scene.hands import CARDS_A_HAND, most_hands, table_scene
from . import patch, slots, strips
from .calibrate import SHARPEN
from .corners import edge_sides, follow
from .corners import place as by_corner
from .deck import Deck
from .felt import Felt
from .ground import OFF_CARDS, card_frames, inked, on_cards, on_paper, strip_on_felt
from .ink import Groups, Limits, find_groups, masks
from .lattice import LATTICE, withdrawn
from .naming import Naming, holds_part
from .pyramid import Pyramid
from .reads import (
    CLEAN,
    ODD_SIZE,
    SIZE_ALIKE,
    SIZE_SPREAD,
    SURE,
    Read,
    but,
    eliminate,
    in_step,
    like_sizes,
    merge,
    moved,
    placed,
    stepped,
    table_width,
    tens,
)
from .verdict import Dist, Judged, Thresholds, judged
from .white import balanced

Image = NDArray[np.uint8]
F64 = NDArray[np.float64]
# Notes of reads withdrawn for the card they imply, not reported (``CardReader.read``): a
# card's back, a chip's rim, the grain of a table, read as an index of the wrong size or
# off the cards; nothing of a real card was ever read only so (figures in
# ``docs/benchmarks.md``).
OFF_CARDS_NOTE = "off cards"
WITHDRAWN = (ODD_SIZE, OFF_CARDS_NOTE, LATTICE)
# The seed of the frame ``CardReader.warm`` reads: any fixed one, so start-up does the same
# work every time.
WARM_SEED = 0
# An unknown item is a card the reader found but could not name, and it asks the dealer to
# name it; a read that names no card and fits looser than LOOSE_ITEM (in
# ``Thresholds.typical`` units) is not reported, whatever made it unknown (unsure, faint,
# vetoed, a duplicate). Such reads were where no card lies (card backs' lattices, a pale
# table, a parquet floor, pips and pictures' pieces): every phantom unknown item of the
# photographed table's photos fitted looser than 0.33, and 65 of 67 in the real scenes of
# seven decks, while half the unknown items on cards fitted tighter than 0.18
# (``docs/benchmarks.md``, stop 41); the parquet's grain read as a queen or a four and
# found faint fitted 0.47-0.94 (stop 42).
LOOSE_ITEM = 0.3
# A frame's ink is sharpened at least by READ_SHARPEN (``ink.SHARPEN_SIGMA``), as much as a
# thin-stroked deck learns (``calibrate.SHARPEN``), whatever its deck learned at: a deck is
# sharpened in calibration only where its strokes are thin on its clean renders, but the
# table camera's defocus and compression thin every deck's strokes. Over the tuning styles
# and eight public decks (10 frames each, seed 2026) the decks that learned no sharpening
# read many more cards right so in the real scenes (kde-standard 425 -> 454 of 490, dondorf
# 404 -> 438, bonded 378 -> 410) and the bold styles neither more nor fewer. More sharpening
# read more yet, and wrongly: at 2 tigullio named a Kh as Qh and a Jd where none lay, bellot
# a red queen's heart as a spade; at 3 four more (``docs/benchmarks.md``, "stop 40: ink
# sharpened to read"). A deck whose own tables in the camera's light read more sharpened
# further, and no more wrongly, is read so (``Deck.read_sharpen``, ``trial.in_light``).
READ_SHARPEN = SHARPEN


class CardReader:
    """Reads cards of one calibrated ``Deck`` from BGR frames; ``second_look=False`` skips
    the second look at the empty places of spreads (to measure what it costs and adds)."""

    def __init__(self, deck: Deck, thresholds: Thresholds | None = None,
                 second_look: bool = True) -> None:
        self.deck = deck
        self.thresholds = thresholds or Thresholds()
        self.second_look = second_look  # look again at the empty places of spreads
        self.limits = Limits(link=deck.link,
                             sharpen=max(deck.sharpen, READ_SHARPEN, deck.read_sharpen),
                             split=deck.split, bays=deck.bays, pips=deck.pips,
                             courts=deck.courts, waists=deck.split)
        self._naming = Naming(deck, self.thresholds)  # the candidates' reads (``naming``)
        # The strip faces that show a mark where the others print their index: their
        # templates, upright and turned (``corner_marks.learn_marks``).
        self._marks = {c: deck.marks[2 * k:2 * k + 2] for k, c in enumerate(deck.marked)}

    def warm(self, faces: Mapping[str, Image]) -> int:
        """Read once a frame of spread hands of the deck's own ``faces`` (rendered with a
        fixed seed: what it shows does not matter, only that every step of a read runs), so
        that the compiled steps are loaded, or compiled on a fresh install, before a table's
        first exposure waits on them; how many cards that frame named."""
        hands = most_hands(faces)
        if hands == 0:
            raise ValueError(f"{len(faces)} faces are too few to warm the reader: "
                             f"{CARDS_A_HAND} are needed")
        frame, _ = table_scene(faces, np.random.default_rng(WARM_SEED), hands=hands)
        return sum(1 for item in self.read(frame) if item.code is not None)

    def read(self, frame: Image) -> list[Item]:
        """Every card found in ``frame``, read or ``code=None``, top-left to bottom-right."""
        frame = balanced(frame)  # a frame in tinted light, its paper made white (``white``)
        ink, _, paper, deep = masks(frame, sharpen=self.limits.sharpen, deep=self.limits.split,
                                    bays=self.limits.bays)
        felt = Felt(paper, frame)
        groups = self._candidates(find_groups(frame, self.limits, ink, deep))
        reads = self._by_size(Pyramid(frame), groups)
        aspect = self.deck.aspect
        reads = by_corner(reads, self.deck.twin, lambda rs: on_cards(felt, rs, aspect),
                          lambda rs: edge_sides(frame, rs, self._edges(rs)))
        reads = off_cards(reads, on_cards(felt, reads, aspect).tolist())
        reads = [r for r, ok in zip(reads, on_paper(frame, reads, aspect).tolist(), strict=True)
                 if ok]
        reads = [r if ok else but(r, code=None, guess=None, pair=None, note="faint")
                 for r, ok in zip(reads, inked(frame, reads).tolist(), strict=True)]
        reads = withdrawn(ink, reads)  # a piece of a card back's lattice (``lattice``)
        reads = merge(like_sizes(tens(in_step(reads)), self.thresholds.widths))
        if self.second_look:
            reads = self._second_look(frame, reads, felt)
        # A split mark's part read surely, then withdrawn, was most often a pattern split
        # where no card lies (a wooden floor, a picture): no item.
        reads = [r for r in eliminate(reads) if r.code is not None or not r.split]
        return self._with_strips(frame, reads, felt)

    def _edges(self, reads: Sequence[Read]) -> F64:
        """Where each read's card's edge lies beside its index (``corners.edge_sides``), in
        card widths along its right from its suit's centroid: as the top-left corner's index,
        ``Deck.offsets`` short of half a card to its left; as the other top corner's, that
        far right of the card moved back by the twin's offset. The offset of the name read
        (or guessed), else the deck's median."""
        row = {code: k for k, code in enumerate(self.deck.codes)}
        middle = float(np.median(self.deck.offsets[:, 0]))
        ox = np.array([float(self.deck.offsets[row[c], 0]) if c in row else middle
                       for c in (r.code or r.guess for r in reads)], np.float64)
        out: F64 = np.stack([ox - 0.5, ox + 0.5 - self.deck.twin[0]], axis=1)
        return out

    def _with_strips(self, frame: Image, reads: list[Read], felt: Felt) -> list[Item]:
        """The items of the frame's final ``reads``, with the faces found by their edge
        strip beside them (``strips.find``), in reading order."""
        items = self._items(reads)
        found = strips.find(frame, self.deck.strip_codes, self.deck.strips,
                            self.deck.strip_accept, self.deck.aspect, items,
                            [r.both for r in reads], self.deck.blank, self._marks,
                            self.deck.mark_box, self.deck.mark_accept,
                            self.deck.mark_both, felt)
        # A read withdrawn for the card it implies (too big or small for this table's
        # cards, or lying on the felt) told the strips where something lies; it names no
        # card and is no card, so it is not reported (``WITHDRAWN``). Nor is a read that
        # names no card and is looser than LOOSE_ITEM: it fits no index.
        items = [i for i, r in zip(items, reads, strict=True) if r.code is not None or not (
            r.note in WITHDRAWN or r.fit > LOOSE_ITEM)]
        items += [i for i, on in zip(found, strip_on_felt(felt, found) <= OFF_CARDS,
                                     strict=True)
                  if on]
        return sorted(items, key=lambda i: (round(i.center[1] / 40), i.center[0]))

    def _candidates(self, groups: Groups) -> Groups:
        lo, hi = self.thresholds.widths
        length = np.hypot(*(groups.ends[:, 0, 1] - groups.ends[:, 0, 0]).T)
        lengths = self.deck.lengths
        ok = (length >= lo * float(lengths.min()) * 0.8) & (
            length <= hi * float(lengths.max()) * 1.2)
        return groups.take(ok)

    def _widths(self, groups: Groups) -> tuple[F64, F64]:
        """The least and the most card width (pixels) each candidate may imply: its
        rank-to-suit length over the deck's longest and shortest (``Deck.lengths``), in
        either sense of its axis (a group of three marks has a rank and suit for each)."""
        axis = groups.ends[:, :, 1] - groups.ends[:, :, 0]  # (N, sense, xy)
        length = np.hypot(axis[..., 0], axis[..., 1])
        lengths = self.deck.lengths
        return (length.min(axis=1) / float(lengths.max()),
                length.max(axis=1) / float(lengths.min()))

    def _by_size(self, pyramid: Pyramid, groups: Groups) -> list[Read]:
        """The reads of ``groups``, those of a card size no card on this table has left
        uncut. All cards of a table are one size (``reads.like_sizes`` withdraws the reads
        of any other). The candidates that allow the width most of them allow (``_common``)
        are cut first; the sure ones among them tell the table's card width
        (``_table_width``); then the rest that allow that width are cut (all the rest where
        no width is told), and the candidates cut compete for their marks
        (``naming.Naming.reads``)."""
        low, high = self._widths(groups)
        # The candidates holding a part of a split mark are cut with the rest: the width
        # most candidates allow, and the table's, are the unsplit marks' as before.
        held = holds_part(groups)
        first = np.zeros(len(groups), np.bool_)
        first[~held] = _common(low[~held], high[~held])
        every = self._judged(self._distances(pyramid, groups.take(first)))
        rest = ~first
        width = self._table_width(groups.take(first), every) if rest.any() else None
        if width is not None:
            rest &= (high >= width / SIZE_SPREAD) & (low <= width * SIZE_SPREAD)
        if rest.any():
            # Each row's verdict is its own (``verdict.judged``): the rest's join the first's.
            more = self._judged(self._distances(pyramid, groups.take(rest)))
            order = np.argsort(np.concatenate([np.flatnonzero(first), np.flatnonzero(rest)]))
            every = Judged._make([np.concatenate([a, b])[order]
                                  for a, b in zip(every, more, strict=True)])
        return self._naming.reads(pyramid, groups.take(first | rest), every)

    def _distances(self, pyramid: Pyramid, groups: Groups) -> Dist:
        """Each group's rank and suit distances (``model.Lda.distances``), cut in sense 0
        and in sense 1 (``patch.cut_both``)."""
        return [(self.deck.ranks.distances(rv), self.deck.suits.distances(sv))
                for rv, sv in patch.cut_both(pyramid, groups)]

    def _judged(self, dist: Dist) -> Judged:
        """Each group's verdict (``verdict.judged``): judged once, for ``_table_width`` and
        ``naming.Naming.reads`` alike (judging the first cut's candidates twice cost time
        every frame)."""
        return judged(dist, np.arange(len(dist[0][0])), self.deck.ranks.typical,
                      self.deck.suits.typical)

    def _table_width(self, groups: Groups, j: Judged) -> float | None:
        """The card width the coarse cut tells (``reads.table_width``): the median of the
        candidates read surely (``SURE``, ``CLEAN``), else none. Not of those merely named:
        the candidates cut first are those of the size most candidates allow (``_common``),
        and a card's back, its lattice read as one card at dozens of places, outnumbered
        the cards of a real photograph, whose indices were then never cut."""
        if len(groups) == 0:
            return None
        rows = np.arange(len(groups))
        sure = (j.odds >= SURE) & (j.loose < CLEAN)
        codes = self._naming.codes(j.r_best, j.s_best)
        known = np.array([c in self._naming.code_at for c in codes], np.bool_)
        width = self._naming.placed(groups, rows, j.sense, codes)[3]
        return table_width(width, sure & known, np.zeros(len(groups), np.bool_))

    def _second_look(self, frame: Image, reads: list[Read], felt: Felt) -> list[Read]:
        """``reads`` with the cards found at the empty places of spreads (``slots``): each
        read surely (``SURE``), a spread's step from the card beside its place (``stepped``),
        on cards (``ground.on_cards``), where no card is named, and of a name not yet read
        (``reads.placed``)."""
        if not reads:
            return reads
        rights = np.array([r.right for r in reads])
        downs = np.array([r.down for r in reads])
        widths = np.array([r.width for r in reads])
        corners = card_frames(reads, self.deck.aspect)[0]
        named = np.array([r.code is not None for r in reads])
        empty = slots.empty(felt, corners, rights, downs, widths, self.deck.aspect, named,
                            np.array([r.both for r in reads]))
        if not empty:
            return reads
        rows = [i for i, _ in empty]
        beside = [reads[i] for i in rows]
        places = slots.cut(frame, corners[rows], rights[rows], downs[rows], widths[rows],
                           [side for _, side in empty])
        groups = self._candidates(find_groups(places.image, self.limits,
                                                 slots.ink(places, self.limits.sharpen)))
        # Only an index of a card the size of the one beside its place can fill the place
        # (``reads.stepped``): the others are not read.
        low, high = self._widths(groups)
        beside_width = np.array([r.width for r in beside])[places.owners(groups.cx)]
        groups = groups.take((high * (1 + SIZE_ALIKE) > beside_width)
                             & (low < beside_width * (1 + SIZE_ALIKE)))
        found: list[Read] = []
        pyramid = Pyramid(places.image)
        for n in self._naming.reads(pyramid, groups,
                                    self._judged(self._distances(pyramid, groups)), least=SURE):
            k = places.owner(float(n.indices[0][0][0]))
            n, r = moved(n, places.maps[k]), beside[k]
            n = follow(n, r, self.deck.twin)  # a four-corner deck's index: its corner
            if n.code is not None and n.odds >= SURE and stepped(n, r, beside=True):
                found.append(n)
        on = on_cards(felt, found, self.deck.aspect).tolist()
        return placed(reads, [n for n, ok in zip(found, on, strict=True) if ok])

    def _items(self, reads: Sequence[Read]) -> list[Item]:
        if not reads:
            return []
        corner, across, along = card_frames(reads, self.deck.aspect)
        quads = np.stack([corner, corner + across, corner + across + along, corner + along],
                         axis=1).tolist()
        return [Item(kind="card", code=r.code, confidence=max(0.0, min(1.0, r.score)),
                     center=(float(r.center[0]), float(r.center[1])),
                     corners=(tuple(q[0]), tuple(q[1]), tuple(q[2]), tuple(q[3])),
                     note=r.note)
                for r, q in zip(reads, quads, strict=True)]


def off_cards(reads: list[Read], on: list[bool]) -> list[Read]:
    """``reads`` with each whose card would lie on the felt (``on`` false for it) withdrawn
    (``OFF_CARDS_NOTE``: never reported, ``WITHDRAWN``), named or not. An unnamed read so
    placed is most often an index read in the wrong sense or as another face, the card it
    implies lying over the felt (the bottom index of a card turned, its card implied below
    it): reported, it was an unknown item where no card lies."""
    return [r if ok else but(r, code=None, guess=None, pair=None, note=OFF_CARDS_NOTE)
            for r, ok in zip(reads, on, strict=True)]


def _common(low: F64, high: F64) -> NDArray[np.bool_]:
    """The candidates that agree with the card width most of them agree with: each allows
    widths from its ``low`` over ``SIZE_SPREAD`` to its ``high`` times it (as
    ``reads.like_sizes`` keeps a read), and the width inside the most of those spans is
    found by sweeping their starts (the least such width where several tie)."""
    if not len(low):
        return np.zeros(0, np.bool_)
    start, end = low / SIZE_SPREAD, high * SIZE_SPREAD
    starts, ends = np.sort(start), np.sort(end)
    inside = (np.searchsorted(starts, starts, side="right")
              - np.searchsorted(ends, starts, side="left"))
    width = starts[int(np.argmax(inside))]
    out: NDArray[np.bool_] = (start <= width) & (end >= width)
    return out
