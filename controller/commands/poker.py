"""The card game's commands: set, compare and deal Pai Gow Poker hands (``paigow set poker``,
``compare poker``, ``deal poker``).  ``settle`` reads both games' round files
(``controller.settle``)."""

from __future__ import annotations

import argparse
import json

from ..profiles.poker import DEFAULT_PROFILE, load_profile
from ..rules.dice import Dice
from ..rules.errors import CardCountError, RulesError
from ..rules.poker.cards import check_distinct, parse_cards
from ..rules.poker.comparison import compare_hands
from ..rules.poker.dealing import deal, parse_positions
from ..rules.poker.hands import describe
from ..rules.poker.house_way import HouseWayChoice
from ..rules.poker.setting import seven
from .common import UsageError, compare_pairs, read_lines


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


def set_poker(args: argparse.Namespace) -> int:
    """Set seven-card hands by a house way."""
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


def compare_poker(args: argparse.Namespace) -> int:
    """Compare a player's hand with the banker's (two or five cards each)."""
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


def deal_poker(args: argparse.Namespace) -> int:
    """Which position receives which seven-card packet, from the dice."""
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
