"""The ``paigow`` command line. Bad input exits with status 2 and one line naming the offender."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import NoReturn

from .catalog import poker_engine, poker_way_names
from .rules.errors import RulesError
from .rules.house_way import HouseWayChoice
from .rules.setting import seven

Handler = Callable[[argparse.Namespace], int]


class UsageError(Exception):
    """A command-line mistake: reported in one line with exit status 2."""


def _fail(message: str) -> NoReturn:
    print(f"paigow: error: {message}", file=sys.stderr)
    raise SystemExit(2)


def _lines(path: str) -> Iterator[tuple[int, str]]:
    """Non-blank, non-comment lines of a file (``-`` for standard input), numbered."""
    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    except OSError as err:
        raise UsageError(f"cannot read {path!r}: {err.strerror}") from err
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.split("#", 1)[0].strip()
        if stripped:
            yield number, stripped


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
    """Set seven-card hands by a house way."""
    engine = poker_engine(args.way)
    if args.file:
        hands = [(f"{args.file}:{n}", line) for n, line in _lines(args.file)]
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
            print(json.dumps(_choice_json(text, args.way, choice)))
        else:
            low_words, high_words = choice.setting.words()
            setting = choice.setting.setting
            low = " ".join(map(str, setting.low))
            high = " ".join(map(str, setting.high))
            print(f"low  {low:<6} {low_words}")
            print(f"high {high:<15} {high_words}")
            print(f"rule {choice.rule}: {choice.source}")
    return 0


def cmd_ways(args: argparse.Namespace) -> int:
    """List the shipped house ways."""
    for name in poker_way_names():
        way = poker_engine(name).way
        if args.json:
            print(json.dumps({"game": "poker", "name": name, "title": way.title,
                              "version": way.version, "source": way.source}))
        else:
            print(f"poker  {name:<14} {way.title}")
    return 0


class _Parser(argparse.ArgumentParser):
    """An argument parser whose mistakes are one line and exit status 2."""

    def error(self, message: str) -> NoReturn:
        _fail(message if self.prog == "paigow" else f"{self.prog}: {message}")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand."""
    parser = _Parser(prog="paigow", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser("set", help="set a hand by the house way")
    p.add_argument("game", choices=["poker"])
    p.add_argument("cards", nargs="*", help="seven cards, e.g. As Kd Qh 9s 9c 4d Jk")
    p.add_argument("--way", default="trump-plaza", help="house way name (see 'paigow ways')")
    p.add_argument("--file", help="one hand per line ('-' for standard input)")
    p.add_argument("--json", action="store_true", help="one JSON object per hand")
    p.set_defaults(handler=cmd_set)

    p = sub.add_parser("ways", help="list the shipped house ways")
    p.add_argument("--json", action="store_true")
    p.set_defaults(handler=cmd_ways)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``paigow`` console script."""
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
    handler: Handler = args.handler
    try:
        return handler(args)
    except (UsageError, RulesError) as err:
        _fail(str(err))
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    raise SystemExit(main())
