"""The staff list: who may sign in at the display, with what role, and how long a session lasts.

A staff file is TOML, validated once at start-up (unknown keys are errors)::

    [sessions]
    idle_minutes = 30     # signed out after this long without an act or a look
    max_hours = 12        # and after this long whatever happens

    [[staff]]
    id = "ann"            # what the journal names as the actor of her acts
    name = "Ann Lee"
    role = "dealer"       # or "supervisor"
    pin = "scrypt$16384$8$1$SALT$HASH"

``paigow staff add|list|remove|pin --file F`` edits it; a PIN is never written in clear.
"""

from __future__ import annotations

import json
import os
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Final

from ..journal import Role
from ..round import Who
from ..rules.config_check import check_keys, require_table
from .errors import StaffError
from .pins import PinHash

ROLES: Final = (Role.DEALER, Role.SUPERVISOR)
"""The roles a member of staff may hold: the people at the table, never a device or the system."""

ID_PATTERN: Final = re.compile(r"[a-z0-9][a-z0-9._-]{0,31}")
"""A staff id: lower-case letters, digits, ``.``, ``_``, ``-``; 1 to 32 characters."""

NAME_MAX: Final = 80
IDLE_MINUTES: Final = 30.0
MAX_HOURS: Final = 12.0

_TOP: Final = frozenset({"sessions", "staff"})
_SESSION_KEYS: Final = frozenset({"idle_minutes", "max_hours"})
_MEMBER_KEYS: Final = frozenset({"id", "name", "role", "pin"})


def check_id(staff_id: object) -> str:
    """``staff_id`` if it is a valid id, else ``StaffError`` naming it."""
    if not isinstance(staff_id, str) or not ID_PATTERN.fullmatch(staff_id):
        raise StaffError(f"staff id {staff_id!r} must be 1 to 32 of a-z 0-9 . _ - "
                         f"(starting with a letter or digit)")
    return staff_id


@dataclass(frozen=True, slots=True)
class Member:
    """One person: id (the journal's actor), name, role and PIN hash."""

    id: str
    name: str
    role: Role
    pin: PinHash = field(repr=False)

    def __post_init__(self) -> None:
        check_id(self.id)
        if not isinstance(self.name, str) or not 1 <= len(self.name) <= NAME_MAX \
                or not self.name.isprintable():
            raise StaffError(f"staff {self.id!r}: name {self.name!r} must be 1 to {NAME_MAX} "
                             f"printable characters")
        if self.role not in ROLES:
            shown = self.role.value if isinstance(self.role, Role) else self.role
            raise StaffError(f"staff {self.id!r}: role {shown!r} must be 'dealer' or "
                             f"'supervisor'")

    @property
    def who(self) -> Who:
        """The actor and role the round engine and the journal use for this person's acts."""
        return Who(self.id, self.role)


@dataclass(frozen=True, slots=True)
class SessionRules:
    """How long a display session lasts: ``idle`` seconds without use, ``longest`` in all."""

    idle: float = IDLE_MINUTES * 60
    longest: float = MAX_HOURS * 3600

    def __post_init__(self) -> None:
        if not 0 < self.idle <= self.longest:
            raise StaffError(f"sessions: idle {self.idle!r} s must be > 0 and no longer than "
                             f"the longest session {self.longest!r} s")


@dataclass(frozen=True, slots=True)
class Staff:
    """The staff list (by id) and its session rules."""

    members: Mapping[str, Member] = field(default_factory=dict)
    sessions: SessionRules = field(default_factory=SessionRules)

    def get(self, staff_id: str) -> Member | None:
        """The member with this id, or None."""
        return self.members.get(staff_id)

    def with_member(self, member: Member) -> Staff:
        """A copy with ``member`` added or replaced."""
        return replace(self, members={**self.members, member.id: member})

    def without(self, staff_id: str) -> Staff:
        """A copy without ``staff_id``; ``StaffError`` if it is not on the list."""
        if staff_id not in self.members:
            raise StaffError(f"no staff {staff_id!r} on the list")
        return replace(self, members={k: v for k, v in self.members.items() if k != staff_id})

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any], where: str = "staff") -> Staff:
        """From parsed TOML; ``StaffError`` names the file and the key."""
        check_keys(data, _TOP, StaffError, where)
        rules = _session_rules(data.get("sessions", {}), where)
        entries = data.get("staff", [])
        if not isinstance(entries, list):
            raise StaffError(f"{where}: staff must be an array of tables ([[staff]]), "
                             f"not {entries!r}")
        members: dict[str, Member] = {}
        for n, entry in enumerate(entries, 1):
            member = _member(entry, f"{where}: staff entry {n}")
            if member.id in members:
                raise StaffError(f"{where}: staff id {member.id!r} appears twice")
            members[member.id] = member
        return cls(members, rules)

    def text(self) -> str:
        """The staff file's TOML text (PINs as hashes only)."""
        q = json.dumps  # a JSON string is a valid TOML basic string
        lines = ["# Staff who may sign in at the display; edit with `paigow staff`.",
                 "", "[sessions]", f"idle_minutes = {self.sessions.idle / 60:g}",
                 f"max_hours = {self.sessions.longest / 3600:g}"]
        for m in sorted(self.members.values(), key=lambda m: m.id):
            lines += ["", "[[staff]]", f"id = {q(m.id)}", f"name = {q(m.name)}",
                      f"role = {q(m.role.value)}", f"pin = {q(m.pin.text())}"]
        return "\n".join(lines) + "\n"


def _session_rules(raw: object, where: str) -> SessionRules:
    data = require_table(raw, StaffError, f"{where}: [sessions]")
    check_keys(data, _SESSION_KEYS, StaffError, where, section="in [sessions]")
    values = {}
    for key, default in (("idle_minutes", IDLE_MINUTES), ("max_hours", MAX_HOURS)):
        value = data.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int | float) or not value > 0:
            raise StaffError(f"{where}: sessions.{key} must be a number > 0, not {value!r}")
        values[key] = float(value)
    return SessionRules(values["idle_minutes"] * 60, values["max_hours"] * 3600)


def _member(raw: object, where: str) -> Member:
    entry = require_table(raw, StaffError, where)
    check_keys(entry, _MEMBER_KEYS, StaffError, where)
    missing = sorted(_MEMBER_KEYS - set(entry))
    if missing:
        raise StaffError(f"{where}: missing key {missing[0]!r}")
    try:
        role = Role(entry["role"])
    except ValueError as err:
        raise StaffError(f"{where}: role {entry['role']!r} must be 'dealer' or "
                         f"'supervisor'") from err
    try:
        return Member(entry["id"], entry["name"], role, PinHash.parse(entry["pin"]))
    except StaffError as err:
        raise StaffError(f"{where}: {err}") from err


def load_staff(path: str | Path) -> Staff:
    """Read and validate a staff file; ``StaffError`` names the file and what is wrong."""
    where = str(path)
    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as err:
        raise StaffError(f"cannot read staff file {where!r}: {err.strerror}") from err
    except UnicodeDecodeError as err:
        raise StaffError(f"staff file {where!r} is not UTF-8 text: byte {err.start}") from err
    except tomllib.TOMLDecodeError as err:
        raise StaffError(f"staff file {where!r}: bad TOML: {err}") from err
    return Staff.from_mapping(data, where)


def save_staff(staff: Staff, path: str | Path) -> None:
    """Write the staff file readable by its owner only (it holds PIN hashes), atomically."""
    target = Path(path)
    temp = target.with_name(f".{target.name}.tmp")
    try:
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(staff.text())
        os.chmod(temp, 0o600)
        os.replace(temp, target)
    except OSError as err:
        raise StaffError(f"cannot write staff file {str(path)!r}: {err.strerror}") from err
