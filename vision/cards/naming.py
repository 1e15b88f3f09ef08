"""The naming of a frame's candidate indices: which of them are read, and what each is named.

The candidate indices (``ink.find_groups``), cut and classified by the reader
(``reader.CardReader``), compete for their marks: of candidates sharing ink the best fit is
kept (``Naming.reads``), a part of a ten's index fitting worse than its whole (``PART``). A
card is named only when rank and suit are each far more likely than the runner-up
(``verdict.Thresholds.odds``) and close to their class (``Thresholds.typical``); an
index-like group that falls short is reported with ``code=None``, unless the group, cut again at
twice the resolution, is named surely there (``verdict.settle``: a "settled" read, the
weakest kind). Every read named is cut at twice the resolution too, and withdrawn ("vetoed")
where that cut names another rank or suit as surely as a read must be (``verdict.against``):
the sure and clean ones too (``reads.SURE``, ``reads.CLEAN``), as a small suit blurred can
pass for another at the coarse cut alone (the note after ``IN_STEP_FIT``); and where that
cut finds its rank far from its class (``FINE_RANK_FIT``, or the deck's own limit where its
tables read better so: ``Deck.fine_rank_fit``); a close call is settled only within that
limit too (``held_close``). A small suit
under a rank too tall for a group (``link.SIMILAR_LOOSE``, ``ink.Groups.unlike``) competes
only read surely (``UNLIKE_FIT``), and is named only where that cut names the same rank and
suit surely too (``verdict.confirmed``). A ten's "0" read surely with its suit, its hairline
"1" lost from the ink, is named its ten weakly where that "1" shows beside it (``ten_one``).
A part of a split mark read surely and fairly closely (``LATE_FIT``) is named weakly where
that cut names its rank and suit as surely as it settles a close call (``FINE_ODDS``).
A read sure but loose, which that cut does not withdraw either, and a close call that cut
names fairly surely, are given their name as a guess: the reader names them only where the
index lies as a spread lays it beside a card named plainly (``IN_STEP_FIT``,
``verdict.IN_STEP_ODDS``, ``reads.in_step``). An unsure read that is surely one of two cards
is given both names (``PAIR_FIT``): the reader names it the one not read elsewhere
(``reads.eliminate``).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

from . import patch
from .codes import TEN_ONE, TEN_PART
from .deck import Deck
from .ink import Groups
from .pyramid import Pyramid
from .reads import CLEAN, SURE, Read
from .ten_one import one_beside
from .verdict import (
    FINE_FIT,
    FINE_ODDS,
    Judged,
    Thresholds,
    against,
    confirmed,
    runner_up,
    settle,
    strays,
)

F64 = NDArray[np.float64]

# A candidate read as a part of a ten, its "0" or its "1" (``codes.TEN_PART``, ``TEN_ONE``),
# fits this much worse in the competition for marks (``Naming.reads``): the ten's own group,
# "1" and all, should win it.
PART = 0.6
# A read sure enough (``Thresholds.odds``) but looser than ``Thresholds.typical``, no looser
# than IN_STEP_FIT, and not withdrawn by the fine cut (``verdict.against``) keeps its name
# as a guess, which it is given where its index lies as a spread lays it beside a card named
# plainly (``reads.in_step``): the index of a covered card cut by the edge of the card on
# top. Such reads are covered cards of the bold styles, mostly, and none was wrong even
# well beyond IN_STEP_FIT (figures in ``docs/benchmarks.md``).
IN_STEP_FIT = 1.0
# Every read named is checked at the fine cut (``Naming.reads``, ``verdict.against``), not only
# those short of sure and clean (``reads.SURE``, ``reads.CLEAN``): a read two cuts name
# differently is unsure. In real light, 200 frames of each hold-out deck (seed 2026), the
# sure and clean reads checked too named 7 fewer cards wrongly of 64 (aguilar-lite's
# blurred small clubs read as spades at fits of 0.1, tigullio's Ks as Kc) and as many
# right, give or take a few per deck; at seed 11 (with ``link.AXIS``) as many wrongly (63
# against 62; ``docs/benchmarks.md``, stop 50).
#
# A candidate holding a part of a split mark (``ink.find_groups``) is read only where it is
# read surely and cleanly (``reads.SURE``, ``reads.CLEAN``); else it takes no marks from
# the candidates of the marks unsplit. The hold-out deck aguilar's reads of such candidates
# are clean (63 of 67 named, none wrong, in 10 frames), those named on the photographed
# table's wooden floor and pictures loose (fits 0.16-0.46; ``docs/benchmarks.md``).
# One read surely but not cleanly (``reads.SURE``, no looser than IN_STEP_FIT) is most
# often the index of a card whose rank or suit ran into the edge of the card on top or a
# court's frame and was parted from it by the deeper ink: such a candidate takes only the
# marks that no candidate of the rest took, after them (so no read of the rest changes),
# and is never named plainly: only where the fine cut settles it (``verdict.settle``: a
# weak name, which yields to any other at its place) or, as a guess, in step
# (``reads.in_step``). Unnamed, it is no card (``reader.CardReader.read``). Named weakly
# where the fine cut merely named no other rank or suit, two such reads named a card
# wrongly in the hold-out decks' frames (figures in ``docs/benchmarks.md``).
# Such a part read surely but loosely that fits within LATE_FIT is named, weakly, too
# (``loose_part`` in ``Naming.reads``), where the fine cut names its rank and suit as surely as
# it settles a close call (``verdict.FINE_ODDS``) and finds its rank close
# (``FINE_RANK_FIT``): most are covered courts whose rank ran into the edge of the card on
# top or the picture's frame and was parted from it (tigullio's K, Q and J), dropped
# unnamed where no card beside them was named plainly (``reads.in_step``). Logged over 200
# real frames of each hold-out deck (seed 2026, named up to a fit of 0.6 with the fine cut
# at ``SURE``), 1,024 such reads lived on to be reported right, 961 of them within 0.3,
# and 3 wrongly or where no card lies (fits 0.19, 0.26, 0.35). With the fine cut at
# ``SURE`` one more card a seed was named wrongly (aguilar: a 2h as 5h at fit 0.29, an 8c
# as 8s); at ``FINE_ODDS`` none more at seed 2026 and the 8c at seed 11 (fit 0.17), for
# 147 and 187 more cards right (``docs/benchmarks.md``, stop 57).
LATE_FIT = 0.3
# An unsure read whose rank (or suit) is one of two, each PAIR_ODDS (a log-likelihood ratio)
# more likely than any third, whose suit (or rank) is read surely (``Thresholds.odds``) and
# which fits no looser than PAIR_FIT, is one of two cards: it is named the one not read
# elsewhere where the other is (``reads.eliminate``). The limits lie short of the loosest
# fit and the weakest lead of any such read that named a card wrongly (figures in
# ``docs/benchmarks.md``).
PAIR_FIT, PAIR_ODDS = 0.4, 15.0
# A small suit under a rank too tall for a group (``ink.Groups.unlike``) competes for its
# marks read surely and fitting no looser than this, looser than a group's part (``CLEAN``):
# its suit is one blur shrank, and the fine cut must name the pair too (``verdict.confirmed``).
# Bellot's real scenes read 7 more cards of 490 at 0.25 than at ``CLEAN``, and 14 more of
# 980 at another seed, with no wrong read added (``docs/benchmarks.md``).
UNLIKE_FIT = 0.25
# A read named plainly (``reads.SURE`` or not) is withdrawn where the fine cut finds its rank
# further than FINE_RANK_FIT from its class (``verdict.strays``), in units of the fine
# ranks' ``typical`` as ``Thresholds.typical`` is in the coarse ranks'. Most of bellot's
# wrong reads were named surely and cleanly, the fine cut agreeing as surely (a 5 whose flag
# ran into the ink beside it read as a 3, the pieces of its court pictures as sixes or
# jacks), and fitted their ranks loosely there. The limit was set on one seed's reads (200
# real frames of four hold-out decks, seed 2026): at 0.6 it withdrew 10 of bellot's 31
# wrong reads and 2 right ones, at 0.5 11 and 3, but at 0.5 4 of kde-standard's wrong reads
# and 55 right, at 0.6 3 and 24.
# Over 200 real frames of all eight hold-out decks it named 58 -> 41 cards wrongly at that
# seed and 63 -> 41 at seed 11, and 4 and 7 more right (kde-standard 16 and 21 fewer;
# ``docs/benchmarks.md``, stop 51). The suit is not held so: small suits blurred fit their
# fine classes as loosely read right as wrongly.
# A deck whose own tables read better with its ranks held closer holds them so
# (``Deck.fine_rank_fit``, ``trial.in_light``): a limit that suits every deck is as loose as
# the loosest deck's right reads allow.
# A close call the fine cut settles (``verdict.settle``) is held to the same limit
# (``held_close``), and one found further is not guessed either: with the deck's own limit
# (Bellot's, Tigullio's ``trial.CLOSE_RANK_FIT``) settled reads were still bellot's most
# common wrong ones (its 5s as 3s). Over 200 real frames held so, bellot read 7,270 -> 7,560
# cards right and 15 -> 6 wrongly (seed 2026), 6,911 -> 7,280 and 15 -> 7 (seed 11), its
# calibration now choosing sharpening too; tigullio 5 fewer right and one fewer wrong at each
# seed; the decks held as any deck unchanged (``docs/benchmarks.md``, stop 58).
FINE_RANK_FIT = 0.6
UNSURE = "unsure"  # the note of a read seen that names no card and was not vetoed


class Contest(NamedTuple):
    """The competition for marks (``Naming.contest``): the candidates chosen, in the order
    they won; the candidate that took each mark; each candidate's marks (a split mark's part
    as the mark it was split from, -1 beyond them); which competed first (``eligible``) and
    which for the marks left over (``late``); which hold a part of a split mark (``held``)
    and which pair marks too unlike for a group (``unlike``)."""

    chosen: list[int]
    owner: dict[int, int]
    members: list[list[int]]
    eligible: NDArray[np.bool_]
    late: NDArray[np.bool_]
    held: NDArray[np.bool_]
    unlike: NDArray[np.bool_]


class Naming:
    """Names the candidates of one calibrated ``Deck`` by its ``Thresholds``: the
    competition for marks and the naming of its winners (``reads``); the codes of verdicts
    (``codes``) and where the cards they name lie (``placed``), which the reader asks too."""

    def __init__(self, deck: Deck, thresholds: Thresholds) -> None:
        self.deck = deck
        self.thresholds = thresholds
        self.code_at = {c: k for k, c in enumerate(deck.codes)}  # each code's row of the deck
        self.rank_fit = rank_fit(deck)
        names = deck.ranks.names
        # The ranks that are parts of a ten, its "0" and its "1" (``PART``).
        self.parts = np.array([names.index(p) for p in (TEN_PART, TEN_ONE) if p in names],
                              np.int64)

    def codes(self, r_best: NDArray[np.int64], s_best: NDArray[np.int64]) -> list[str]:
        """The codes of the ranks ``r_best`` and suits ``s_best`` (the deck's classes)."""
        ranks, suits = self.deck.ranks.names, self.deck.suits.names
        return [ranks[a] + suits[b] for a, b in zip(r_best.tolist(), s_best.tolist(),
                                                     strict=True)]

    def placed(self, groups: Groups, rows: NDArray[np.int64], sense: NDArray[np.int64],
               codes: list[str]) -> tuple[F64, F64, F64, F64, F64]:
        """Where the cards the groups ``rows``, read in ``sense`` as ``codes``, lie: their
        indices' ends, unit vectors across and down, widths and centres (from the suit's
        centroid, by the deck's offsets for the face)."""
        k = np.array([self.code_at.get(c, 0) for c in codes], np.int64)
        ends = groups.ends[rows, sense]
        axis = ends[:, 1] - ends[:, 0]
        length = np.maximum(np.hypot(axis[:, 0], axis[:, 1]), 1e-6)
        down = axis / length[:, None]
        right = np.stack([down[:, 1], -down[:, 0]], axis=1)
        width = length / self.deck.lengths[k].astype(np.float64)
        off = self.deck.offsets[k].astype(np.float64)
        center = ends[:, 1] + width[:, None] * (off[:, :1] * right + off[:, 1:] * down)
        return ends, right, down, width, center

    def contest(self, groups: Groups, every: Judged) -> Contest:
        """The competition of ``groups`` (their verdicts ``every``) for their marks: of
        candidates sharing a mark only the best fit is chosen, a part of a ten's index
        fitting worse than its whole (``PART``)."""
        part = np.isin(every.r_best, self.parts)
        best_fit = (every.r_d + every.s_d) / np.where(part, PART, 1.0)
        # A candidate holding a part of a split mark competes only read surely and cleanly
        # (``holds_part``; see the note above ``PAIR_FIT``).
        held = holds_part(groups)
        unlike = (np.zeros(len(groups), np.bool_) if groups.unlike is None
                  else groups.unlike)
        sure = every.odds >= SURE
        eligible = (~held & ~unlike) | (sure & (every.loose < CLEAN)) | (
            unlike & sure & (every.loose < UNLIKE_FIT))
        # Read surely but loosely: the marks left over (see the note above ``PAIR_FIT``).
        late = ~eligible & ~unlike & sure & (every.loose <= IN_STEP_FIT)
        chosen: list[int] = []
        owner: dict[int, int] = {}
        # A part of a split mark takes the mark it was split from (``ink.Groups.whole``).
        rows = groups.members if groups.whole is None else np.where(
            groups.members >= 0, groups.whole[np.maximum(groups.members, 0)], -1)
        members = rows.tolist()  # a list's rows iterate quicker than an array's
        for turn in (eligible, late):
            for i in np.argsort(np.where(turn, best_fit, np.inf), kind="stable").tolist():
                if not turn[i]:
                    break
                marks = [k for k in members[i] if k >= 0]
                if not any(k in owner for k in marks):
                    chosen.append(i)
                    owner.update(dict.fromkeys(marks, i))
        return Contest(chosen, owner, members, eligible, late, held, unlike)

    def reads(self, pyramid: Pyramid, groups: Groups, every: Judged, least: float = 0.0
              ) -> list[Read]:
        """The reads of ``groups`` (their verdicts ``every``, ``reader.CardReader._judged``):
        of candidates sharing a mark only the best fit is read. ``least``: the least odds of
        a read the caller keeps (``reader.CardReader._second_look`` keeps only reads of
        ``SURE`` odds); the candidates that fall short still take their marks, but are
        neither cut again nor read (the fine cut changes no read's odds)."""
        if len(groups) == 0:
            return []
        contest = self.contest(groups, every)
        if not contest.chosen:
            return []
        held, unlike = contest.held, contest.unlike
        pick = np.array(sorted(contest.chosen))
        loosely = contest.late[pick]
        (sense, rd, sd, r_best, r_odds, r_p, r_d, s_best, s_odds, s_p, s_d, loose,
         odds) = every.take(pick)
        t = self.thresholds
        ranks, suits = self.deck.ranks, self.deck.suits
        counts = odds >= least
        seen = (r_d <= t.seen * ranks.typical) & (s_d <= t.seen * suits.typical) & counts
        confident = (odds >= t.odds) & (loose <= t.typical) & ~loosely
        settled = np.zeros_like(confident)
        vetoed = np.zeros_like(confident)
        guess = np.zeros_like(confident)
        close = seen & ~confident & (loose <= FINE_FIT) & ~groups.variant[pick]
        to_check = confident & counts  # every read named: the fine cut checks it (``against``)
        hopeful = seen & ~confident & (odds >= t.odds) & (loose <= IN_STEP_FIT)
        # A pair of marks too unlike for a group is named only where the fine cut names it
        # too, surely (``verdict.confirmed``).
        paired = unlike[pick] & confident & counts
        fine_ranks, fine_suits = self.deck.fine_ranks, self.deck.fine_suits
        vetoed[paired] = True
        again = close | to_check | hopeful | paired
        if again.any() and fine_ranks is not None and fine_suits is not None:
            fr, fs = patch.cut(pyramid, groups.take(pick[again]), sense[again], patch.FINE)
            fr_d, fs_d = fine_ranks.distances(fr), fine_suits.distances(fs)
            c = close[again]
            r_new, r_win, r_near = settle(rd[close], r_best[close], r_odds[close] >= t.odds,
                                           fr_d[c], fine_ranks.typical, t)
            s_new, s_win, s_near = settle(sd[close], s_best[close], s_odds[close] >= t.odds,
                                           fs_d[c], fine_suits.typical, t)
            # A close call is settled only where the fine cut finds its rank as close as a
            # read named plainly must be (``held_close``); else it is not guessed either.
            win = r_win & s_win & held_close(fr_d[c], r_new, self.rank_fit * fine_ranks.typical)
            near = r_near & s_near & ~(r_win & s_win)
            called, named = np.flatnonzero(close), win | near
            r_best[called[named]], s_best[called[named]] = r_new[named], s_new[named]
            settled[called[win]] = True
            checked = to_check | hopeful
            d = checked[again]
            rows = np.flatnonzero(checked)
            vetoed[rows] = (against(fr_d[d], r_best[rows], t.odds)
                            | against(fs_d[d], s_best[rows], t.odds))
            # A read named plainly must find its rank close at the fine cut too (FINE_RANK_FIT,
            # or the deck's own limit: ``Deck.fine_rank_fit``).
            c = to_check[again]
            rows = np.flatnonzero(to_check)
            vetoed[rows] |= strays(fr_d[c], r_best[rows], self.rank_fit * fine_ranks.typical)
            p = paired[again]
            rows = np.flatnonzero(paired)
            vetoed[rows] = ~(confirmed(fr_d[p], r_best[rows], SURE)
                             & confirmed(fs_d[p], s_best[rows], SURE))
            # A split mark's part read surely but loosely, up to LATE_FIT, is named weakly
            # where the fine cut names its rank and suit as surely as it settles a close
            # call (``FINE_ODDS``), its rank close (see the note above ``LATE_FIT``).
            loose_part = hopeful & loosely & (loose <= LATE_FIT) & ~vetoed
            q = loose_part[again]
            rows = np.flatnonzero(loose_part)
            settled[rows[confirmed(fr_d[q], r_best[rows], FINE_ODDS)
                         & confirmed(fs_d[q], s_best[rows], FINE_ODDS)
                         & ~strays(fr_d[q], r_best[rows],
                                   self.rank_fit * fine_ranks.typical)]] = True
            # A deck without the fine cut guesses not.
            guess = hopeful & ~vetoed & ~settled
            guess[called[near]] = True
        vetoed &= confident
        confident = (confident & ~vetoed) | settled
        codes = self.codes(r_best, s_best)
        ends, right, down, width, center = self.placed(groups, pick, sense, codes)
        # Reads surely one of two cards (PAIR_FIT): the other name each gives.
        undecided = seen & ~confident & ~guess & ~settled & (loose < PAIR_FIT) & ~loosely
        r_other, s_other = runner_up(rd, PAIR_ODDS), runner_up(sd, PAIR_ODDS)
        rank_pair = undecided & (r_odds < t.odds) & (r_other >= 0) & (s_odds >= t.odds)
        suit_pair = undecided & (s_odds < t.odds) & (s_other >= 0) & (r_odds >= t.odds)
        others: list[str | None] = [None] * len(pick)
        for j in np.flatnonzero(rank_pair).tolist():
            others[j] = ranks.names[r_other[j]] + suits.names[s_best[j]]
        for j in np.flatnonzero(suit_pair).tolist():
            others[j] = ranks.names[r_best[j]] + suits.names[s_other[j]]
        # Python's numbers read once per array, not once per read.
        score_of, width_of, odds_of, fit_of = (np.minimum(r_p, s_p).tolist(), width.tolist(),
                                               odds.tolist(), loose.tolist())
        named_of, vetoed_of, settled_of, guess_of = (confident.tolist(), vetoed.tolist(),
                                                     settled.tolist(), guess.tolist())
        split_of = held[pick].tolist()
        # A ten's "0" named as surely as a card: the ten it is a part of (``reads.tens``).
        zero = ranks.names.index(TEN_PART) if TEN_PART in ranks.names else -1
        ten_of = [f"T{suits.names[s]}" if r == zero and named else None
                  for r, s, named in zip(r_best.tolist(), s_best.tolist(), named_of,
                                         strict=True)]
        # A ten's "0" read as surely, its hairline "1" lost from the ink but showing beside it
        # (``ten_one``): named its ten, weakly (``Read.settled``), its card placed as the
        # ten's index places it.
        image = pyramid.level(0)
        for j in np.flatnonzero(seen).tolist():
            ten = ten_of[j]
            if ten is not None and ten in self.code_at and one_beside(
                    image, ends[j, 0], right[j], down[j], width_of[j]):
                k = np.array([j])
                _, _, _, w, c = self.placed(groups, pick[k], sense[k], [ten])
                center[j], width_of[j] = c[0], float(w[0])
                codes[j], settled_of[j], ten_of[j] = ten, True, None
        reads = []
        for j in np.flatnonzero(seen).tolist():
            known, other = codes[j] in self.code_at, others[j]
            code = codes[j] if named_of[j] and known else None
            note = None if code else "vetoed" if vetoed_of[j] else UNSURE
            reads.append(Read(code, score_of[j], center[j], right[j], down[j], width_of[j],
                              note, odds_of[j], fit_of[j], settled=settled_of[j],
                              indices=((ends[j, 1], right[j], down[j]),),
                              guess=codes[j] if guess_of[j] and known else None,
                              pair=(codes[j], other) if known and other in self.code_at
                              else None, split=split_of[j], ten=ten_of[j]))
        return reads


def rank_fit(deck: Deck) -> float:
    """How far the fine cut may find a plainly named read's rank from its class, in its
    ``typical`` units: the deck's own limit (``Deck.fine_rank_fit``), else FINE_RANK_FIT."""
    return FINE_RANK_FIT if deck.fine_rank_fit is None else deck.fine_rank_fit


def held_close(fine: F64, ranks: NDArray[np.int64], limit: float) -> NDArray[np.bool_]:
    """Which close calls the fine cut (rank distances ``fine``) may settle as ``ranks``
    (``Naming.reads``): those it finds within ``limit`` of their class, as close as a read
    named plainly must be (``verdict.strays``; the deck's own limit, ``rank_fit``). See the
    note above ``FINE_RANK_FIT``."""
    out: NDArray[np.bool_] = ~strays(fine, ranks, limit)
    return out


def holds_part(groups: Groups) -> NDArray[np.bool_]:
    """Which candidates hold a part of a split mark (``ink.find_groups``)."""
    if groups.mark_map is None or groups.whole is None or not len(groups):
        return np.zeros(len(groups), np.bool_)
    return np.asarray((groups.members >= groups.mark_map.first_part).any(axis=1), np.bool_)
