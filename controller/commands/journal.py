"""``paigow journal verify``, ``show``, ``init`` and ``keygen``: check and read a table's journal,
create one, make a key.

``add_parsers(subparsers)`` registers ``journal``; each handler takes the parsed arguments and
returns the exit status.  ``verify`` exits 0 when the chain is intact and 1 with one line naming
the first bad record (or why it could not check the keys) otherwise; a journal that cannot be
opened raises ``JournalCommandError`` (a ``ControllerError``: one line, exit status 2 from the
``paigow`` entry point).  The key helpers here (``add_key_option``, ``find_key``,
``open_writer``, ``verify_first``) serve every command that reads or writes a journal.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable, Sequence
from typing import Any

from ..errors import ControllerError
from ..journal import (
    KEY_ENV,
    KEY_FILE_ENV,
    UNKEYED,
    Anchor,
    Journal,
    JournalError,
    JournalKey,
    Record,
    RoundRecall,
    Unkeyed,
    VerifyReport,
    key_beside,
    key_from_env,
    open_journal,
    write_key,
)
from ..rules.money import format_money
from .common import run_alone


class JournalCommandError(ControllerError):
    """A journal command that could not run; the message is one line."""


def add_key_option(p: argparse.ArgumentParser, *, writer: bool = False) -> None:
    """``--key-file FILE`` (and for a controller ``--unkeyed``) on a command's parser."""
    p.add_argument("--key-file", metavar="FILE",
                   help=f"the journal's key (default: ${KEY_ENV}, ${KEY_FILE_ENV}, or "
                        f"JOURNAL.key beside an SQLite journal)")
    if writer:
        p.add_argument("--unkeyed", action="store_true",
                       help="write an unkeyed journal (tests only: its chain proves nothing "
                            "against someone who can write to it)")


def find_key(key_file: str | None, location: str) -> JournalKey | None:
    """The key for a journal: ``--key-file``, else the environment's, else ``PATH.key`` beside
    an SQLite journal when it exists, else None."""
    try:
        if key_file:
            return JournalKey.load(key_file)
        found = key_from_env()
        if found is not None:
            return found
        beside = key_beside(location)
        return JournalKey.load(beside) if beside is not None and beside.is_file() else None
    except JournalError as err:
        raise JournalCommandError(str(err)) from err


def open_writer(location: str, args: argparse.Namespace, command: str, *,
                make_key: bool = False) -> Journal:
    """A controller's journal: its key found (or with ``make_key``, made 0600 beside an SQLite
    journal), the writer lock taken for ``command``; one-line errors otherwise."""
    key: JournalKey | Unkeyed | None = UNKEYED if getattr(args, "unkeyed", False) else \
        find_key(getattr(args, "key_file", None), location)
    if key is None and make_key and (beside := key_beside(location)) is not None:
        key = JournalKey.generate()
        try:
            write_key(beside, key)
        except JournalError as err:
            raise JournalCommandError(str(err)) from err
        print(f"journal key {key.key_id} made: {beside} (readable by you only)", file=sys.stderr)
    if key is None:
        raise JournalCommandError(
            f"no key for journal {location!r}: give --key-file FILE (paigow journal keygen "
            f"FILE makes one) or set ${KEY_ENV} or ${KEY_FILE_ENV}")
    try:
        return open_journal(location, key=key, writer=command)
    except JournalError as err:
        raise JournalCommandError(str(err)) from err


def open_reader(location: str, key_file: str | None) -> Journal:
    """A journal to read and verify, with its key if one is found."""
    key = find_key(key_file, location)
    try:
        return open_journal(location, create=False, key=key)
    except JournalError as err:
        raise JournalCommandError(str(err)) from err


def _open(location: str) -> Journal:
    return open_reader(location, None)


UNVERIFIED_FLAG = "--unverified"


class JournalUnverifiedError(ControllerError):
    """A journal that failed verification before a report was made from it (exit status 1)."""


def verify_first(journal: Journal, unverified: bool, what: str) -> str | None:
    """Before ``audit`` or ``replay``: None when the chain verifies; with ``--unverified`` the
    line a report must open with; otherwise ``JournalUnverifiedError`` naming the first bad
    record (exit status 1)."""
    if unverified:
        return (f"UNVERIFIED: the chain of {journal.where} was not checked ({UNVERIFIED_FLAG});"
                f" nothing here is proven to be what the table wrote")
    try:
        report: VerifyReport = journal.verify()
    except JournalError as err:
        raise JournalCommandError(str(err)) from err
    if not report.ok:
        raise JournalUnverifiedError(f"{journal.where}: {report.line()}; refusing to {what} a "
                                     f"journal that does not verify ({UNVERIFIED_FLAG} to go on)")
    return None



def cmd_verify(args: argparse.Namespace) -> int:
    """Check the hash chain; 0 when intact, 1 naming the first bad record."""
    try:
        anchor = None if args.anchor is None else Anchor.parse(args.anchor)
    except ValueError as err:
        raise JournalCommandError(f"--anchor: {err}") from err
    journal = open_reader(args.journal, args.key_file)
    try:
        report = journal.verify(anchor)
    except JournalError as err:
        raise JournalCommandError(str(err)) from err
    finally:
        journal.close()
    if args.json:
        print(json.dumps({"journal": journal.where, **report.to_json()}))
    else:
        print(f"{journal.where}: {report.line()}", file=sys.stdout if report.ok else sys.stderr)
    return 0 if report.ok else 1


def record_line(record: Record) -> str:
    """One record on one line: number, time, round, kind, who, marks, event."""
    marks = " ".join(
        m for m in ("REPLAY" if record.replay else "",
                    "" if record.randomness is None else str(record.randomness)) if m)
    who = f"{record.role.value}:{record.actor}"
    return (f"{record.seq:>6} {record.ts} {record.round_id or '-':<14} {record.kind:<13} "
            f"{who:<20} {marks + ' ' if marks else ''}{record.event}")


def _cards(setting: Any) -> str:
    if not isinstance(setting, dict):
        return "-"
    return f"{' '.join(setting.get('low', []))} | {' '.join(setting.get('high', []))}"


def _money(cents: Any) -> str:
    return format_money(cents) if isinstance(cents, int) else "-"


def _positions(values: Any) -> str:
    return ", ".join(str(p) for p in values) if values else "none"


def _round_line(view: dict[str, Any]) -> str:
    mark = "  REPLAY (no real wagers)" if view["replay"] else ""
    profile = f"  {view['profile']}" if view.get("profile") else ""
    heads_up = "  dealer and one seat" if view.get("positions") == 2 else ""
    pot = "  home play (pot)" if view.get("mode") == "pot" else ""
    return (f"round {view['round_id']}  {view['game']}{profile}{heads_up}{pot}  settled at "
            f"record {view['settled_seq']}  {view['ts']}{mark}")


def _bank_line(bank: dict[str, Any] | None) -> list[str]:
    """The bank offer of a rotation table, and a player-banker's bank."""
    if not bank:
        return []
    offer = ""
    if bank.get("offered") is not None:
        skipped = bank.get("skipped") or []
        offer = (f"bank offered to position {bank['offered']}"
                 + (f" (passed over {_positions(skipped)})" if skipped else "") + ": ")
    if bank.get("taken_by") is not None:
        return [f"  {offer}position {bank['taken_by']} banks {_money(bank.get('amount'))}"]
    if bank.get("declined"):
        return [f"  {offer}declined, the house banks"]
    return [f"  {offer}not answered"] if offer else []


def _pot_lines(view: dict[str, Any]) -> list[str]:
    """A home-play deal: the pot's sum, who took it or that it carried over, and each seat."""
    pot = view["pot"]
    total = (f"  pot {_money(pot['carried'])} carried in + {_money(pot['antes'])} antes = "
             f"{_money(pot['total'])}: ")
    if pot["winner"] is not None:
        lines = [total + f"taken by position {pot['winner']} (both highest hands)"]
    else:
        lines = [total + f"carried over (highest low hand {_positions(pot['best_low'])}, "
                         f"highest high hand {_positions(pot['best_high'])}); "
                         f"positions {_positions(pot['exempt_next'])} skip the next ante"]
    for seat in view["seats"]:
        marks = [m for m, on in (("highest low", seat["best_low"]),
                                 ("highest high", seat["best_high"]),
                                 ("fouled", seat["fouled"]),
                                 ("re-set by the house way", seat["reset_from"])) if on]
        lines.append(f"  seat {seat['position']}    {_cards(seat['setting']):<28} "
                     f"ante {_money(seat['ante'])}  {seat['outcome']:<5}  "
                     f"{'(' + ', '.join(marks) + ')  ' if marks else ''}net {_money(seat['net'])}")
    return lines


def recall_text(recall: RoundRecall) -> str:
    """A settled round for a person: who banked (or the pot), and each seat's setting, wager,
    outcome and net."""
    view = recall.to_json()
    lines = [_round_line(view)]
    if view.get("mode") == "pot":
        return "\n".join([*lines, *_pot_lines(view)])
    banker = view["banker"]
    who = "the house" if banker == 1 else "a player"
    lines += _bank_line(view.get("bank"))
    lines.append(f"  banker {banker} ({who})  {_cards(view['banker_setting']):<28} "
                 f"net {_money(view['banker_net'])}")
    for seat in view["seats"]:
        fortune = f"  fortune {_money(seat['fortune'])}" if seat["fortune"] else ""
        lines.append(
            f"  seat {seat['position']}    {_cards(seat['setting']):<28} "
            f"wager {_money(seat['wager'])}{fortune}  {seat['outcome'] or '-':<5} "
            f"commission {_money(seat['commission'])}  net {_money(seat['net'])}")
    return "\n".join(lines)


def _print_records(records: Iterable[Record], as_json: bool) -> None:
    for record in records:
        print(json.dumps(record.to_json()) if as_json else record_line(record))


def cmd_show(args: argparse.Namespace) -> int:
    """Print records (all, or one round's), or the last N settled rounds."""
    if args.last is not None and args.last < 1:
        raise JournalCommandError(f"--last {args.last!r}: must be 1 or more")
    journal = _open(args.journal)
    try:
        if args.last is not None:
            for recall in journal.last_rounds(args.last):
                print(json.dumps(recall.to_json()) if args.json else recall_text(recall))
        elif args.round is not None:
            records = journal.round(args.round)
            if not records:
                raise JournalCommandError(f"no round {args.round!r} in {journal.where}")
            _print_records(records, args.json)
        else:
            _print_records(journal.iter_records(), args.json)
    except JournalError as err:
        raise JournalCommandError(str(err)) from err
    finally:
        journal.close()
    return 0


def cmd_init(args: argparse.Namespace) -> int:
    """Create an empty journal (tables and meta, keyed unless ``--unkeyed``), e.g. as the
    PostgreSQL administrator before an insert-only role runs the controller on it."""
    key: JournalKey | Unkeyed | None = UNKEYED if args.unkeyed else \
        find_key(args.key_file, args.journal)
    if key is None:
        raise JournalCommandError(f"no key for journal {args.journal!r}: give --key-file FILE "
                                  f"or set ${KEY_ENV} or ${KEY_FILE_ENV} (or --unkeyed)")
    try:
        with open_journal(args.journal, key=key) as journal:
            keyed = f"key id {journal.key_id}" if journal.key_id else "unkeyed"
            print(f"{journal.where}: journal ready ({keyed}, {journal.head()[0]} records)")
    except JournalError as err:
        raise JournalCommandError(str(err)) from err
    return 0


def cmd_keygen(args: argparse.Namespace) -> int:
    """Write a new journal key to a file created 0600; print its key id."""
    key = JournalKey.generate()
    try:
        write_key(args.out, key)
    except JournalError as err:
        raise JournalCommandError(str(err)) from err
    print(f"{args.out}: journal key {key.key_id} (mode 0600; keep a copy where the journal's "
          f"auditors can reach it, docs/security.md)")
    return 0


def add_parsers(subparsers: Any) -> None:
    """Register ``journal verify``, ``show`` and ``keygen`` on an ``add_subparsers()``
    object."""
    journal = subparsers.add_parser("journal", help="check and read the table's journal")
    sub = journal.add_subparsers(dest="journal_command", required=True, metavar="COMMAND")
    where = "an SQLite file (or sqlite:PATH) or postgresql://USER@HOST/DB[?schema=NAME]"

    p = sub.add_parser("verify", help="check the hash chain; exit 1 naming the first bad record")
    p.add_argument("journal", metavar="JOURNAL", help=where)
    p.add_argument("--json", action="store_true", help="one JSON object")
    p.add_argument("--anchor", metavar="SEQ:HASH",
                   help="a record's hash kept outside the database; it must still be there")
    add_key_option(p)
    p.set_defaults(handler=cmd_verify)

    p = sub.add_parser("init", help="create an empty journal (its tables and key id)")
    p.add_argument("journal", metavar="JOURNAL", help=where)
    add_key_option(p, writer=True)
    p.set_defaults(handler=cmd_init)

    p = sub.add_parser("keygen", help="make a journal key in a new file (mode 0600)")
    p.add_argument("out", metavar="OUT", help="the key file to create (never overwritten)")
    p.set_defaults(handler=cmd_keygen)

    p = sub.add_parser("show", help="print records, one round, or the last N settled rounds")
    p.add_argument("journal", metavar="JOURNAL", help=where)
    which = p.add_mutually_exclusive_group()
    which.add_argument("--round", metavar="ID", help="only this round's records")
    which.add_argument("--last", type=int, metavar="N", help="the last N settled rounds")
    p.add_argument("--json", action="store_true", help="JSON lines")
    p.set_defaults(handler=cmd_show)


def main(argv: Sequence[str] | None = None) -> int:
    """Run these subcommands alone (``python -m controller.commands.journal``)."""
    return run_alone(add_parsers, argv)


if __name__ == "__main__":
    raise SystemExit(main())
