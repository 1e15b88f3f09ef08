"""Pai Gow Poker odds: ``analyze poker`` (exhaustive distribution or simulation) and ``ev poker``.

``analyze`` itself is defined in ``controller/cli.py`` for both games; this module adds the
poker options to it (``add_analyze_options``), runs it for poker (``analyze_poker``) and
registers ``ev`` (``add_parsers``).  numpy is imported only when a command runs.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from ...profiles.poker import DEFAULT_PROFILE, load_profile
from ...rules.poker.cards import format_cards
from ...rules.poker.setting import seven
from ..common import UsageError

DEFAULT_ROUNDS = 1_000_000
_POKER_ONLY = ("exhaustive", "rounds", "seed", "profile")


def add_analyze_options(p: argparse.ArgumentParser) -> None:
    """The poker options of ``paigow analyze``."""
    p.add_argument("--exhaustive", action="store_true",
                   help="poker: the house way's high and low hands over all 154,143,080 hands")
    p.add_argument("--rounds", type=int,
                   help=f"poker: rounds to simulate (default {DEFAULT_ROUNDS:,})")
    p.add_argument("--seed", type=int, help="poker: seeded draws for a repeatable simulation")
    p.add_argument("--profile", help=f"poker: table profile (ruleset); default {DEFAULT_PROFILE}")


def check_tiles_options(args: argparse.Namespace) -> None:
    """``analyze tiles`` takes none of the poker options."""
    for name in _POKER_ONLY:
        if getattr(args, name, None) not in (None, False):
            raise UsageError(f"--{name} is for 'analyze poker', not tiles")


def analyze_poker(args: argparse.Namespace) -> int:
    """The exhaustive distribution (``--exhaustive``) or a simulation against ``--vs``."""
    from ...analysis.poker.distribution import exhaustive
    from ...analysis.poker.report import distribution_json, distribution_text
    from ...analysis.poker.strategy import way_engine
    from ...analysis.progress import ProgressBar

    rules = load_profile(args.profile or DEFAULT_PROFILE).ruleset
    way_engine(args.way, rules)  # an unknown way fails before the long work
    if args.exhaustive:
        for name in ("vs", "rounds", "seed", "banking"):
            if getattr(args, name) not in (None, False):
                raise UsageError(f"--{name} is for the simulation; --exhaustive counts the "
                                 f"house way's own hands")
        start = time.perf_counter()
        with ProgressBar(f"analyze poker {args.way}") as bar:
            dist = exhaustive(args.way, rules, progress=bar)
        seconds = time.perf_counter() - start
        print(json.dumps(distribution_json(dist, seconds)) if args.json
              else distribution_text(dist, seconds))
        return 0
    return _simulate(args, rules)


def _simulate(args: argparse.Namespace, rules: object) -> int:
    from ...analysis.poker.classes import poker_classes
    from ...analysis.poker.lookup import build_lookup
    from ...analysis.poker.report import simulation_json, simulation_text
    from ...analysis.poker.simulation import simulate
    from ...analysis.poker.strategy import way_engine, way_table
    from ...analysis.progress import ProgressBar, Stages
    from ...rules.poker.hand_rules import PokerRules

    assert isinstance(rules, PokerRules)
    rounds = DEFAULT_ROUNDS if args.rounds is None else args.rounds
    if rounds <= 0:
        raise UsageError(f"--rounds must be positive, got {rounds!r}")
    if args.seed is not None and args.seed < 0:
        raise UsageError(f"--seed must be zero or positive, got {args.seed!r}")
    vs = args.vs or args.way
    if vs == "optimal":
        raise UsageError("--vs optimal is not available for poker; name a house way")
    way_engine(vs, rules)  # checked before the long work
    start = time.perf_counter()
    with ProgressBar(f"analyze poker {vs} vs {args.way}") as bar:
        stages = Stages(bar, (1, 12, 12 if vs != args.way else 0, max(rounds / 200_000, 0.1)))
        classes = poker_classes()
        lookup = build_lookup(classes)
        dealer = way_table(classes, args.way, rules, stages.stage(1))
        player = dealer if vs == args.way else way_table(classes, vs, rules, stages.stage(2))
        tables = time.perf_counter()
        sim = simulate(lookup, dealer, player, rounds, seed=args.seed, banking=args.banking,
                       progress=stages.stage(3))
    seconds = time.perf_counter() - tables
    if args.json:
        out = simulation_json(sim, seconds)
        out["setup_seconds"] = round(tables - start, 3)
        print(json.dumps(out))
    else:
        print(simulation_text(sim, seconds))
        print(f"(setting up the house-way tables took {tables - start:.1f} s more)")
    return 0


def cmd_ev(args: argparse.Namespace) -> int:
    """The exact EV of every legal setting of seven cards against a house-way dealer."""
    from ...analysis.poker.classes import poker_classes
    from ...analysis.poker.ev import setting_values
    from ...analysis.poker.report import ev_json, ev_text
    from ...analysis.poker.strategy import way_engine, way_table
    from ...analysis.progress import ProgressBar

    if not args.cards:
        raise UsageError("give seven cards, e.g. As Kd Qh 9s 9c 4d Jk")
    hand = seven(" ".join(args.cards))
    profile = load_profile(args.profile or DEFAULT_PROFILE)
    vs = args.vs or profile.house_way
    engine = way_engine(vs, profile.ruleset)
    start = time.perf_counter()
    held = {int(c) for c in hand}
    with ProgressBar(f"ev poker vs {vs}") as bar:
        classes = poker_classes()
        dealer = way_table(classes, vs, profile.ruleset, bar)
        values = setting_values(hand, classes, dealer, [c for c in range(53) if c not in held])
    seconds = time.perf_counter() - start
    own = engine.set_hand(hand).setting
    chosen = next((i for i, v in enumerate(values)
                   if (v.setting.low_rank, v.setting.high_rank) == (own.low_rank, own.high_rank)),
                  None)
    text = format_cards(hand)
    print(json.dumps(ev_json(text, vs, values, chosen, seconds)) if args.json
          else ev_text(text, vs, values, chosen, seconds))
    return 0


def add_parsers(sub: Any) -> None:
    """Register ``ev``."""
    p = sub.add_parser("ev", help="exact EV of each setting of a hand against the house way")
    p.add_argument("game", choices=["poker"])
    p.add_argument("cards", nargs="*", help="seven cards, e.g. As Kd Qh 9s 9c 4d Jk")
    p.add_argument("--vs", help="the dealer's house way (default: the profile's)")
    p.add_argument("--profile", help=f"table profile (ruleset); default {DEFAULT_PROFILE}")
    p.add_argument("--json", action="store_true", help="one JSON object")
    p.set_defaults(handler=cmd_ev)
