"""The ``paigow`` command line. Bad input exits with status 2 and one line naming the offender."""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from typing import NoReturn

from .commands import audit as audit_commands
from .commands import camera as camera_commands
from .commands import demo as demo_commands
from .commands import devices as device_commands
from .commands import display as display_commands
from .commands import journal as journal_commands
from .commands import poker, tiles
from .commands import replay as replay_commands
from .commands import staff as staff_commands
from .commands import table as table_commands
from .commands import vision as vision_commands
from .commands.analysis import poker as poker_analysis_commands
from .commands.analysis import tiles as tiles_analysis_commands
from .commands.common import UsageError
from .commands.startup import add_logging_options, fail, run_handler, start_process
from .config.files import read_text
from .config.house_ways import load_tile_way, poker_way_names, tile_way_names
from .config.locations import use_config
from .errors import ConfigError
from .profiles.poker import DEFAULT_PROFILE, load_profile
from .profiles.tiles import DEFAULT_TILE_PROFILE
from .rules.errors import RulesError
from .settle import load_round, settle_round, settlement_json, settlement_text


def cmd_set(args: argparse.Namespace) -> int:
    """Set seven-card hands (or four tiles) by a house way."""
    return (tiles.set_tiles if args.game == "tiles" else poker.set_poker)(args)


def cmd_compare(args: argparse.Namespace) -> int:
    """Compare a player's hand with the banker's (two or five cards each, or two tiles)."""
    return (tiles.compare_tiles if args.game == "tiles" else poker.compare_poker)(args)


def cmd_settle(args: argparse.Namespace) -> int:
    """Settle a round given as JSON: outcome and payout per seat."""
    round_ = load_round(read_text(args.round, "round file"), args.round)
    try:
        result = settle_round(round_)
    except RulesError as err:
        raise UsageError(f"{args.round}: {err}") from err
    if args.json:
        print(json.dumps(settlement_json(result, round_)))
    else:
        print(settlement_text(result, round_))
    return 0


def cmd_deal(args: argparse.Namespace) -> int:
    """Which position receives which packet (or stack of tiles), from the dice."""
    return (tiles.deal_tiles if args.game == "tiles" else poker.deal_poker)(args)


def cmd_ways(args: argparse.Namespace) -> int:
    """List the shipped house ways of both games."""
    rows = [("poker", name, load_profile(DEFAULT_PROFILE).engine(name).way)
            for name in poker_way_names()]
    listed = [(game, name, way.title, way.version, way.source) for game, name, way in rows]
    listed += [("tiles", name, w.title, w.version, w.source)
               for name in tile_way_names() for w in [load_tile_way(name)]]
    for game, name, title, version, source in listed:
        if args.json:
            print(json.dumps({"game": game, "name": name, "title": title, "version": version,
                              "source": source}))
        else:
            print(f"{game:<6} {name:<14} {title}")
    return 0


def cmd_analyze(args: argparse.Namespace) -> int:
    """Exact odds by enumerating every player hand against every dealer hand."""
    if args.game == "poker":
        tiles_analysis_commands.check_poker_options(args)
        return poker_analysis_commands.analyze_poker(args)
    poker_analysis_commands.check_tiles_options(args)
    return tiles_analysis_commands.analyze_tiles(args)


class _Parser(argparse.ArgumentParser):
    """An argument parser whose mistakes are one line and exit status 2."""

    def error(self, message: str) -> NoReturn:
        fail(message if self.prog == "paigow" else f"{self.prog}: {message}")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand."""
    parser = _Parser(prog="paigow", description=__doc__)
    add_logging_options(parser)
    parser.add_argument("--config", metavar="DIR",
                        help="the casino's own config folder (house ways, profiles, tables, "
                             "layouts), searched before the shipped data; or $PAIGOW_CONFIG")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser("set", help="set a hand by the house way")
    p.add_argument("game", choices=["poker", "tiles"])
    p.add_argument("cards", nargs="*", help="seven cards, e.g. As Kd Qh 9s 9c 4d Jk, "
                                            "or four tiles, e.g. 6-6 4-5 1-2 3-3")
    p.add_argument("--way", help="house way name (default: the profile's; see 'paigow ways')")
    p.add_argument("--profile", help=f"table profile (ruleset); default {DEFAULT_PROFILE}, "
                                     f"or {DEFAULT_TILE_PROFILE} for tiles")
    p.add_argument("--file", help="one hand per line ('-' for standard input)")
    p.add_argument("--side", choices=["banker", "player"],
                   help="tiles: the way's banker (default) or player column")
    p.add_argument("--json", action="store_true", help="one JSON object per hand")
    p.set_defaults(handler=cmd_set)

    p = sub.add_parser("compare", help="player hand against banker hand")
    p.add_argument("game", choices=["poker", "tiles"])
    p.add_argument("hands", nargs="*",
                   help='two hands, e.g. "Ah Kd" "Qs Qd", or "6-6 4-5" "1-1 3-6" for tiles')
    p.add_argument("--profile", help=f"table profile (ruleset); default {DEFAULT_PROFILE}, "
                                     f"or {DEFAULT_TILE_PROFILE} for tiles")
    p.add_argument("--file", help="lines 'PLAYER | BANKER' ('-' for standard input)")
    p.add_argument("--json", action="store_true", help="one JSON object per comparison")
    p.set_defaults(handler=cmd_compare)

    p = sub.add_parser("settle", help="settle a round given as JSON")
    p.add_argument("round", metavar="ROUND.json", help="the round ('-' for standard input)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(handler=cmd_settle)

    p = sub.add_parser("deal", help="which position receives which packet (or stack of tiles)")
    p.add_argument("game", nargs="?", choices=["poker", "tiles"], default="poker")
    p.add_argument("--dice", required=True, help="three dice, e.g. 3,5,6")
    p.add_argument("--vacant", help="vacant positions, e.g. 4,6")
    p.add_argument("--json", action="store_true")
    p.set_defaults(handler=cmd_deal)

    p = sub.add_parser("ways", help="list the shipped house ways")
    p.add_argument("--json", action="store_true")
    p.set_defaults(handler=cmd_ways)

    p = sub.add_parser("analyze", help="exact odds: every hand against every dealer hand")
    p.add_argument("game", choices=["tiles", "poker"])
    p.add_argument("--way", required=True, help="the dealer's house way")
    p.add_argument("--vs", help="the player's way, or 'optimal' (default: the dealer's way)")
    p.add_argument("--banking", action="store_true", help="the player banks")
    p.add_argument("--json", action="store_true", help="one JSON object with the figures")
    poker_analysis_commands.add_analyze_options(p)
    tiles_analysis_commands.add_analyze_options(p)
    p.set_defaults(handler=cmd_analyze)

    journal_commands.add_parsers(sub)
    audit_commands.add_parsers(sub)
    device_commands.add_parsers(sub)
    replay_commands.add_parsers(sub)
    display_commands.add_parsers(sub)
    vision_commands.add_parsers(sub)
    camera_commands.add_parsers(sub)
    poker_analysis_commands.add_parsers(sub)
    demo_commands.add_parsers(sub)
    table_commands.add_parsers(sub)
    staff_commands.add_parsers(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``paigow`` console script."""
    start_process()  # before numpy loads: the process's settings (``controller.commands.startup``)
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    # Cards may follow options ("set poker --way mgm As Kd ..."): argparse leaves them over.
    if extra and isinstance(getattr(args, "cards", None), list):
        unknown = [e for e in extra if e.startswith("--")]
        if unknown:
            parser.error(f"unrecognized arguments: {' '.join(unknown)}")
        args.cards.extend(extra)
    elif extra:
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    if args.config is not None:
        try:
            use_config(args.config)  # before any config file is read (the loaders cache)
        except ConfigError as err:
            parser.error(str(err))
    return run_handler(args)


if __name__ == "__main__":
    raise SystemExit(main())
