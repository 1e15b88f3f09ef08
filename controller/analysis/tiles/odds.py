"""Exact Pai Gow tiles odds: every player hand against every dealer hand of the 28 tiles left.

35,960 player hands x 20,475 dealer hands = 736,281,000 matchups, counted as integers. The work
runs over the 8,130 face classes on both sides (``tile_classes``): a class pair counts as many
matchups as the player class has hands times the dealer hands of that class its tiles leave.
Each strategy is a table of rank codes per class (``strategy``), so a matchup is four integer
comparisons, done for a block of player classes against all dealer classes at once.

Outcomes follow the cards' rule (reference section 0 fact 6): a side wins when both its hands
beat the other's, loses when both are beaten or copied, else pushes; copies and every 0-0 go to
the bank. Commission is taken from the analysed side's wins, so its expectation per unit is
``(1 - commission) * win - loss`` and the house edge is minus that (reference section 4.1).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Final

import numpy as np
import numpy.typing as npt

from controller.rules.tiles.hands import DEFAULT_TILE_RULES, TileRules

from ..outcome import DEFAULT_COMMISSION, Outcome
from ..progress import Progress, Stages
from .classes import TileClasses, tile_classes, weight_matrix
from .strategy import AnalysisError, CodeArray, choices_table, strategy_table
from .ways import BANKER, OPTIMAL, PLAYER, has_sides, resolve_strategy

PLAYER_HANDS: Final = 35_960  # C(32, 4)
DEALER_HANDS: Final = 20_475  # C(28, 4)
MATCHUPS: Final = PLAYER_HANDS * DEALER_HANDS  # 736,281,000
BLOCK: Final = 256  # player classes per vectorised step: (256, 8130) arrays, 2 MB each

IntArray = npt.NDArray[np.int64]


@dataclass(frozen=True, slots=True, eq=False)
class ClassOdds:
    """Per player class: the outcomes of one physical hand of it against every dealer hand."""

    classes: TileClasses
    rows: npt.NDArray[np.intp]  # the player classes analysed (all of them for a full run)
    win: IntArray
    loss: IntArray
    push: IntArray
    choice: npt.NDArray[np.int8]  # the setting played: an index into the player table

    def outcome(self) -> Outcome:
        """Totals over every physical player hand of the classes analysed."""
        weights = self.classes.multiplicity[self.rows]
        return Outcome(int(weights @ self.win), int(weights @ self.loss),
                       int(weights @ self.push))


def enumerate_odds(
    player: CodeArray,
    dealer: CodeArray,
    *,
    banking: bool = False,
    commission: Fraction = DEFAULT_COMMISSION,
    classes: TileClasses | None = None,
    rows: npt.NDArray[np.intp] | None = None,
    progress: Progress | None = None,
) -> ClassOdds:
    """Count every matchup of the player classes in ``rows`` (default all) against the dealer.

    ``player`` is (N, S, 2): S candidate settings (low, high codes) per class; with S > 1 each
    class plays the candidate with the best expectation against the dealer's hands, which is the
    best response when the candidates are all its legal settings. ``dealer`` is (N, 1, 2).
    With ``banking`` the player is the bank: its copies and 0-0 hands win.
    """
    classes = tile_classes() if classes is None else classes
    rows = np.arange(len(classes), dtype=np.intp) if rows is None else np.asarray(rows, np.intp)
    if player.shape[0] != len(classes) or dealer.shape != (len(classes), 1, 2):
        raise AnalysisError(f"tables of shapes {player.shape!r} and {dealer.shape!r} do not "
                            f"fit {len(classes)} classes")
    # Doubled codes, the bank's side one higher: equal hands then compare as the bank's wins
    # and the win/loss tests below serve both the player and the bank.
    dealer_low = dealer[:, 0, 0].astype(np.int16) * 2 + (not banking)
    dealer_high = dealer[:, 0, 1].astype(np.int16) * 2 + (not banking)
    ours = player.astype(np.int16) * 2 + banking
    keep, pay = commission.denominator - commission.numerator, commission.denominator
    matrix = weight_matrix(classes)
    n = len(rows)
    out = {key: np.empty(n, dtype=np.int64) for key in ("win", "loss", "push")}
    choice = np.zeros(n, dtype=np.int8)
    for start in range(0, n, BLOCK):
        block = rows[start:start + BLOCK]
        part = slice(start, start + len(block))
        weights = matrix[block]  # (B, N) dealer hands per dealer class
        hands = weights.sum(axis=1, dtype=np.int64)  # 20,475 each
        best_score = np.full(len(block), np.iinfo(np.int64).min)
        for s in range(player.shape[1]):
            beats_low = ours[block, s, 0][:, None] > dealer_low
            beats_high = ours[block, s, 1][:, None] > dealer_high
            win = (weights * (beats_low & beats_high)).sum(axis=1, dtype=np.int64)
            loss = (weights * ~(beats_low | beats_high)).sum(axis=1, dtype=np.int64)
            score = keep * win - pay * loss
            better = score > best_score  # the first of equal scores stays
            best_score = np.where(better, score, best_score)
            choice[part] = np.where(better, s, choice[part])
            out["win"][part] = np.where(better, win, out["win"][part])
            out["loss"][part] = np.where(better, loss, out["loss"][part])
            out["push"][part] = np.where(better, hands - win - loss, out["push"][part])
        if progress is not None:
            progress(min(start + BLOCK, n), n)
    return ClassOdds(classes, rows, out["win"], out["loss"], out["push"], choice)


@dataclass(frozen=True, slots=True)
class TileOdds:
    """The result of ``analyze_tiles``: the analysed side's outcome and the run's terms."""

    way: str
    vs: str
    banking: bool
    commission: Fraction
    outcome: Outcome

    @property
    def side(self) -> str:
        """Which side the figures are for: ``player``, or ``banker`` when the player banks."""
        return "banker" if self.banking else "player"

    @property
    def house_edge(self) -> Fraction:
        """The analysed side's house edge, exactly."""
        return self.outcome.house_edge(self.commission)

    @property
    def other_edge(self) -> Fraction:
        """The other side's house edge in the same matchups, paying commission on its wins."""
        return self.outcome.mirrored().house_edge(self.commission)


def analyze_tiles(
    way: str,
    vs: str | None = None,
    *,
    banking: bool = False,
    rules: TileRules = DEFAULT_TILE_RULES,
    commission: Fraction = DEFAULT_COMMISSION,
    progress: Progress | None = None,
) -> TileOdds:
    """Enumerate all 736,281,000 matchups: the dealer sets by ``way``, the player by ``vs``
    (default the same way; ``optimal`` for the best response to ``way``).

    Each way plays its bank's side (``banker``) or the other (``player``): the dealer banks
    unless ``banking``; this matters only to ways with side rules (luger-optimal)."""
    vs = way if vs is None else vs
    classes = tile_classes()
    dealer_side, player_side = (PLAYER, BANKER) if banking else (BANKER, PLAYER)
    same = vs == way and not has_sides(way)  # the player's table is the dealer's
    # Rough relative costs: a table of a way, all settings' table, the weights, the counting.
    stages = Stages(progress, (2, 0 if same else 2, 3, 2 if vs == OPTIMAL else 1))
    dealer_way = resolve_strategy(way, rules, dealer_side)
    player_way = None if vs == OPTIMAL or same else resolve_strategy(vs, rules, player_side)
    dealer = strategy_table(classes, dealer_way, rules, stages.stage(0))
    if player_way is not None:
        player = strategy_table(classes, player_way, rules, stages.stage(1))
    elif vs == OPTIMAL:
        player, _ = choices_table(classes, rules, stages.stage(1))
    else:
        player = dealer
    weight_matrix(classes, stages.stage(2))
    odds = enumerate_odds(player, dealer, banking=banking, commission=commission,
                          classes=classes, progress=stages.stage(3))
    return TileOdds(way, vs, banking, commission, odds.outcome())
