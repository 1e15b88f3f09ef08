"""Who does an act, and which roles each act needs (the display and the panel ask the same)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from ..journal import Role

_OPERATORS: Final = frozenset({Role.DEALER, Role.SUPERVISOR})
_MACHINE: Final = frozenset({Role.DEALER, Role.SUPERVISOR, Role.SYSTEM})


@dataclass(frozen=True, slots=True)
class Who:
    """The one asking for an act: a name (dealer id, ``table``) and a role."""

    actor: str
    role: Role

    @classmethod
    def dealer(cls, actor: str = "dealer-1") -> Who:
        """A dealer."""
        return cls(actor, Role.DEALER)

    @classmethod
    def supervisor(cls, actor: str = "supervisor-1") -> Who:
        """A supervisor (clears faults, voids, approves a player bank)."""
        return cls(actor, Role.SUPERVISOR)

    @classmethod
    def system(cls, actor: str = "table") -> Who:
        """The controller itself (start-up, device triggers, recovery)."""
        return cls(actor, Role.SYSTEM)


ROLES: Final[dict[str, frozenset[Role]]] = {
    "open_round": _OPERATORS,
    "take_bet": _OPERATORS,
    "bank": frozenset({Role.SUPERVISOR}),
    "offer_bank": _OPERATORS,
    "decline_bank": _OPERATORS,
    "close_bets": _OPERATORS,
    "shuffle": _MACHINE,
    "deal_packet": _MACHINE,
    "build_woodpile": _OPERATORS,
    "cut": _OPERATORS,  # the dealer calls the banker's Pai Gow cut (tiles)
    "roll": _MACHINE,
    "set_hand": _OPERATORS,
    "play_house_way": _OPERATORS,
    "expose_dealer": _OPERATORS,
    "read_camera": _MACHINE,
    "read_dice": _MACHINE,
    "device_lost": frozenset({Role.SYSTEM}),  # only the table's loop reports its devices
    "settle": _OPERATORS,  # the dealer confirms the result
    "correct": _OPERATORS,
    "clear_fault": frozenset({Role.SUPERVISOR}),
    "void": frozenset({Role.SUPERVISOR}),
}
"""The roles allowed to ask for each act; every other role is refused (``RoleError``)."""
