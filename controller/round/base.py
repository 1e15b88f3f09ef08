"""The round engine both games share: every act as ``verify_x`` / ``can_x`` / ``x``.

``verify_x`` raises an ``IllegalActError`` naming why the act is refused, ``can_x`` answers
True or False, ``x`` does it and returns the journal ``Record`` it appended.  An act changes
state only by appending records and folding them (``state.fold``), so recovery and replay,
which fold the same records, reach the same state.  ``PokerRound`` and ``TileRound`` add the
deal of their game.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Generic, TypeVar

from ..journal import Journal, Randomness, Record, Role
from ..journal.kinds import fault_cleared, fault_raised, round_voided
from ..journal.records import check_round_id
from ..rules.errors import RulesError
from ..rules.poker.dealing import HOUSE
from ..rules.poker.home_pot import PotStatus, check_ante
from ..rules.records import Event
from ..rules.rotation import check_cover, in_turn, offer
from ..rules.seat import Bet, HandSet, SetBy
from .acts import ROLES, Who
from .errors import (
    DeviceLostError,
    FaultActiveError,
    IllegalActError,
    PhaseError,
    PiecesUnknownError,
    RoleError,
)
from .games import GameRules
from .history import TableHistory
from .ports import CameraPort, DicePort
from .state import Phase, RoundState, fold

log = logging.getLogger(__name__)

S = TypeVar("S")
T = TypeVar("T")
_DURING_FAULTS = frozenset({"clear_fault", "void", "correct", "read_camera", "read_dice",
                            "device_lost"})


class RoundEngine(Generic[S]):
    """The only owner of a table's round state: one round at a time, journaled act by act."""

    def __init__(self, journal: Journal, game: GameRules[S], dice: DicePort,
                 camera: CameraPort | None = None, *, replay: bool = False) -> None:
        self.journal = journal
        self.game = game
        self.dice = dice
        self.camera = camera
        self.replay = replay
        self.hold_deviations = False
        """When True (a live table), a dealer's hand set off the house way raises a critical
        ``dealer_off_house_way`` fault at its exposure: the supervisor corrects it or lets it
        stand before anything is settled."""
        self.round: RoundState[S] | None = None
        self.history = TableHistory(journal, game.name, game.profile, replay)

    # --- plumbing ------------------------------------------------------------------------------

    @property
    def phase(self) -> Phase | None:
        """The current round's phase, or None before the first round."""
        return None if self.round is None else self.round.phase

    def _check(self, act: str, who: Who, *phases: Phase) -> RoundState[S]:
        """Role, open round, phase and faults: the checks every act starts with."""
        if who.role not in ROLES[act]:
            need = " or ".join(sorted(r.value for r in ROLES[act]))
            raise RoleError(act, f"{who.actor!r} has role {who.role.value!r}; it needs {need}")
        state = self.round
        if state is None or state.closed:
            raise PhaseError(act, "no round is open")
        if phases and state.phase not in phases:
            raise PhaseError(act, f"round {state.round_id} is at {state.phase.value!r}, not "
                                  + " or ".join(repr(p.value) for p in phases))
        if act not in _DURING_FAULTS and state.critical_faults:
            fault = state.faults[state.critical_faults[0]]
            raise FaultActiveError(act, f"fault {fault['fault']!r} is active: {fault['text']}")
        return state

    @staticmethod
    def _can(verify: Callable[[], object]) -> bool:
        try:
            verify()
        except IllegalActError:
            return False
        return True

    @staticmethod
    def _rules(act: str, check: Callable[[], T]) -> T:
        """Run a rules-core check, turning its error into a refusal of ``act``."""
        try:
            return check()
        except RulesError as err:
            raise IllegalActError(act, str(err)) from err

    def _append(self, event: Event | Mapping[str, Any], actor: str, role: Role,
                randomness: Randomness | None = None) -> Record:
        state = self.round
        assert state is not None
        record = self.journal.append(event, actor=actor, role=role, round_id=state.round_id,
                                     randomness=randomness, replay=self.replay)
        fold(state, record, self.game)
        return record

    def load(self, records: Iterable[Record]) -> RoundState[S]:
        """Rebuild a round by folding its records (recovery and tests)."""
        records = list(records)
        state: RoundState[S] = RoundState(records[0].round_id or "", records[0].replay)
        for record in records:
            fold(state, record, self.game)
        self.round = state
        return state

    def _fault(self, code: str, text: str, *, device: str | None = None, act: str | None = None,
               position: int | None = None, critical: bool = True) -> Record:
        state = self.round
        assert state is not None
        number = 1 + sum(1 for r in state.records if r.kind == "fault_raised")
        payload = {**fault_raised(f"{state.round_id}/{code}/{number}", code, text, device,
                                  critical), "act": act, "position": position}
        log.warning("round %s: fault %s from %s: %s", state.round_id, code, device or "table",
                    text)
        return self._append(payload, device or "table", Role.DEVICE if device else Role.SYSTEM)

    def _port(self, act: str, device: str, call: Callable[[], T],
              position: int | None = None) -> T:
        """Call a device; a lost device raises a fault (journaled) and the error goes on up."""
        try:
            return call()
        except DeviceLostError as err:
            self._fault("device_lost", str(err), device=device, act=act, position=position)
            raise

    def _auto_void(self, reason: str, who: Who) -> Record:
        state = self.round
        assert state is not None
        for fault in list(state.faults):
            self._append(fault_cleared(fault, f"round {state.round_id} voided"), "table",
                         Role.SYSTEM)
        return self._append({**round_voided(reason), "auto": who.role is Role.SYSTEM},
                            who.actor, who.role)

    # --- open, bets, bank --------------------------------------------------------------------

    def verify_open_round(self, who: Who, round_id: str | None = None) -> None:
        """A round can open when none is open and its id is new."""
        if who.role not in ROLES["open_round"]:
            raise RoleError("open_round", f"{who.actor!r} has role {who.role.value!r}; "
                                          f"it needs dealer or supervisor")
        if self.round is not None and not self.round.closed:
            raise PhaseError("open_round", f"round {self.round.round_id} is still open "
                                           f"({self.round.phase.value})")
        if round_id is not None:
            try:
                check_round_id(round_id)
            except ValueError as err:
                raise IllegalActError("open_round", str(err)) from err
            if self.journal.round(round_id):
                raise IllegalActError("open_round", f"round id {round_id!r} is already used")

    def can_open_round(self, who: Who, round_id: str | None = None) -> bool:
        """Whether ``open_round`` would be accepted."""
        return self._can(lambda: self.verify_open_round(who, round_id))

    def open_round(self, who: Who, round_id: str | None = None) -> Record:
        """Open a round and take bets; the id defaults to ``r`` and the next record number."""
        self.verify_open_round(who, round_id)
        rid = round_id or f"r{self.journal.head()[0] + 1:06d}"
        self.round = RoundState(rid, self.replay)
        opened = self._append({"type": "round_opened", "v": 1, "game": self.game.name,
                               "profile": self.game.profile, "house_way": self.game.way,
                               "positions": self.game.positions}, who.actor, who.role)
        if self.game.play.pot is not None:  # home play: the pot the last deal left
            pot = self.history.pot()
            self._append({"type": "pot_carried", "v": 1, "pot": pot.pot,
                          "exempt": sorted(pot.exempt)}, "table", Role.SYSTEM)
        return opened

    # --- what earlier rounds left ---------------------------------------------------------

    def last_wager(self, position: int) -> int | None:
        """``position``'s main wager in the last settled round it bet in (cents), or None:
        what "Deal" repeats at a ``repeat_wager`` table unless the player changes it."""
        return self.history.last_wager(position)

    def pot_status(self) -> PotStatus:
        """Home play: the pot and the ante exemptions standing for the open (or next) deal."""
        if self.round is not None and self.round.pot is not None and not self.round.closed:
            return self.round.pot
        return self.history.pot()

    def ante_due(self, position: int) -> int:
        """Home play: what ``position`` antes for the open (or next) deal, in cents."""
        rules = self.game.play.pot
        if rules is None:
            raise IllegalActError("take_bet", f"table profile {self.game.profile!r} takes "
                                              f"wagers, not antes")
        return self.pot_status().ante_due(position, rules)

    def bank_turn(self) -> int:
        """Banking rotation: the position the bank is offered to next."""
        return in_turn(self.history.last_offered(), self.game.positions)

    def verify_take_bet(self, who: Who, position: int, wager: int, fortune: int = 0) -> None:
        """A bet is taken while betting, once per position, within the table limits."""
        state = self._check("take_bet", who, Phase.BETTING)
        low = 1 if state.banker != HOUSE else 2
        if not isinstance(position, int) or not low <= position <= self.game.positions:
            raise IllegalActError("take_bet", f"position {position!r} is not one of "
                                              f"{low}..{self.game.positions}")
        if position == state.banker:
            raise IllegalActError("take_bet", f"position {position} banks this round")
        if position in state.bets:
            raise IllegalActError("take_bet", f"position {position} has already bet (record "
                                              f"{state.bets[position][1]}); correct it instead")
        bet = self._rules("take_bet", lambda: Bet(position, wager, fortune))
        pot = self.game.play.pot
        if pot is not None:  # home play: exactly the ante due, no side bets
            if fortune:
                raise IllegalActError("take_bet", f"a pot game takes no Fortune bet ({fortune!r} "
                                                  f"cents at position {position})")
            self._rules("take_bet", lambda: check_ante(state.pot or PotStatus(), pot, position,
                                                       wager))
        elif position != HOUSE:
            self._rules("take_bet", lambda: self.game.limits.check(bet))
        if self.game.play.rotation and state.banker == HOUSE:
            self._check_offer_answered("take_bet", state)
        bank = state.bank
        if bank is not None:
            standing = [b.wager for b, _ in state.bets.values()]
            self._rules("take_bet", lambda: check_cover(bank, standing,
                                                        adding=(position, wager)))

    def can_take_bet(self, who: Who, position: int, wager: int, fortune: int = 0) -> bool:
        """Whether ``take_bet`` would be accepted."""
        return self._can(lambda: self.verify_take_bet(who, position, wager, fortune))

    def take_bet(self, who: Who, position: int, wager: int, fortune: int = 0) -> Record:
        """Record a position's main wager and Fortune bet, in cents."""
        self.verify_take_bet(who, position, wager, fortune)
        return self._append(Bet(position, wager, fortune), who.actor, who.role)

    def verify_bank(self, who: Who, position: int, amount: int) -> None:
        """A player may bank before any bet, with a bank in cents (a supervisor approves)."""
        state = self._check("bank", who, Phase.BETTING)
        if state.bets:
            raise IllegalActError("bank", "bets are already down; a player banks before them")
        if not isinstance(position, int) or not 2 <= position <= self.game.positions:
            raise IllegalActError("bank", f"position {position!r} is not a player's position")
        if isinstance(amount, bool) or not isinstance(amount, int) or amount < 1:
            raise IllegalActError("bank", f"bank {amount!r} must be whole cents >= 1")
        if self.game.play.pot is not None:
            raise IllegalActError("bank", "a pot game (home play) has no bank")
        if self.game.play.rotation:
            if state.bank_offer != position or state.bank_declined:
                offered = ("nobody yet" if state.bank_offer is None else
                           f"position {state.bank_offer}"
                           + (", who declined" if state.bank_declined else ""))
                raise IllegalActError("bank", f"position {position} has not been offered the "
                                              f"bank this round (offered: {offered})")
            if state.banker != HOUSE:
                raise IllegalActError("bank", f"position {state.banker} already banks")

    def can_bank(self, who: Who, position: int, amount: int) -> bool:
        """Whether ``bank`` would be accepted."""
        return self._can(lambda: self.verify_bank(who, position, amount))

    def bank(self, who: Who, position: int, amount: int) -> Record:
        """A player banks this round, putting up ``amount`` cents; the house bets at position 1."""
        self.verify_bank(who, position, amount)
        return self._append({"type": "bank", "v": 1, "position": position, "amount": amount},
                            who.actor, who.role)

    # --- banking rotation ---------------------------------------------------------------

    def _check_offer_answered(self, act: str, state: RoundState[S]) -> None:
        if state.bank_offer is None:
            raise IllegalActError(act, f"offer the bank first (position {self.bank_turn()} is "
                                       f"in turn)")
        if not state.bank_declined:
            raise IllegalActError(act, f"position {state.bank_offer} has neither taken nor "
                                       f"declined the bank")

    def verify_offer_bank(self, who: Who, position: int | None = None) -> None:
        """At a rotation table the bank is offered once a round, before any bet, to the
        position in turn (or to ``position``, passing over the empty seats between)."""
        state = self._check("offer_bank", who, Phase.BETTING)
        if not self.game.play.rotation:
            raise IllegalActError("offer_bank", f"table profile {self.game.profile!r} has no "
                                                f"banking rotation")
        if state.bank_offer is not None:
            raise IllegalActError("offer_bank", f"the bank was offered to position "
                                                f"{state.bank_offer} this round")
        if state.bets:
            raise IllegalActError("offer_bank", "bets are already down; the bank is offered "
                                                "before them")
        self._rules("offer_bank", lambda: offer(self.history.last_offered(),
                                                self.game.positions, position))

    def can_offer_bank(self, who: Who, position: int | None = None) -> bool:
        """Whether ``offer_bank`` would be accepted."""
        return self._can(lambda: self.verify_offer_bank(who, position))

    def offer_bank(self, who: Who, position: int | None = None) -> Record:
        """Offer the bank to the position in turn (``bank_offered``, naming seats skipped)."""
        self.verify_offer_bank(who, position)
        made = offer(self.history.last_offered(), self.game.positions, position)
        return self._append(made.to_json(), who.actor, who.role)

    def verify_decline_bank(self, who: Who) -> None:
        """The position offered the bank may decline it before it banks; the house banks."""
        state = self._check("decline_bank", who, Phase.BETTING)
        if state.bank_offer is None or state.bank_declined:
            raise IllegalActError("decline_bank", "no bank offer stands this round")
        if state.banker != HOUSE:
            raise IllegalActError("decline_bank", f"position {state.banker} has taken the bank")

    def can_decline_bank(self, who: Who) -> bool:
        """Whether ``decline_bank`` would be accepted."""
        return self._can(lambda: self.verify_decline_bank(who))

    def decline_bank(self, who: Who) -> Record:
        """The offered position declines the bank: the house banks this round."""
        self.verify_decline_bank(who)
        state = self.round
        assert state is not None
        return self._append({"type": "bank_declined", "v": 1, "position": state.bank_offer},
                            who.actor, who.role)

    def verify_close_bets(self, who: Who) -> None:
        """Bets close once at least one player has bet (two at a pot game)."""
        state = self._check("close_bets", who, Phase.BETTING)
        if not [p for p in state.bets if p != HOUSE]:
            raise IllegalActError("close_bets", "no player has bet")
        if self.game.play.pot is not None and len(state.bets) < 2:
            raise IllegalActError("close_bets", f"a pot needs two players; only "
                                                f"{sorted(state.bets)} anted")
        if state.banker != HOUSE and HOUSE not in state.bets:
            raise IllegalActError("close_bets", "the house has not bet against the player bank")

    def can_close_bets(self, who: Who) -> bool:
        """Whether ``close_bets`` would be accepted."""
        return self._can(lambda: self.verify_close_bets(who))

    def close_bets(self, who: Who) -> Record:
        """No more bets: the deal comes next."""
        self.verify_close_bets(who)
        return self._append({"type": "bets_closed", "v": 1}, who.actor, who.role)

    # --- dice --------------------------------------------------------------------------------

    def verify_roll(self, who: Who) -> None:
        """The dice roll once every hand is out (packets dealt or woodpile built)."""
        self._check("roll", who, Phase.DEALT)

    def can_roll(self, who: Who) -> bool:
        """Whether ``roll`` would be accepted."""
        return self._can(lambda: self.verify_roll(who))

    def roll(self, who: Who) -> Record:
        """Shake the dice: a ``roll`` picks the first position; a no-game shake is recorded."""
        self.verify_roll(who)
        result = self._port("roll", self.dice.name, self.dice.roll)
        if result.faces is None:
            return self._append({"type": "dice_no_game", "v": 1, "reason": result.no_game},
                                self.dice.name, Role.DEVICE)
        dice = self._rules("roll", lambda: _dice(result.faces))
        return self._append(dice, self.dice.name, Role.DEVICE, self.dice.randomness)

    # --- what the hands are ------------------------------------------------------------------

    def known_hand(self, position: int) -> tuple[str, ...] | None:
        """The pieces dealt to ``position`` when a device told them (cards), else None."""
        state = self.round
        if state is None or state.plan is None or len(state.packets) < self.game.positions:
            return None
        return self.game.hand(state.packets[state.plan.packet_of(position) - 1])

    def _seen_pieces(self, skip: int | None = None) -> list[str]:
        state = self.round
        assert state is not None
        out = [p for pos, e in state.settings.items() if pos != skip
               for p in self.game.pieces(e.setting)]
        if state.exposure is not None and skip != HOUSE:
            out.extend(self.game.pieces(state.exposure.setting))
        return out

    def _setting_for(self, act: str, position: int, setting: str | None,
                     hand: str | Sequence[str] | None) -> tuple[S, SetBy]:
        """The setting a position plays: as given, or by the house way on its pieces."""
        known = self.known_hand(position)
        given = self._rules(act, lambda: None if setting is None else self.game.parse(setting))
        if given is not None:
            pieces = self.game.pieces(given)
        elif known is not None:
            pieces = known
        elif hand is not None:
            text = hand.split() if isinstance(hand, str) else list(hand)
            pieces = self._rules(act, lambda: self.game.hand(text))
        else:
            raise PiecesUnknownError(act, f"position {position}'s pieces are not known: give "
                                          f"the setting or the hand")
        if len(pieces) != self.game.hand_size:
            raise IllegalActError(act, f"position {position} needs {self.game.hand_size} "
                                       f"pieces, not {len(pieces)}")
        if known is not None and tuple(sorted(pieces)) != tuple(sorted(known)):
            raise IllegalActError(act, f"setting {setting!r} is not the hand dealt to position "
                                       f"{position}: {' '.join(known)}")
        self._rules(act, lambda: self.game.check_pieces([*self._seen_pieces(position),
                                                         *pieces]))
        if given is not None:
            return given, SetBy.PLAYER
        return self._rules(act, lambda: self.game.house_way(pieces))[0], SetBy.HOUSE_WAY


def _dice(faces: tuple[int, int, int] | None) -> Event:
    from ..rules.dice import Dice
    assert faces is not None
    return Dice(faces)


__all__ = ["HandSet", "RoundEngine"]
