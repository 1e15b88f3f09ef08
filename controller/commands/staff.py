"""``paigow staff add|list|remove|pin --file F``: the staff who may sign in at the display.

A staff file (``controller.staff.roster``) holds each person's id, name, role and PIN as a salted
scrypt hash, and the session rules.  A PIN is read from the terminal without echo (``getpass``),
or from the first line of standard input with ``--pin-stdin`` (scripts); never from the command
line, where other users could read it in the process list.  The file is written readable by its
owner only.  ``add_parsers(subparsers)`` registers the group.
"""

from __future__ import annotations

import argparse
import getpass
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..journal import Role
from ..staff import Member, PinHash, Staff, check_id, load_staff, save_staff
from .common import UsageError, run_alone


def _read_pin(args: argparse.Namespace) -> str:
    if args.pin_stdin:
        pin = sys.stdin.readline().rstrip("\r\n")
    else:
        if not sys.stdin.isatty():
            raise UsageError("no terminal to ask the PIN on: pass --pin-stdin and give the "
                             "PIN on standard input")
        pin = getpass.getpass(f"PIN for {args.id}: ")
        if getpass.getpass("again: ") != pin:
            raise UsageError("the two PINs differ; nothing changed")
    return pin


def _load(path: str, missing_ok: bool = False) -> Staff:
    if missing_ok and not Path(path).exists():
        return Staff()
    return load_staff(path)


def cmd_add(args: argparse.Namespace) -> int:
    """Add a person to the staff file (made if missing)."""
    staff = _load(args.file, missing_ok=True)
    staff_id = check_id(args.id)
    if staff.get(staff_id) is not None:
        raise UsageError(f"staff {staff_id!r} is already on {args.file!r} (use 'paigow staff "
                         f"pin' to change the PIN, or remove first)")
    member = Member(staff_id, args.name, Role(args.role), PinHash.make(_read_pin(args)))
    save_staff(staff.with_member(member), args.file)
    print(f"added {member.id} ({member.name}, {member.role.value}) to {args.file}")
    return 0


def cmd_pin(args: argparse.Namespace) -> int:
    """Give a person on the staff file a new PIN."""
    staff = _load(args.file)
    member = staff.get(check_id(args.id))
    if member is None:
        raise UsageError(f"no staff {args.id!r} on {args.file!r}")
    changed = Member(member.id, member.name, member.role, PinHash.make(_read_pin(args)))
    save_staff(staff.with_member(changed), args.file)
    print(f"new PIN for {member.id} on {args.file}")
    return 0


def cmd_remove(args: argparse.Namespace) -> int:
    """Take a person off the staff file."""
    staff = _load(args.file)
    save_staff(staff.without(check_id(args.id)), args.file)
    print(f"removed {args.id} from {args.file}")
    return 0


def cmd_list(args: argparse.Namespace) -> int:
    """Print the staff file's people (never their PIN hashes) and session rules."""
    staff = _load(args.file)
    rules = staff.sessions
    print(f"{len(staff.members)} staff; sessions end after {rules.idle / 60:g} min idle or "
          f"{rules.longest / 3600:g} h")
    for m in sorted(staff.members.values(), key=lambda m: (m.role.value, m.id)):
        print(f"{m.id:<16} {m.role.value:<10} {m.name}")
    return 0


def add_parsers(subparsers: Any) -> None:
    """Register ``staff`` and its subcommands on an ``add_subparsers()`` object."""
    p = subparsers.add_parser("staff", help="the staff who may sign in at the display")
    sub = p.add_subparsers(dest="staff_command", required=True, metavar="ACTION")

    def action(name: str, text: str, handler: Any, pin: bool = False) -> argparse.ArgumentParser:
        q: argparse.ArgumentParser = sub.add_parser(name, help=text)
        q.add_argument("--file", required=True, metavar="F",
                       help="the staff file (TOML), e.g. config/staff/TABLE.toml")
        if name != "list":
            q.add_argument("--id", required=True, help="staff id: 1-32 of a-z 0-9 . _ -")
        if pin:
            q.add_argument("--pin-stdin", action="store_true",
                           help="read the PIN from standard input's first line (scripts)")
        q.set_defaults(handler=handler)
        return q

    q = action("add", "add a person (asks for the PIN)", cmd_add, pin=True)
    q.add_argument("--name", required=True, help="the person's name")
    q.add_argument("--role", required=True, choices=[r.value for r in (Role.DEALER,
                                                                       Role.SUPERVISOR)])
    action("pin", "give a person a new PIN", cmd_pin, pin=True)
    action("remove", "take a person off the list", cmd_remove)
    action("list", "list the staff (no PINs)", cmd_list)


def main(argv: Sequence[str] | None = None) -> int:
    """Run this command alone (``python -m controller.commands.staff``)."""
    return run_alone(add_parsers, argv)


if __name__ == "__main__":
    raise SystemExit(main())
