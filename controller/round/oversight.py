"""Corrections, faults and voids: the acts that fix a round without editing its records.

A correction is a new record naming the one it corrects by sequence number; only the record
that currently stands for a bet or a setting can be corrected, and a setting must keep its own
pieces.  Once the dealer's hand is exposed every hand lies face up, so a setting is then
corrected by a supervisor only, with a reason; the record says ``"exposed": true`` and carries
the reason, and the audit lists it as such.  Only a supervisor clears a fault or voids a round.
"""

from __future__ import annotations

from typing import Any, TypeVar

from ..journal import Record, Role
from ..journal.kinds import fault_cleared
from ..rules.poker.dealing import HOUSE
from ..rules.poker.home_pot import PotStatus, check_ante
from ..rules.seat import Bet
from .acts import Who
from .errors import IllegalActError, RoleError
from .showdown import DEALER_OFF_HOUSE_WAY, ShowdownEngine
from .state import Phase

S = TypeVar("S")
_LATE = (Phase.SETTING, Phase.EXPOSED)
REASON_MAX = 500
"""The longest reason a correction keeps, in characters (free text goes into the journal)."""


class OversightEngine(ShowdownEngine[S]):
    """Corrections, fault clearing and voiding."""

    def _correction(self, who: Who, ref: int, wager: int | None, fortune: int,
                    setting: str | None, reason: str | None) -> dict[str, Any]:
        """The correction payload, or IllegalActError naming why ``ref`` cannot be corrected."""
        state = self._check("correct", who)
        target = next((r for r in state.records if r.seq == ref), None)
        if target is None:
            raise IllegalActError("correct", f"record {ref!r} is not part of round "
                                             f"{state.round_id}")
        data = target.payload()
        kind = data.get("target", target.kind) if target.kind == "correction" else target.kind
        position = data.get("position")
        if kind == "bet" and isinstance(position, int):
            standing = state.bets.get(position)
            if standing is None or standing[1] != ref:
                raise IllegalActError("correct", f"record {ref} no longer stands for position "
                                                 f"{position}'s bet")
            if setting is not None or wager is None:
                raise IllegalActError("correct", "a bet is corrected with a wager")
            if state.phase not in (Phase.BETTING, Phase.CLOSED):
                raise IllegalActError("correct", "bets cannot change once hands are dealt")
            pot = self.game.play.pot
            if pot is not None and (wager or fortune):  # home play: only the ante due
                if fortune:
                    raise IllegalActError("correct", "a pot game takes no Fortune bet")
                self._rules("correct", lambda: check_ante(state.pot or PotStatus(), pot,
                                                          position, wager))
            elif wager or fortune:
                bet = self._rules("correct", lambda: Bet(position, wager, fortune))
                self._rules("correct", lambda: self.game.limits.check(bet))
            return {"target": "bet", "position": position, "wager": wager, "fortune": fortune,
                    **_why(reason)}
        if kind in ("set", "dealer_exposed", "dealer") and isinstance(position, int):
            dealer = position == HOUSE
            stands = (state.exposure.seq if dealer and state.exposure
                      else state.settings[position].seq if position in state.settings else None)
            if stands != ref:
                raise IllegalActError("correct", f"record {ref} no longer stands for position "
                                                 f"{position}'s setting")
            if setting is None or state.phase not in _LATE:
                raise IllegalActError("correct", "a setting is corrected with a setting, "
                                                 "before the settlement")
            exposed = state.phase is Phase.EXPOSED
            if exposed:  # the hands lie face up: a change now could pick a winner
                _check_exposed(who, position, reason)
            new = self._rules("correct", lambda: self.game.parse(setting))
            if self.game.pieces(new) != self.game.pieces(self.entered(position)):
                raise IllegalActError("correct", f"setting {setting!r} holds other pieces than "
                                                 f"position {position}'s hand")
            return {"target": "dealer" if dealer else "set", "position": position,
                    "setting": str(new), **({"exposed": True} if exposed else {}),
                    **_why(reason)}
        raise IllegalActError("correct", f"record {ref} ({target.kind}) cannot be corrected")

    def verify_correct(self, who: Who, ref: int, *, wager: int | None = None, fortune: int = 0,
                       setting: str | None = None, reason: str | None = None) -> None:
        """A bet (before the deal) or a setting (before the settlement) can be corrected; once
        the hands are exposed, a setting only by a supervisor giving a reason."""
        self._correction(who, ref, wager, fortune, setting, reason)

    def can_correct(self, who: Who, ref: int, *, wager: int | None = None, fortune: int = 0,
                    setting: str | None = None, reason: str | None = None) -> bool:
        """Whether ``correct`` would be accepted."""
        return self._can(lambda: self.verify_correct(who, ref, wager=wager, fortune=fortune,
                                                     setting=setting, reason=reason))

    def correct(self, who: Who, ref: int, *, wager: int | None = None, fortune: int = 0,
                setting: str | None = None, reason: str | None = None) -> Record:
        """Append a correction of record ``ref`` (wager 0: the bet is withdrawn), with the
        reason given (required once the hands are exposed)."""
        fields = self._correction(who, ref, wager, fortune, setting, reason)
        record = self._append({"type": "correction", "v": 1, "ref": ref, **fields},
                              who.actor, who.role)
        state = self.round
        assert state is not None
        position = fields["position"]
        if fields["target"] != "bet" and position in state.camera:
            self.check_camera(position)
        if fields["target"] == "dealer" and state.exposure is not None \
                and state.exposure.setting == state.exposure.house_way:
            for fault, data in list(state.faults.items()):  # the supervisor set it right
                if data.get("code") == DEALER_OFF_HOUSE_WAY:
                    self._append(fault_cleared(fault, "corrected to the house way"),
                                 who.actor, who.role)
        return record

    def verify_clear_fault(self, who: Who, fault: str) -> None:
        """A supervisor clears an active fault of the open round."""
        state = self._check("clear_fault", who)
        if fault not in state.faults:
            raise IllegalActError("clear_fault", f"no active fault {fault!r}; active: "
                                                 f"{sorted(state.faults)}")

    def can_clear_fault(self, who: Who, fault: str) -> bool:
        """Whether ``clear_fault`` would be accepted."""
        return self._can(lambda: self.verify_clear_fault(who, fault))

    def clear_fault(self, who: Who, fault: str, text: str = "") -> Record:
        """The fault is dealt with; play goes on (a camera mismatch: the entered setting stands)."""
        self.verify_clear_fault(who, fault)
        return self._append(fault_cleared(fault, text or f"cleared by {who.actor}"),
                            who.actor, who.role)

    def verify_device_lost(self, who: Who, device: str, text: str, act: str) -> None:
        """The table's loop reports a device it lost outside an act of the engine (the
        camera reading the dealer's hand before the exposure)."""
        self._check("device_lost", who)
        for name, value in (("device", device), ("text", text), ("act", act)):
            if not isinstance(value, str) or not value.strip():
                raise IllegalActError("device_lost", f"{name} {value!r} must be named")

    def can_device_lost(self, who: Who, device: str, text: str, act: str) -> bool:
        """Whether ``device_lost`` would be accepted."""
        return self._can(lambda: self.verify_device_lost(who, device, text, act))

    def device_lost(self, who: Who, device: str, text: str, act: str) -> Record:
        """Journal a critical ``device_lost`` fault from ``device`` during ``act``, as a lost
        device in the engine's own acts is: play stops until the supervisor acts."""
        self.verify_device_lost(who, device, text, act)
        return self._fault("device_lost", text, device=device, act=act)

    def verify_void(self, who: Who, reason: str) -> None:
        """A supervisor voids an open round, with a reason."""
        self._check("void", who)
        if not isinstance(reason, str) or not reason.strip():
            raise IllegalActError("void", "a void needs a reason")

    def can_void(self, who: Who, reason: str) -> bool:
        """Whether ``void`` would be accepted."""
        return self._can(lambda: self.verify_void(who, reason))

    def void(self, who: Who, reason: str) -> Record:
        """End the round without settling: wagers are returned; its faults are cleared."""
        self.verify_void(who, reason)
        return self._auto_void(reason, who)

    def void_on_restart(self, reason: str) -> Record:
        """Void the open round as the system (crash recovery), with the reason."""
        state = self.round
        assert state is not None and not state.closed
        return self._auto_void(reason, Who.system())


def _why(reason: str | None) -> dict[str, str]:
    """The correction's ``reason`` field: none when not given, else the text, bounded."""
    if reason is None or (isinstance(reason, str) and not reason.strip()):
        return {}
    if not isinstance(reason, str) or len(reason) > REASON_MAX:
        shown = reason[:40] + "..." if isinstance(reason, str) else reason
        raise IllegalActError("correct", f"reason {shown!r} is not text of at most "
                                         f"{REASON_MAX} characters")
    return {"reason": reason.strip()}


def _check_exposed(who: Who, position: int, reason: str | None) -> None:
    """After exposure only a supervisor corrects a setting, and says why."""
    if who.role is not Role.SUPERVISOR:
        raise RoleError("correct", f"{who.actor!r} has role {who.role.value!r}; once the hands "
                                   f"are exposed only a supervisor corrects position "
                                   f"{position}'s setting")
    if not _why(reason):
        raise IllegalActError("correct", f"position {position}'s hand is exposed: a "
                                         f"supervisor's correction needs a reason")


__all__ = ["REASON_MAX", "OversightEngine", "Role"]
