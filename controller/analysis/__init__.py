"""Exact odds by enumeration (numpy): outside the pure rules core, built on it."""

from __future__ import annotations

from .outcome import Outcome
from .progress import Progress, ProgressBar
from .tiles.odds import MATCHUPS, ClassOdds, TileOdds, analyze_tiles, enumerate_odds
from .tiles.strategy import AnalysisError, TileStrategy
from .tiles.ways import OPTIMAL

__all__ = [
    "MATCHUPS", "OPTIMAL", "AnalysisError", "ClassOdds", "Outcome", "Progress", "ProgressBar",
    "TileOdds", "TileStrategy", "analyze_tiles", "enumerate_odds",
]
