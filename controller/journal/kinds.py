"""The record kinds the journal itself reads: what closes a round and what a fault is.

Every other kind is opaque to the journal.  The rules core's events (``roll``, ``deal``,
``bet``, ``set``, ``compare``, ``settle``) come from ``controller.rules.records.to_json``;
the round engine adds its own.  These builders give the few the journal's queries depend on
one spelling.
"""

from __future__ import annotations

from typing import Final

from .canonical import Json

SETTLE: Final = "settle"
"""The rules core's settlement: closes a round; the recall reads it."""
ROUND_VOIDED: Final = "round_voided"
"""A round ended without settling (misdeal, fault, crash recovery): closes it."""
CLOSING: Final = frozenset({SETTLE, ROUND_VOIDED})
"""Kinds after which a round is no longer open."""
FAULT_RAISED: Final = "fault_raised"
"""A fault became active; its payload's ``fault`` field is its id."""
FAULT_CLEARED: Final = "fault_cleared"
"""The fault with the same ``fault`` id is no longer active."""
FAULT_KINDS: Final = frozenset({FAULT_RAISED, FAULT_CLEARED})


def round_voided(reason: str) -> Json:
    """The payload that voids a round, with its reason."""
    return {"type": ROUND_VOIDED, "v": 1, "reason": reason}


def fault_raised(fault: str, code: str, text: str, device: str | None = None,
                 critical: bool = False) -> Json:
    """The payload of a fault becoming active (``critical`` ones stop play)."""
    return {"type": FAULT_RAISED, "v": 1, "fault": fault, "code": code, "text": text,
            "device": device, "critical": critical}


def fault_cleared(fault: str, text: str = "") -> Json:
    """The payload that clears the fault with this id."""
    return {"type": FAULT_CLEARED, "v": 1, "fault": fault, "text": text}
