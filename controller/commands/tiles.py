"""The tile game's commands: set, compare, settle and deal Pai Gow tiles."""

from __future__ import annotations

import argparse
import json

from ..config.house_ways import tile_engine
from ..profiles.tiles import DEFAULT_TILE_PROFILE, load_tile_profile
from ..rules.dice import TILE_POSITIONS, Dice
from ..rules.errors import RulesError
from ..rules.poker.dealing import deal, parse_positions
from ..rules.tiles.comparison import compare_tile_hands
from ..rules.tiles.dominoes import format_tiles, parse_tiles
from ..rules.tiles.hands import describe as describe_tiles
from ..rules.tiles.setting import four
from .common import UsageError, compare_pairs, read_lines


def set_tiles(args: argparse.Namespace) -> int:
    """Set four tiles by a tile house way (default: the tile profile's, Foxwoods)."""
    profile = load_tile_profile(args.profile or DEFAULT_TILE_PROFILE)
    engine = tile_engine(args.way or profile.house_way, profile.ruleset,
                         args.side or "banker")
    if args.file:
        hands = [(f"{args.file}:{n}", line) for n, line in read_lines(args.file)]
    elif args.cards:
        hands = [("command line", " ".join(args.cards))]
    else:
        raise UsageError("give four tiles (e.g. 6-6 4-5 1-2 3-3) or --file F")
    for where, text in hands:
        try:
            tiles = four(text)
            choice = engine.set_hand(tiles)
        except RulesError as err:
            raise UsageError(f"{where}: {err}") from err
        low_words, high_words = choice.setting.words(profile.ruleset)
        setting = choice.setting.setting
        if args.json:
            print(json.dumps({
                "tiles": [str(t) for t in tiles], "way": engine.way.name, "side": engine.side,
                "low": [str(t) for t in setting.low], "high": [str(t) for t in setting.high],
                "low_rank": low_words, "high_rank": high_words,
                "rule": choice.rule, "source": choice.source,
            }))
        else:
            print(f"low  {format_tiles(setting.low):<8} {low_words}")
            print(f"high {format_tiles(setting.high):<8} {high_words}")
            print(f"rule {choice.rule}: {choice.source}")
    return 0


def compare_tiles(args: argparse.Namespace) -> int:
    """Compare a player's two-tile hand with the banker's; copies and 0-0 go to the banker."""
    rules = load_tile_profile(args.profile or DEFAULT_TILE_PROFILE).ruleset
    for where, player_text, banker_text in compare_pairs(args, '"6-6 4-5" "1-1 3-6"'):
        try:
            player = parse_tiles(player_text, 2, what="player hand")
            banker = parse_tiles(banker_text, 2, what="banker hand")
            result = compare_tile_hands(player, banker, rules)
        except RulesError as err:
            raise UsageError(f"{where}: {err}") from err
        obj = {
            "player": [str(t) for t in player], "banker": [str(t) for t in banker],
            "winner": result.winner.value, "copy": result.copy,
            "player_rank": describe_tiles(player, rules),
            "banker_rank": describe_tiles(banker, rules),
        }
        if args.json:
            print(json.dumps(obj))
        else:
            note = " (copy: ties and every 0-0 go to the banker)" if result.copy else ""
            print(f"{result.winner.value} wins{note}: player {obj['player_rank']}, "
                  f"banker {obj['banker_rank']}")
    return 0


def deal_tiles(args: argparse.Namespace) -> int:
    """Which position receives which of the eight stacks, from the dice."""
    vacant = parse_positions(args.vacant) if args.vacant else ()
    record = deal(Dice.parse(args.dice), vacant, TILE_POSITIONS)
    if args.json:
        print(json.dumps({
            "game": "tiles", "dice": list(record.dice.faces), "total": record.dice.total,
            "first": record.first,
            "stacks": [{"stack": p.number, "position": p.position, "collect": p.collect}
                       for p in record.packets],
        }))
        return 0
    print(f"dice {record.dice} = {record.dice.total}: stack 1 goes to position {record.first}")
    for packet in record.packets:
        who = "banker (dealer)" if packet.position == 1 else f"position {packet.position}"
        note = "  (vacant: discarded)" if packet.collect else ""
        print(f"stack {packet.number} -> {who}{note}")
    print("all 32 tiles dealt")
    return 0
