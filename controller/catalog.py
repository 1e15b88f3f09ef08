"""Finding and loading the data files under ``config/``: house ways and table profiles."""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path

from .rules.errors import HouseWayError
from .rules.house_way import HouseWayEngine
from .rules.house_way_model import HouseWay
from .rules.poker_eval import Evaluator
from .rules.poker_rules import DEFAULT_RULES, PokerRules


def config_dir() -> Path:
    """The config folder: ``$PAIGOW_CONFIG`` or the repository's ``config/``."""
    override = os.environ.get("PAIGOW_CONFIG")
    return Path(override) if override else Path(__file__).resolve().parents[1] / "config"


def poker_way_dir() -> Path:
    """Where the Pai Gow Poker house ways live."""
    return config_dir() / "house_ways" / "poker"


def poker_way_names() -> list[str]:
    """The names of the shipped Pai Gow Poker house ways."""
    return sorted(p.stem for p in poker_way_dir().glob("*.toml"))


@cache
def load_poker_way(name: str) -> HouseWay:
    """Read and validate one house way by name; an unknown name lists the known ones."""
    path = poker_way_dir() / f"{name}.toml"
    if not path.is_file():
        raise HouseWayError(f"unknown house way {name!r}; known: {', '.join(poker_way_names())}")
    return HouseWay.from_toml(path.read_text(encoding="utf-8"), name)


def poker_engine(name: str, rules: PokerRules = DEFAULT_RULES) -> HouseWayEngine:
    """A house-way engine for the named way under the given ruleset."""
    return HouseWayEngine(load_poker_way(name), Evaluator(rules))
