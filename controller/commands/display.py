"""``paigow display --journal PATH [--host H] [--port N] [--game poker|tiles] [--tokens F]``.

Serves the dealer display over uvicorn for one table whose devices are the round engine's
in-memory fakes (``controller/round/fakes.py``).  Without ``--tokens`` (a TOML file holding a
``[display]`` table, see ``DisplaySettings.from_mapping``) a dealer and a supervisor token are
made up for this run and printed.  ``add_parsers(subparsers)`` registers the command.
"""

from __future__ import annotations

import argparse
import secrets
import sys
import tomllib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..errors import ControllerError
from ..round import FakeDice, FakeShuffler, PokerRound, TileRound, Who
from ..round.oversight import OversightEngine
from .common import UsageError, run_alone
from .journal import JournalCommandError, add_key_option, open_writer


class DisplayCommandError(ControllerError):
    """The display could not start; the message is one line."""


def _settings(path: str | None) -> Any:
    from ..display import DisplaySettings, DisplaySettingsError

    if path is None:
        tokens = {secrets.token_urlsafe(16): Who.dealer(),
                  secrets.token_urlsafe(16): Who.supervisor()}
        for token, who in tokens.items():
            print(f"{who.role.value} token ({who.actor}): {token}", file=sys.stderr)
        return DisplaySettings(tokens)
    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as err:
        raise UsageError(f"cannot read tokens {path!r}: {err}") from err
    try:
        return DisplaySettings.from_mapping(data.get("display", {}))
    except DisplaySettingsError as err:
        raise UsageError(f"{path}: {err}") from err


def engine_on_fakes(journal: Any, game: str, seed: int | None = None) -> OversightEngine[Any]:
    """A round engine of ``game`` over the in-memory fakes (no camera: entered settings stand)."""
    from ..profile import load_profile
    from ..tile_profile import load_tile_profile

    seed = secrets.randbelow(2**31) if seed is None else seed
    if game == "tiles":
        return TileRound(journal, load_tile_profile(), FakeDice(seed))
    return PokerRound(journal, load_profile(), FakeShuffler(seed), FakeDice(seed))


def cmd_display(args: argparse.Namespace) -> int:
    """Serve the display until interrupted."""
    import uvicorn

    from ..display import Table, create_app

    settings = _settings(args.tokens)
    try:  # the only writer of its journal, with its key (commands/journal.py)
        journal = open_writer(args.journal, args, "paigow display")
    except JournalCommandError as err:
        raise DisplayCommandError(str(err)) from err
    try:
        table = Table(engine_on_fakes(journal, args.game))
        app = create_app(table, settings)
        print(f"dealer display on http://{args.host}:{args.port}/ (journal {journal.where}, "
              f"{args.game}, fake devices)",
              file=sys.stderr)
        uvicorn.run(app, host=args.host, port=args.port, log_level="warning",
                    timeout_graceful_shutdown=2)
    finally:
        journal.close()
    return 0


def add_parsers(subparsers: Any) -> None:
    """Register ``display`` on an ``add_subparsers()`` object."""
    p = subparsers.add_parser("display", help="serve the dealer display (fake devices)")
    p.add_argument("--journal", required=True, metavar="PATH",
                   help="an SQLite file (or sqlite:PATH) or postgresql://USER@HOST/DB")
    add_key_option(p, writer=True)
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8000)
    p.add_argument("--game", choices=("poker", "tiles"), default="poker")
    p.add_argument("--tokens", metavar="FILE",
                   help="TOML with [display.tokens.TOKEN] name and role; default: made up")
    p.set_defaults(handler=cmd_display)


def main(argv: Sequence[str] | None = None) -> int:
    """Run this command alone (``python -m controller.commands.display``)."""
    return run_alone(add_parsers, argv)


if __name__ == "__main__":
    raise SystemExit(main())
