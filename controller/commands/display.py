"""``paigow display --journal PATH [--host H] [--port N] [--game poker|tiles] [--staff F]
[--tls-cert FILE --tls-key FILE] [--allowed-host NAME]``.

Serves the dealer display over uvicorn for one table whose devices are the round engine's
in-memory fakes (``controller/round/fakes.py``).  The staff who may sign in at the page come from
``--staff`` (a staff file, ``paigow staff``); without it the display is read-only.  No token is
made up or printed: each person signs in with their id and PIN.  ``add_parsers(subparsers)``
registers the command.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from ..errors import ControllerError
from ..round import FakeDice, FakeShuffler, PokerRound, TileRound
from ..round.oversight import OversightEngine
from ..staff import Staff, load_staff
from .common import UsageError, listening_socket, number_in, run_alone
from .journal import JournalCommandError, add_key_option, open_writer
from .serving import add_serving_options, scheme, served_hosts, tls


class DisplayCommandError(ControllerError):
    """The display could not start; the message is one line."""


def staff_of(path: str | None) -> Staff:
    """The staff file at ``path`` validated (``StaffError`` names what is wrong), or an empty
    list (a read-only display) when None; says which on stderr."""
    if path is None:
        print("no --staff file: the display is read-only (paigow staff add --file F makes "
              "one)", file=sys.stderr)
        return Staff()
    staff = load_staff(path)
    print(f"staff: {len(staff.members)} from {path}", file=sys.stderr)
    return staff


def _settings(args: argparse.Namespace) -> Any:
    from ..display import DisplaySettings

    if args.tokens is not None:
        raise UsageError("--tokens is replaced by --staff FILE: each person signs in at the "
                         "display with their staff id and PIN (see 'paigow staff')")
    return DisplaySettings(staff=staff_of(args.staff))


def engine_on_fakes(journal: Any, game: str, seed: int | None = None) -> OversightEngine[Any]:
    """A round engine of ``game`` over the in-memory fakes (no camera: entered settings stand);
    its draws come from ``secrets`` unless a ``seed`` (tests, replay: journaled as
    ``seeded:N``, shown on the display as a banner, never sent to a viewer) is given."""
    from ..profiles.poker import load_profile
    from ..profiles.tiles import load_tile_profile

    if game == "tiles":
        return TileRound(journal, load_tile_profile(), FakeDice(seed))
    return PokerRound(journal, load_profile(), FakeShuffler(seed), FakeDice(seed))


def cmd_display(args: argparse.Namespace) -> int:
    """Serve the display until interrupted."""
    import uvicorn

    from ..display import Table, create_app
    from ..display.table import EventLimits

    tls_options = tls(args)  # a bad certificate is one line, before anything starts
    # Bound once, first, and handed to uvicorn: a port in use is one line before anything
    # else is said or opened, not uvicorn's four after it, and nothing can take it in between.
    sock = listening_socket(args.host, args.port)
    try:
        settings = _settings(args)
        journal = open_writer(args.journal, args, "paigow display")  # its only writer, keyed
    except JournalCommandError as err:
        sock.close()
        raise DisplayCommandError(str(err)) from err
    except BaseException:
        sock.close()
        raise
    try:
        table = Table(engine_on_fakes(journal, args.game, args.seed),
                      EventLimits(max_viewers=args.max_viewers))
        app = create_app(table, replace(settings, hosts=served_hosts(args)))
        print(f"dealer display on {scheme(args)}://{args.host}:{args.port}/ (journal "
              f"{journal.where}, "
              f"{args.game}, fake devices)",
              file=sys.stderr)
        config = uvicorn.Config(app, log_level="warning", timeout_graceful_shutdown=2,
                                **tls_options)
        uvicorn.Server(config).run(sockets=[sock])
    finally:
        sock.close()
        journal.close()
    return 0


def _seed(text: str) -> int:
    if not text.isascii() or not text.isdigit() or len(text) > 19:
        raise argparse.ArgumentTypeError(f"seed {text!r} must be a whole number >= 0")
    return int(text)


def _count(text: str) -> int:
    if not text.isascii() or not text.isdigit() or not 1 <= int(text) <= 100_000:
        raise argparse.ArgumentTypeError(f"{text!r} must be a whole number from 1 to 100000")
    return int(text)


def add_parsers(subparsers: Any) -> None:
    """Register ``display`` on an ``add_subparsers()`` object."""
    p = subparsers.add_parser("display", help="serve the dealer display (fake devices)")
    p.add_argument("--journal", required=True, metavar="PATH",
                   help="an SQLite file (or sqlite:PATH) or postgresql://USER@HOST/DB")
    add_key_option(p, writer=True)
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=number_in("port", int, 1, 65535), default=8000)
    p.add_argument("--game", choices=("poker", "tiles"), default="poker")
    p.add_argument("--seed", type=_seed, default=None, metavar="N",
                   help="seeded draws, for tests and replay only (the display shows a "
                        "banner); default: drawn from secrets")
    p.add_argument("--max-viewers", type=_count, default=200, metavar="N",
                   help="event streams open at once; beyond it 503 (default 200)")
    p.add_argument("--staff", metavar="FILE",
                   help="the staff file: who may sign in (default: none, read-only)")
    add_serving_options(p)
    p.add_argument("--tokens", help=argparse.SUPPRESS)  # replaced by --staff: says so
    p.set_defaults(handler=cmd_display)


def main(argv: Sequence[str] | None = None) -> int:
    """Run this command alone (``python -m controller.commands.display``)."""
    return run_alone(add_parsers, argv)


if __name__ == "__main__":
    raise SystemExit(main())
