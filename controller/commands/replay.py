"""``paigow replay JOURNAL [--round ID] [--json]``: re-run recorded rounds, report differences;
``paigow replay DIR [--json]``: replay a recorded session (``controller.replay.recording``)
with no hardware, its last line with ``--json`` one object (``rounds``, ``differences``,
``camera_frames``, ``first_difference``, ``inputs``, and ``truth``: a synthetic recording's
truth checked, ``controller.replay.truth``, or null).

One line per round (one JSON object per round with ``--json``); exit 0 when every replayed
round wrote what was recorded, 1 on any difference, 2 when the journal cannot be read.  The
journal is verified first: one that fails is refused (exit 1, the first bad record named)
unless ``--unverified``, and then the first line says ``UNVERIFIED`` (with ``--json``, a first
object ``{"unverified": ...}``).  ``add_parsers(subparsers)`` registers the command; the
handler returns the exit status.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..errors import ControllerError
from ..journal import Journal
from ..replay.journal import replay_journal
from .common import run_alone
from .journal import (
    UNVERIFIED_FLAG,
    JournalCommandError,
    JournalUnverifiedError,
    add_key_option,
    open_reader,
    verify_first,
)


class ReplayCommandError(ControllerError):
    """A replay that could not run; the message is one line."""


def _verified(journal: Journal, args: argparse.Namespace) -> bool:
    """Verify ``journal`` before anything is replayed (``--unverified``: say so first); False,
    said on standard error, when it fails."""
    try:
        banner = verify_first(journal, args.unverified, "replay")
    except JournalUnverifiedError as err:
        print(f"paigow: {err}", file=sys.stderr)
        return False
    except JournalCommandError as err:
        raise ReplayCommandError(str(err)) from err
    if banner is not None:
        print(json.dumps({"unverified": banner}) if args.json else banner)
    return True


def cmd_replay(args: argparse.Namespace) -> int:
    """Replay the journal's rounds, or a recorded session (a folder); 0 when all is the same,
    1 on a difference."""
    folder = Path(args.journal)
    if folder.is_dir():
        return _replay_recording(args, folder)
    try:
        journal = open_reader(args.journal, args.key_file)
    except JournalCommandError as err:
        raise ReplayCommandError(str(err)) from err
    try:
        if not _verified(journal, args):
            return 1
        report = replay_journal(journal, args.round)
    finally:
        journal.close()
    for result in report.rounds:
        if args.json:
            print(json.dumps(result.to_json(), sort_keys=True))
        else:
            print(result.line(), file=sys.stdout if result.ok else sys.stderr)
    if not report.rounds and not args.json:
        print(f"{args.journal}: no closed rounds to replay")
    return 0 if report.ok else 1


def _replay_recording(args: argparse.Namespace, folder: Path) -> int:
    """``paigow replay DIR``: the session recorded in ``folder``, against its journal."""
    from ..replay.recording import RecordingError, read_header, replay_recording

    try:
        read_header(folder)
        journal = open_reader(str(folder / "journal.sqlite"), args.key_file)
    except (RecordingError, JournalCommandError) as err:
        raise ReplayCommandError(str(err)) from err
    try:
        if not _verified(journal, args):
            return 1
        try:
            result = replay_recording(folder, journal)
        except RecordingError as err:
            raise ReplayCommandError(str(err)) from err
    finally:
        journal.close()
    if args.json:
        print(json.dumps(result.to_json(), sort_keys=True))
    elif result.differences:
        print(f"{folder}: differs: {result.differences[0]}", file=sys.stderr)
    else:
        print(f"{folder}: {result.rounds} round(s), {result.inputs} input(s) replayed; the "
              f"journal is the recorded one")
    truth = result.truth
    if truth is not None and not args.json:
        print(f"{folder}: truth: {truth.settled} of {truth.rounds} round(s) settled as played; "
              f"{truth.camera_read} of {truth.positions} setting(s) read by the camera, "
              f"{len(truth.keyed)} keyed", file=sys.stdout if truth.ok else sys.stderr)
        if not truth.ok:
            print(f"{folder}: truth differs: {truth.differences[0]}", file=sys.stderr)
    return 0 if result.ok else 1


def add_parsers(subparsers: Any) -> None:
    """Register ``replay`` on an ``add_subparsers()`` object."""
    p = subparsers.add_parser("replay", help="re-run recorded rounds; exit 1 on a difference")
    p.add_argument("journal", metavar="JOURNAL|DIR",
                   help="an SQLite file (or sqlite:PATH) or postgresql://USER@HOST/DB; or a "
                        "recording folder (paigow run --record DIR): the session replayed "
                        "with no hardware")
    p.add_argument("--round", metavar="ID", help="only this round")
    p.add_argument("--json", action="store_true", help="one JSON object per round")
    p.add_argument(UNVERIFIED_FLAG, action="store_true",
                   help="replay a journal without verifying it first (the output then opens "
                        "with an UNVERIFIED line)")
    add_key_option(p)
    p.set_defaults(handler=cmd_replay)


def main(argv: Sequence[str] | None = None) -> int:
    """Run this command alone (``python -m controller.commands.replay``)."""
    return run_alone(add_parsers, argv)


if __name__ == "__main__":
    raise SystemExit(main())
