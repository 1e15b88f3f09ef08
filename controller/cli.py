"""The ``paigow`` command line. Bad input exits with status 2 and one line naming the offender."""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from typing import NoReturn

from .catalog import load_tile_way, poker_way_names, tile_way_names
from .commands import audit as audit_commands
from .commands import devices as device_commands
from .commands import display as display_commands
from .commands import journal as journal_commands
from .commands import poker_analysis as poker_analysis_commands
from .commands import replay as replay_commands
from .commands import staff as staff_commands
from .commands import table as table_commands
from .commands import tiles
from .commands import tiles_analysis as tiles_analysis_commands
from .commands import vision as vision_commands
from .commands.common import UsageError, compare_pairs, read_lines
from .errors import ConfigError
from .files import read_text
from .locations import use_config
from .profile import DEFAULT_PROFILE, load_profile
from .round_file import load_round, settle_round, settlement_json, settlement_text
from .rules.cards import check_distinct, parse_cards
from .rules.comparison import compare_hands
from .rules.dealing import deal, parse_positions
from .rules.dice import Dice
from .rules.errors import CardCountError, RulesError
from .rules.house_way import HouseWayChoice
from .rules.poker_eval import describe
from .rules.setting import seven
from .startup import add_logging_options, fail, run_handler, start_process
from .tile_profile import DEFAULT_TILE_PROFILE
from .tile_round import is_tile_round


def _choice_json(cards: str, way: str, choice: HouseWayChoice) -> dict[str, object]:
    low_words, high_words = choice.setting.words()
    setting = choice.setting.setting
    return {
        "hand": [str(c) for c in seven(cards)],
        "way": way,
        "low": [str(c) for c in setting.low],
        "high": [str(c) for c in setting.high],
        "low_rank": low_words,
        "high_rank": high_words,
        "rule": choice.rule,
        "source": choice.source,
    }


def cmd_set(args: argparse.Namespace) -> int:
    """Set seven-card hands (or four tiles) by a house way."""
    if args.game == "tiles":
        return tiles.set_tiles(args)
    if args.side is not None:
        raise UsageError(f"--side {args.side} is for tile ways (poker ways have one column)")
    engine = load_profile(args.profile or DEFAULT_PROFILE).engine(args.way)
    way = engine.way.name
    if args.file:
        hands = [(f"{args.file}:{n}", line) for n, line in read_lines(args.file)]
    elif args.cards:
        hands = [("command line", " ".join(args.cards))]
    else:
        raise UsageError("give seven cards or --file F")
    for where, text in hands:
        try:
            choice = engine.set_hand(text)
        except RulesError as err:
            raise UsageError(f"{where}: {err}") from err
        if args.json:
            print(json.dumps(_choice_json(text, way, choice)))
        else:
            low_words, high_words = choice.setting.words()
            setting = choice.setting.setting
            low = " ".join(map(str, setting.low))
            high = " ".join(map(str, setting.high))
            print(f"low  {low:<6} {low_words}")
            print(f"high {high:<15} {high_words}")
            print(f"rule {choice.rule}: {choice.source}")
    return 0


def cmd_compare(args: argparse.Namespace) -> int:
    """Compare a player's hand with the banker's (two or five cards each, or two tiles)."""
    if args.game == "tiles":
        return tiles.compare_tiles(args)
    evaluator = load_profile(args.profile or DEFAULT_PROFILE).evaluator()
    for where, player_text, banker_text in compare_pairs(args, '"Ah Kd" "Qs Qd"'):
        try:
            player = parse_cards(player_text, what="player hand")
            banker = parse_cards(banker_text, what="banker hand")
            if len(player) not in (2, 5) or len(banker) != len(player):
                raise CardCountError(
                    f"compare two-card with two-card or five-card with five-card hands, got "
                    f"{len(player)} and {len(banker)}: {player_text.strip()!r} | "
                    f"{banker_text.strip()!r}"
                )
            check_distinct([("player hand", player), ("banker hand", banker)])
            result = compare_hands(player, banker, evaluator)
        except RulesError as err:
            raise UsageError(f"{where}: {err}") from err
        obj = {
            "player": [str(c) for c in player], "banker": [str(c) for c in banker],
            "winner": result.winner.value, "copy": result.copy,
            "player_rank": describe(player, evaluator), "banker_rank": describe(banker, evaluator),
        }
        if args.json:
            print(json.dumps(obj))
        else:
            note = " (copy: ties go to the banker)" if result.copy else ""
            print(f"{result.winner.value} wins{note}: player {obj['player_rank']}, "
                  f"banker {obj['banker_rank']}")
    return 0


def cmd_settle(args: argparse.Namespace) -> int:
    """Settle a round given as JSON: outcome and payout per seat."""
    raw = read_text(args.round, "round file")
    if is_tile_round(raw):
        return tiles.settle_tiles(args, raw)
    round_ = load_round(raw, args.round)
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
    if args.game == "tiles":
        return tiles.deal_tiles(args)
    record = deal(Dice.parse(args.dice), parse_positions(args.vacant) if args.vacant else ())
    if args.json:
        print(json.dumps({
            "dice": list(record.dice.faces), "total": record.dice.total, "first": record.first,
            "packets": [{"packet": p.number, "position": p.position, "collect": p.collect}
                        for p in record.packets],
            "unused": 4,
        }))
        return 0
    print(f"dice {record.dice} = {record.dice.total}: packet 1 goes to position {record.first}")
    for packet in record.packets:
        who = "dealer" if packet.position == 1 else f"position {packet.position}"
        note = "  (vacant: collected)" if packet.collect else ""
        print(f"packet {packet.number} -> {who}{note}")
    print("4 cards unused")
    return 0


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
    poker_analysis_commands.add_parsers(sub)
    table_commands.add_parsers(sub)
    staff_commands.add_parsers(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``paigow`` console script."""
    start_process()  # before numpy loads: the process's settings (``controller.startup``)
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
