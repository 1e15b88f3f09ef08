"""``paigow analyze tiles``: exact odds, and with ``--diff`` the hands ``--vs`` sets differently.

``analyze`` itself is defined in ``controller/cli.py`` for both games; this module adds the tile
options (``add_analyze_options``) and runs the tile analysis (``analyze_tiles``).  numpy is
imported only when the command runs.
"""

from __future__ import annotations

import argparse
import json
import time
from fractions import Fraction

from ..common import UsageError

_TILES_ONLY = ("diff", "commission")


def add_analyze_options(p: argparse.ArgumentParser) -> None:
    """The tile options of ``paigow analyze``."""
    p.add_argument("--diff", action="store_true",
                   help="tiles: list the hands --vs sets differently from --way, with what "
                        "each difference is worth against the dealer")
    p.add_argument("--commission", metavar="PERCENT",
                   help="tiles: commission on wins in percent (default 5; e.g. 0, 4.76)")


def check_poker_options(args: argparse.Namespace) -> None:
    """``analyze poker`` takes none of the tile options."""
    for name in _TILES_ONLY:
        if getattr(args, name, None) not in (None, False):
            raise UsageError(f"--{name} is for 'analyze tiles', not poker")


def commission(text: str | None) -> Fraction:
    """``--commission`` as a fraction: a percentage from 0 up to (not including) 100."""
    if text is None:
        return Fraction(5, 100)
    try:
        value = Fraction(text.strip()) / 100
    except (ValueError, ZeroDivisionError) as err:
        raise UsageError(f"--commission {text!r} is not a percentage such as 5 or 4.76") from err
    if not 0 <= value < 1:
        raise UsageError(f"--commission {text!r} must be at least 0 and below 100 (percent)")
    return value


def analyze_tiles(args: argparse.Namespace) -> int:
    """Exact odds over all 736,281,000 matchups; ``--diff`` lists the hands set differently."""
    from ...analysis.progress import ProgressBar
    from ...analysis.tiles.differences import way_differences
    from ...analysis.tiles.odds import analyze_tiles as analyze
    from ...analysis.tiles.report import differences_json, differences_text, odds_json, odds_text

    rate = commission(args.commission)
    start = time.perf_counter()
    if args.diff:
        if args.vs is None or args.vs == args.way:
            raise UsageError("--diff needs --vs with another way (or 'optimal') to compare")
        with ProgressBar(f"analyze {args.way} --vs {args.vs} --diff") as bar:
            result = way_differences(args.way, args.vs, banking=args.banking, commission=rate,
                                     progress=bar)
        seconds = time.perf_counter() - start
        print(json.dumps(differences_json(result, seconds)) if args.json
              else differences_text(result, seconds))
        return 0
    with ProgressBar(f"analyze {args.way}") as bar:
        odds = analyze(args.way, args.vs, banking=args.banking, commission=rate, progress=bar)
    seconds = time.perf_counter() - start
    print(json.dumps(odds_json(odds, seconds)) if args.json else odds_text(odds, seconds))
    return 0
