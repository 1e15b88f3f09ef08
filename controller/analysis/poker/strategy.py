"""A Pai Gow Poker house way as a table: the ranks of its setting for every hand class.

The table is the exact house way, not a re-implementation: the rules core's
``HouseWayEngine`` sets one representative hand of each class, and every hand of a class gets a
setting of the same two ranks (``poker_classes``).  This is the one place the poker analysis
meets the engine; every shipped way works. Setting a hand through the engine is slow next to
the numpy passes, so the 292,253 classes of the full deck are split over two forked processes
by default (timings: ``docs/benchmarks.md``).
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from controller.config.house_ways import load_poker_way
from controller.rules.errors import RulesError
from controller.rules.poker.hand_rules import DEFAULT_RULES, PokerRules
from controller.rules.poker.hands import Evaluator
from controller.rules.poker.house_way import HouseWayEngine

from ..progress import Progress
from ..tiles.strategy import AnalysisError
from . import cache as poker_cache
from .classes import ALL_RANKS, PokerClasses

RankArray = npt.NDArray[np.int32]
_CHUNK = 8192  # classes per task (and per progress report)


@dataclass(frozen=True, slots=True, eq=False)
class WayTable:
    """The low and high rank (``poker_eval`` ints) the way sets for each class."""

    way: str
    rules: PokerRules
    low: RankArray
    high: RankArray


def way_engine(name: str, rules: PokerRules = DEFAULT_RULES) -> HouseWayEngine:
    """The engine of a shipped house way; an unknown name is an ``AnalysisError`` listing them."""
    try:
        return HouseWayEngine(load_poker_way(name), Evaluator(rules))
    except RulesError as err:
        raise AnalysisError(str(err)) from err


def default_workers() -> int:
    """Processes for a table: the CPUs this process may use, at most two;
    ``PAIGOW_WORKERS`` overrides."""
    text = os.environ.get("PAIGOW_WORKERS")
    if text is not None:
        if not text.isdigit() or int(text) < 1:
            raise AnalysisError(f"PAIGOW_WORKERS must be a positive integer, not {text!r}")
        return int(text)
    return max(1, min(2, len(os.sched_getaffinity(0))))


# The job of the forked workers: set before the pool starts, inherited by fork.
_JOB: tuple[PokerClasses, str, PokerRules] | None = None


def _set_chunk(start: int) -> tuple[int, RankArray, RankArray]:
    assert _JOB is not None
    classes, name, rules = _JOB
    engine = way_engine(name, rules)
    stop = min(start + _CHUNK, len(classes))
    low = np.empty(stop - start, dtype=np.int32)
    high = np.empty(stop - start, dtype=np.int32)
    for i in range(start, stop):
        try:
            ranked = engine.set_hand(classes.representative(i)).setting
        except RulesError as err:
            hand = " ".join(map(str, classes.representative(i)))
            raise AnalysisError(f"house way {name!r} cannot set {hand!r}: {err}") from err
        low[i - start] = ranked.low_rank
        high[i - start] = ranked.high_rank
    return start, low, high


def way_table(classes: PokerClasses, name: str, rules: PokerRules = DEFAULT_RULES,
              progress: Progress | None = None, workers: int | None = None,
              cache: bool = True) -> WayTable:
    """Set one hand of every class by the way ``name``, in ``workers`` processes (forked, each
    taking chunks of classes; default ``default_workers()``).  Full-deck tables are kept on disk
    (``poker_cache``) unless ``cache`` is False or ``PAIGOW_CACHE=off``."""
    way_engine(name, rules)  # an unknown name fails here, before any work
    full = cache and classes.ranks == ALL_RANKS and classes.joker
    kept = poker_cache.load(name, rules, len(classes)) if full else None
    if kept is not None:
        if progress is not None:
            progress(1, 1)
        return WayTable(name, rules, kept[0], kept[1])
    table = _compute(classes, name, rules, progress, workers)
    if full:
        poker_cache.store(name, rules, (table.low, table.high))
    return table


def _compute(classes: PokerClasses, name: str, rules: PokerRules, progress: Progress | None,
             workers: int | None) -> WayTable:
    global _JOB
    workers = default_workers() if workers is None else workers
    n = len(classes)
    low = np.empty(n, dtype=np.int32)
    high = np.empty(n, dtype=np.int32)
    starts = list(range(0, n, _CHUNK))
    _JOB = (classes, name, rules)
    try:
        if workers > 1 and len(starts) > 1:
            with multiprocessing.get_context("fork").Pool(workers) as pool:
                parts = pool.imap_unordered(_set_chunk, starts)
                _collect(parts, low, high, n, progress)
        else:
            _collect(map(_set_chunk, starts), low, high, n, progress)
    finally:
        _JOB = None
    return WayTable(name, rules, low, high)


def _collect(parts: Iterable[tuple[int, RankArray, RankArray]], low: RankArray,
             high: RankArray, n: int, progress: Progress | None) -> None:
    done = 0
    for start, part_low, part_high in parts:
        low[start:start + len(part_low)] = part_low
        high[start:start + len(part_high)] = part_high
        done += len(part_low)
        if progress is not None:
            progress(done, n)
