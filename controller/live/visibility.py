"""What each role may *see*: one allow-list filter per role, applied to a record's JSON before it
leaves the server (``docs/security.md``, "What each role sees, and when").

Three sights: ``PUBLIC`` (no token: the public side of the display), ``DEALER`` and
``SUPERVISOR``.  Every filter builds a new object from what it may show, field by field, so a
record kind or field added later is hidden from the public and the dealer until it is listed
here.  The public sees what the physical table shows: bets, dice, results, and the hands once
they are turned up at the showdown (the dealer's exposure, or the settlement at home play,
where the dealer plays no hand).  The dealer also sees the players' hands (to key them in and
set them by the house way), never the packets, nor his own or a player-banker's hand before
it is exposed.  The supervisor sees every field.  No role is sent a seed (``randomness`` goes
out as its source only, ``seeded`` or ``secrets``), and only the supervisor gets the chain's
hashes (a hash over a hidden packet would let anyone search its few billion orderings).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from enum import StrEnum
from typing import Any, Final

from ..journal import Record, Role
from ..round import Who


class Sight(StrEnum):
    """Who is looking, as far as what may be shown goes."""

    PUBLIC = "public"
    DEALER = "dealer"
    SUPERVISOR = "supervisor"


SIGHTS: Final = tuple(Sight)
"""Every sight, in order of what they may see (publishing encodes a record once for each)."""


def sight_of(who: Who | None) -> Sight:
    """The sight of an operator, or the public's for None (an anonymous viewer)."""
    if who is None:
        return Sight.PUBLIC
    return Sight.SUPERVISOR if who.role is Role.SUPERVISOR else Sight.DEALER


ALL: Final = frozenset({"*"})
"""Every field of the event may be shown."""

SHOWDOWN_KINDS: Final = frozenset({"dealer_exposed", "compare", "settle"})
"""Records at which the hands are turned up: after one, the round's settings are public."""

_PUBLIC: Final[Mapping[str, frozenset[str]]] = {
    "round_opened": ALL, "pot_carried": ALL, "bet": ALL, "bank": ALL, "bank_offered": ALL,
    "bank_declined": ALL, "bets_closed": ALL, "shuffled": frozenset({"count"}),
    "packet": frozenset({"n"}), "roll": ALL, "dice_no_game": ALL, "woodpile_built": ALL,
    "cut": ALL, "set": frozenset({"position"}), "camera_read": frozenset({"position"}),
    "camera_dice": frozenset({"dice", "roll"}),
    "correction": frozenset({"ref", "wager", "fortune"}),
    "dealer_exposed": frozenset({"position", "hand", "setting"}), "settle": ALL,
    "round_voided": ALL, "fault_raised": frozenset({"fault", "code", "device", "critical"}),
    "fault_cleared": frozenset({"fault"}),
}
"""The public's fields of each kind while the round's hands are face down."""

_PUBLIC_SHOWN: Final[Mapping[str, frozenset[str]]] = {
    **_PUBLIC, "set": ALL, "compare": ALL,
    "correction": frozenset({"ref", "wager", "fortune", "setting"}),
}
"""The public's fields once the round's hands are turned up."""

_DEALER: Final[Mapping[str, frozenset[str]]] = {
    **_PUBLIC, "set": ALL, "compare": ALL, "correction": ALL, "camera_read": ALL,
    "dealer_exposed": ALL, "deviation": ALL, "fault_raised": ALL, "fault_cleared": ALL,
}
"""The dealer's fields of each kind: the public's, and every setting as keyed in (packets
still show their number only)."""

_ENVELOPE: Final = ("seq", "round_id", "kind", "actor", "role", "ts", "replay")
"""A record's columns every sight may see (``event`` and ``randomness`` are filtered)."""
_CHAIN: Final = ("prev_hash", "hash")
"""Columns only the supervisor sees."""


def _fields(sight: Sight, kind: str, shown: bool) -> frozenset[str]:
    if sight is Sight.SUPERVISOR:
        return ALL
    table = _DEALER if sight is Sight.DEALER else _PUBLIC_SHOWN if shown else _PUBLIC
    return table.get(kind, frozenset())


def event_for(sight: Sight, kind: str, event: Mapping[str, Any],
              shown: bool = False) -> dict[str, Any]:
    """A record's event as ``sight`` may see it: its type and version, and the allowed fields;
    ``shown`` says whether the round's hands were turned up by then."""
    allowed = _fields(sight, kind, shown)
    keep = {"type", "v"} | (set(event) if allowed == ALL else allowed)
    return {key: value for key, value in event.items() if key in keep}


def randomness_source(record: Record) -> str | None:
    """``seeded`` or ``secrets`` (or None): where a draw came from, never its seed."""
    return None if record.randomness is None else record.randomness.source


def record_for(sight: Sight, record: Record, shown: bool = False) -> dict[str, Any]:
    """A record's JSON as ``sight`` may see it (the seed never, the hashes for a supervisor)."""
    full = record.to_json()
    out: dict[str, Any] = {key: full[key] for key in _ENVELOPE}
    out["event"] = event_for(sight, record.kind, record.payload(), shown)
    out["randomness"] = randomness_source(record)
    if sight is Sight.SUPERVISOR:
        out.update({key: full[key] for key in _CHAIN})
    return out


def records_for(sight: Sight, records: Iterable[Record],
                shown_from: Mapping[str, int] | None = None) -> list[dict[str, Any]]:
    """Records in order as ``sight`` may see them; a round's hands count as turned up from the
    showdown record seen among them on (or from the seq ``shown_from`` gives for its id)."""
    shown = dict(shown_from or {})
    out = []
    for record in records:
        rid = record.round_id
        if rid is not None and rid not in shown and record.kind in SHOWDOWN_KINDS:
            shown[rid] = record.seq
        out.append(record_for(sight, record, rid is not None and record.seq >= shown.get(
            rid, record.seq + 1)))
    return out


def showdown_seq(records: Iterable[Record]) -> int | None:
    """The first record at which a round's hands were turned up, or None."""
    return next((r.seq for r in records if r.kind in SHOWDOWN_KINDS), None)
