"""Learn a deck from one image per face (``As.png`` ... ``Jk.png``), as shufflers calibrate.

First the deck's own spacing of rank and suit is found (``choose_link``), whether its
strokes are thin enough to be sharpened before the ink threshold (``choose_sharpen``), and
where each index sits on its card (``face_index.index_position``), and whether the deck
prints it at the other top corner too (``face_index.twin_corner``: four-corner decks). Then
the faces are laid in small spreads many times by the scene renderer (turned, scaled,
blurred, noisy) and cut by the very code that reads frames (``samples``), and discriminants
for ranks and suits are fitted to those cuts (``model.Lda``), so the deck learns what the
reader will see; the same renders tell whether its glyphs blur into one mark often enough
that its marks are offered split (``SPLIT_LEAST``); and whether its glyphs must be cut from
the card's printed outline, which blur joins them to (``choose_bays``). A joker whose
top-left corner holds no index (the test deck's) is learned as an edge strip (``strips``);
one that holds a mark there but no index (a star, a circled star: one mark, no rank over a
suit; the word JOKER lying across the card: no index runs across) is learned as an edge
strip too, and by that mark (``corner_marks.learn_marks``), where its renders show that mark
above what the other faces' corners show there in spreads often enough; else it is refused
by name (``UnusableFaces``). A joker whose corner mark does read as an index (the word JOKER
printed down the card) is learned as an index. A deck without a joker image is learned
without one, and its reader never names a joker. A standard face whose index is not found on
its clean render is sought where the deck's other faces hold theirs; a face whose index the
renders too seldom show (``SEEN_LEAST``) is sought again in renders whose glyphs are parted
from the large pips and pictures they blur into (``rescue``: its deck then reads so), and if
still too seldom found, is refused, the faces named (``UnusableFaces``), not learned as an
edge strip: a strip is matched only where a whole card's top edge shows (never in a fanned
hand), so such a card would go unread in most hands, or be named from a strip alone. But
where such a face's image is far softer than its deck's others (``soft.softness``: a face
cut from a blurred photograph, its thin rank strokes washed out), the deck is learned again
with that image sharpened back to its deck's median sharpness (``soft.sharpened``), as a
crisp print of it would be (the renders add the camera's blur back), and refused only if its
index is still too seldom found. A face refused for any other cause (an index on a picture,
or joined to a pip) is as sharp as its deck's others, and is not sharpened.
"""

from __future__ import annotations

import dataclasses
import math
from collections import Counter
from collections.abc import Collection, Mapping, Sequence

import numpy as np
from numpy.typing import NDArray

from ..errors import CalibrationError
from ..scene import Camera, Pose
from . import blank_corner, corner_marks, samples, strips
from .codes import CODES, JOKER
from .deck import Deck
from .face_index import (
    corner_index,
    references,
    rendered,
    stroke,
    top_left,
    twin_corner,
)
from .faces import card_face
from .ink import Limits, find_groups
from .model import Lda
from .soft import sharpened, soft_faces

Image = NDArray[np.uint8]
F32 = NDArray[np.float32]

LINKS = (0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6)
# A deck whose rank glyphs' strokes are narrower than THIN card widths (the median over its
# faces of twice a glyph's area over its outline's length) is sharpened by SHARPEN before
# the ink threshold (``ink.SHARPEN_SIGMA``). The test deck's plain styles draw ranks 0.014
# card widths wide (1.4 px on a card 100 px wide, which the camera's blur of up to a pixel
# leaves faint), its bold styles 0.026. Sharpening by SHARPEN reads the most thin-stroked
# cards right; a bold deck sharpened reads fewer right and mistakes a ten for a king, so it
# is not sharpened (figures in ``docs/benchmarks.md``).
THIN = 0.02
SHARPEN = 1.0
# A face whose index the reader's cut finds fewer than SEEN_LEAST times per sheet it is laid
# in (``rounds`` sheets, two indices showing in each) is refused (``UnusableFaces``): such a
# card would go unread in most frames, and its placement (a median of its samples) rests on
# too few. The test deck's least-found faces are found 13-15 times in 32 sheets, the
# photographed deck's 14 and more, but for a face whose rank is too faint in its image to
# show at a table camera's scale, found never: an eighth (4 in 32 sheets) lies well below
# every usable face.
SEEN_LEAST = 0.125
# A deck whose index the renders show only as a candidate holding a part of a split mark
# (``ink.find_groups``) in at least SPLIT_LEAST of its samples offers split marks when it
# reads (``ink.Limits.split``): its glyphs lie close enough to one another, or to the pips
# and frames beside them, to blur into one mark. The test deck's four styles measure
# 0.8-1.4 % (and splitting named none of their cards in 10 frames, at a tenth more time a
# frame), the hold-out decks whose indices touch their pips 6-11 %, the photographed deck
# 6.3 % (``docs/benchmarks.md``).
SPLIT_LEAST = 0.03
# A deck prints every index at one place on its cards: a standard face whose index its clean
# render shows farther than SPOT_SPREAD card widths from where the others' lie was found at
# another pair of marks (Bellot's Kc and Ks, their rank with the large pip beside it;
# Bonded's and Dondorf's Tc: 0.08-0.11 away), and is sought where the others' lie instead.
# Every other face of the fourteen decks measured (the tuning styles, the hold-out decks and
# the two photographed decks) lies within 0.05 of its deck's median place, the tens and
# court cards, whose rank glyphs differ most in shape, farthest (``docs/benchmarks.md``,
# stop 48).
SPOT_SPREAD = 0.065
# A deck cuts glyphs joined to its cards' printed outline from it (``ink.Limits.bays``) where,
# on its faces rendered upright BAY_WIDTH pixels wide (the training sheets' narrowest card)
# through BAY_CAMERA (a blur within the training camera's), cutting them finds the corner
# index on at least BAY_GAIN of the faces more than not cutting them: Bellot's index sits so
# close to its thick outline that the blur joins them on most faces; the tuning decks' and
# the other hold-out decks' indices are found on as many faces either way, or on fewer cut
# (a bay's fill can join an index to what lies by it), so they do not cut.
# (``docs/benchmarks.md``).
BAY_WIDTH = 86.0
BAY_CAMERA = Camera(tilt=0.0, light=(1.0, 1.0), glare=(0, 0.0), blur=(1.0, 1.0),
                    noise=(0.0, 0.0), tint=0.0)
BAY_GAIN = 0.1
# A deck that splits marks (``split``) also parts glyphs from the large pips they blur into
# (``ink.Limits.pips``) where, on its faces rendered as for ``choose_bays``, parting finds
# the corner index on at least BAY_GAIN of the faces more than not. Tigullio prints its index
# so close to its first pip that parting finds it on 18 % more renders (two per face); the
# other decks gain 0-8 % (dondorf 7.5 %, aguilar 4 %, bonded 3 %), and parting them cost
# dondorf and aguilar right reads in the plain scenes (``docs/benchmarks.md``, stop 41).
# A deck this does not choose may still part them where reading tables of its own faces
# names more cards so (``trial``).


class UnusableFaces(CalibrationError):
    """A calibration refused because the corner index of some faces was too seldom found,
    so that those cards would go unread, or because a joker's corner mark cannot be told
    reliably from a card whose index went unread (``faces``: their codes)."""

    def __init__(self, message: str, faces: tuple[str, ...]) -> None:
        super().__init__(message)
        self.faces = faces


class _Unseen(UnusableFaces):
    """A calibration refused because the corner index of some faces was too seldom found
    (``SEEN_LEAST``): those that are soft may be learned again sharpened (``soft.soft_faces``)."""


def calibrate(
    faces: Mapping[str, Image], name: str = "deck", rounds: int = 32, seed: int = 0,
    without: Collection[str] = (),
) -> Deck:
    """A deck calibration from face images (code -> BGR or BGRA): the 52 standard faces, and
    the joker (``Jk``) where the deck has one; a deck without one never reads a joker.

    ``rounds`` passes over the deck make the training samples (about 1.3 per face each).
    ``without``: faces deliberately left out (to measure a deck some of whose images are
    unusable); the reader never names them. CalibrationError names the faces missing;
    ``UnusableFaces`` those whose corner index is too seldom found (``SEEN_LEAST``), a soft
    image's even sharpened (``soft.soft_faces``).
    """
    odd = sorted(set(without) - set(CODES))
    if odd:
        raise CalibrationError(f"deck {name!r}: faces to leave out {odd!r} are no card codes")
    missing = [c for c in CODES if c not in faces and c != JOKER and c not in without]
    if missing:
        raise CalibrationError(f"deck {name!r}: no face for {', '.join(missing)}")
    cards = {code: card_face(faces[code]) for code in CODES
             if code in faces and code not in without}
    try:
        return _learn(cards, name, rounds, seed)
    except _Unseen as err:
        # A face too seldom found whose image is soft is learned sharpened
        # (``soft.RESTORE_SIGMA``), the deck again from the same renders; still too seldom
        # found, it is refused.
        soft = soft_faces(cards, err.faces)
        if not soft:
            raise
        return _learn({code: sharpened(face, soft[code]) if code in soft else face
                       for code, face in cards.items()}, name, rounds, seed, tuple(soft))


def _refusal(name: str, unseen: Sequence[str], rounds: int, faces: int,
             tried: Sequence[str]) -> _Unseen:
    """The refusal of a deck whose faces ``unseen`` the renders show too seldom
    (``SEEN_LEAST``), of ``faces`` in all; ``tried``: those refused even sharpened."""
    return _Unseen(
        f"deck {name!r}: the corner index of {', '.join(unseen)} was found fewer than "
        f"{rounds * SEEN_LEAST:g} times in {rounds} renders of each ({len(unseen)} of "
        f"{faces} faces{'; sharpened: ' if tried else ''}{', '.join(tried)}): a "
        "card that shows its index so seldom would go unread; check those images are "
        "upright, whole, sharp cards with their index at the top left", tuple(unseen),
    )


def _learn(cards: Mapping[str, Image], name: str, rounds: int, seed: int,
           restored: tuple[str, ...] = ()) -> Deck:
    """``calibrate`` from the faces cut out (``card_face``); ``restored``: the faces given
    sharpened (``soft_faces``), named where they are refused all the same."""
    rng = np.random.default_rng(seed)
    aspect = float(np.median([f.shape[0] / f.shape[1] for f in cards.values()]))
    renders = references(cards)
    link = choose_link(cards, renders)
    limits = Limits(link=link, sharpen=choose_sharpen(cards, link, renders),
                    bays=choose_bays(cards))
    indices = {code: corner_index(face, Limits(link=link), render)  # from its plain ink
               for (code, face), render in zip(cards.items(), renders, strict=True)}
    spots = {code: None if i is None else i[0] for code, i in indices.items()}
    joined = {code for code, i in indices.items() if i is not None and i[1]}
    placed = [spot for spot in spots.values() if spot is not None]
    if not placed:
        raise CalibrationError(f"deck {name!r}: no face shows a corner index")
    # A standard face whose index is not found on its clean render (ink too faint there, as
    # on a face cut from a blurred photo), or found far from the others' (``SPOT_SPREAD``),
    # is sought where the others' lie, and learned if the renders show it there.
    common = (float(np.median([s[0] for s in placed])), float(np.median([s[1] for s in placed])))
    where = {code: spot if spot is not None and (
                 code == JOKER or math.dist(spot, common) <= SPOT_SPREAD) else common
             for code, spot in spots.items() if spot is not None or code != JOKER}
    strip_codes = [code for code in spots if code not in where]  # a joker without an index
    twin = twin_corner(cards, link, renders)
    found = samples.collect(cards, where, limits, rng, rounds, joined)
    # A deck whose indices the renders show only split often enough splits its marks
    # (``SPLIT_LEAST``); it learns from the marks unsplit all the same (but see below):
    # learning from the parts too changed the reads of the photographed deck's unsplit
    # marks, some wrongly. A face whose index the renders show whole too seldom
    # (``SEEN_LEAST``) but split often enough (Dondorf's and Bonded's clubs 4-10, their
    # small club joined to the large pip beside it) learns from its split samples: its card
    # is read from split marks alone, so its deck splits them.
    codes = tuple(where)
    least = rounds * SEEN_LEAST
    # Their suits are learned from the unsplit samples alone: a club cut from its pip,
    # learned as a club, widened the club class until it took in blurred spades (bonded,
    # ``--render real``: 6s, 8s, Ks read as clubs).
    suited = found.unsplit()
    whole, every = Counter(suited.codes), Counter(found.codes)
    parted = {code for code in codes if whole[code] < least <= every[code]}
    split = bool(parted) or (bool(found.split) and float(np.mean(found.split)) >= SPLIT_LEAST)
    found = found.unsplit(parted)
    seen = Counter(found.codes)
    # A face too seldom found may be found parted from the large pips and pictures its index
    # blurs into (``rescue``): its deck then reads so, split. Else whether it parts is
    # tried on its tables once it is learned (``trial.parts_more``).
    unseen = [code for code in codes if seen[code] < least]
    pips = courts = False
    if unseen and not restored and soft_faces(cards, unseen):
        # A face whose image is soft is sharpened first (``calibrate``): the rescue's
        # renders cost as much again, and do not bring back strokes the image lost.
        raise _refusal(name, unseen, rounds, len(cards), ())
    if unseen:
        more, parting = rescue(cards, where, unseen, limits, seed, rounds, joined)
        if more.codes:
            found = found.joined(more)
            split, pips, courts = True, True, parting.courts
            seen = Counter(found.codes)
    # A face too seldom found would go unread: refused, named (``SEEN_LEAST``).
    unseen = [code for code in codes if seen[code] < least]
    if unseen:
        raise _refusal(name, unseen, rounds, len(cards),
                       [code for code in unseen if code in restored])  # even sharpened
    mine = [[i for i, c in enumerate(found.codes) if c == code] for code in codes]
    offsets = np.array([np.median([found.offsets[i] for i in m], axis=0) for m in mine],
                       np.float32)
    lengths = np.array([np.median([found.lengths[i] for i in m]) for m in mine], np.float32)
    blank, inked = blank_corner.index_box(offsets, lengths, aspect,
                                          [cards[c] for c in strip_codes])
    # A face with ink where the others print their index is learned by that mark
    # (``corner_marks.learn_marks``), where its renders show it above what the other faces'
    # corners show there often enough.
    marked = [strip_codes[k] for k in inked]
    strip_templates, strip_accept = strips.learn(cards, strip_codes, aspect, rng)
    mark_box, marks, mark_accept = blank_corner.CORNER, np.zeros((0, 0, 0), np.float32), 1.0
    mark_both = (1.0, 1.0)
    if marked:
        learned = corner_marks.learn_marks(
            cards, marked, blank, codes, rng,
            strip_templates[[2 * strip_codes.index(c) + t for c in marked for t in (0, 1)]],
            aspect)
        mark_box, marks, mark_accept, mark_both = (learned.box, learned.templates,
                                                   learned.accept, learned.both)
        if learned.unusable:
            raise UnusableFaces(
                f"deck {name!r}: {', '.join(learned.unusable)} shows no corner index, yet "
                "has ink where the other faces print theirs, and its renders show that mark "
                "too seldom above what the other faces' corners show there in a spread to be "
                "told from a card whose index went unread; leave its image out to calibrate "
                "the deck without it (those cards then go unread)",
                tuple(learned.unusable),
            )
    rank_of, suit_of = [c[0] for c in found.codes], [c[1] for c in suited.codes]
    deck = Deck(
        name=name, aspect=aspect, link=link, sharpen=limits.sharpen, split=split,
        pips=pips, courts=courts, bays=limits.bays, codes=codes,
        ranks=Lda.fit(np.stack(found.ranks), rank_of),
        suits=Lda.fit(np.stack(suited.suits), suit_of),
        fine_ranks=Lda.fit(np.stack(found.fine_ranks), rank_of),
        fine_suits=Lda.fit(np.stack(suited.fine_suits), suit_of),
        offsets=offsets, lengths=lengths, strip_codes=tuple(strip_codes),
        strips=strip_templates, strip_accept=strip_accept, twin=twin, blank=blank,
        marked=tuple(marked), marks=marks, mark_box=mark_box, mark_accept=mark_accept,
        mark_both=mark_both,
    )
    # A deck that splits its marks and does not part them from its pips yet does where
    # reading its own tables so names more cards (``trial``: the competition of the
    # parted pieces shows only there). Imported here: the trial reads, and the reader
    # imports this module.
    # Likewise its ranks are held closer at the fine cut, and it is read sharpened more,
    # where its tables in the camera's light read better so.
    from .trial import in_light, parts_more

    return in_light(parts_more(deck, cards), cards)


def choose_link(faces: Mapping[str, Image],
                renders: list[tuple[Image, Pose]] | None = None) -> float:
    """How close a deck's marks must lie to join one index (``ink.Limits.link``).

    The smallest of ``LINKS`` that joins rank and suit on every face with an index, raised
    by a quarter while that joins nothing more, so noise does not split an index and
    neighbouring pips do not join it. ``renders``: the faces' ``references``.
    """
    renders = renders or references(faces)
    counts = []
    for link in LINKS:
        limits = Limits(link=link)
        marks = []
        for (image, pose), face in zip(renders, faces.values(), strict=True):
            found = top_left(find_groups(image, limits), pose, face)
            marks.append(0 if found is None else int(found.marks[0]))
        counts.append(marks)
    indexed = [i for i, m in enumerate(counts[-1]) if m > 0]
    for k, marks in enumerate(counts):
        if all(marks[i] >= 2 for i in indexed):
            best = LINKS[k]
            for j in range(k + 1, len(LINKS)):
                if LINKS[j] > LINKS[k] * 1.25 + 1e-9 or counts[j] != marks:
                    break
                best = LINKS[j]
            return best
    raise CalibrationError("no link distance joins rank and suit on every face")


def choose_sharpen(faces: Mapping[str, Image], link: float,
                   renders: list[tuple[Image, Pose]] | None = None) -> float:
    """How much a deck's ink is sharpened (``ink.Limits.sharpen``): ``SHARPEN`` where its
    rank glyphs' strokes (``stroke``, median over the faces with an index) are narrower than
    ``THIN`` card widths, none otherwise. ``renders``: the faces' ``references``."""
    renders = renders or references(faces)
    plain = Limits(link=link)
    widths = [w for (image, pose), face in zip(renders, faces.values(), strict=True)
              if (w := stroke(image, pose, face, plain)) is not None]
    if not widths:
        raise CalibrationError("no face shows a corner index")
    return SHARPEN if float(np.median(widths)) < THIN else 0.0


def choose_bays(faces: Mapping[str, Image]) -> bool:
    """Whether a deck cuts glyphs joined to its cards' printed outline from it
    (``ink.Limits.bays``): where that finds more of its indices (``_finds_more``)."""
    return _finds_more(faces, Limits(), Limits(bays=True))


def rescue(faces: Mapping[str, Image], where: Mapping[str, tuple[float, float]],
           unseen: Collection[str], limits: Limits, seed: int, rounds: int,
           joined: Collection[str]) -> tuple[samples.Samples, Limits]:
    """The samples of the faces ``unseen`` (those the renders show too seldom,
    ``SEEN_LEAST``) found parting glyphs from the large pips they blur into
    (``ink.Limits.pips``), or from large marks' bodies too (``Limits.courts``: a court's
    index joined to a large pip and through it to the picture), in sheets of the whole deck
    as ``samples.collect`` lays them (``where``, ``rounds``, ``joined``; the same sheets
    for both, drawn from ``seed``), so the faces are found as seldom as among the others;
    the samples of the faces found so at least as often as ``SEEN_LEAST`` asks, and the
    limits that found them (no samples: neither did). Large marks are parted only where
    that finds more of the faces than parting the pips alone, for the reader parts as its
    deck learned: parting more marks offers more candidates, pieces of pips and pictures
    among them."""
    least = rounds * SEEN_LEAST
    out, chosen, most = samples.Samples([], [], [], [], [], [], [], []), limits, 0
    for courts in (False, True):
        tried = dataclasses.replace(limits, pips=True, courts=courts)
        found = samples.collect(faces, where, tried, np.random.default_rng((seed, 1)), rounds,
                                joined)
        count = Counter(found.codes)
        kept = {code for code in unseen if count[code] >= least}
        if len(kept) > most:
            out, chosen, most = found.only(kept), tried, len(kept)
        if most == len(unseen):
            break
    return out, chosen


def _finds_more(faces: Mapping[str, Image], without: Limits, within: Limits) -> bool:
    """Whether ``within`` finds the corner index on ``BAY_GAIN`` more of the faces rendered
    small and blurred (``BAY_WIDTH``, ``BAY_CAMERA``) than ``without`` does."""
    found = [0, 0]
    for face in faces.values():
        render = rendered(face, 0.0, BAY_WIDTH, BAY_CAMERA, np.random.default_rng(0))
        for k, limits in enumerate((without, within)):
            found[k] += corner_index(face, limits, render) is not None
    return found[1] - found[0] >= BAY_GAIN * len(faces)
