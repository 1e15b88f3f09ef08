"""From the roll to the settlement: players set, the dealer exposes, the camera reads, settle.

The camera is optional.  Without one every playing position is keyed (``set_hand``) before the
dealer's hand is exposed, and the entered settings stand.  With one, the dealer may expose
while positions are still unset: their hands lie face down in their boxes until the dealer
turns them up, and the camera's reading sets each (a ``set`` record with ``"source":
"camera"``, written by the camera), once it holds that position's own pieces.  A position the
camera cannot read (or reads as pieces that are not its hand) is never guessed: it stays unset
and the dealer keys it (``set_hand`` while exposed), and nothing settles until every position
is set.  A reading that differs from a setting already entered raises a critical fault (no
settling until a correction or a supervisor clears it); a reading of None (unknown) leaves the
entered setting standing.  The dealer's deviation from the house way is flagged by a
``deviation`` record just before the settlement.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from pathlib import Path
from typing import TypeVar

from ..journal import Record, Role
from ..journal.kinds import fault_cleared
from ..rules.poker.dealing import HOUSE
from ..rules.poker.home_pot import PotResult, PotStatus
from ..rules.records import to_json
from ..rules.seat import HandSet, SetBy
from .acts import Who
from .base import RoundEngine
from .errors import IllegalActError
from .state import Phase

log = logging.getLogger(__name__)

DICE_AREA = 0
"""The position a camera's kept frame of the dice area is kept under (no player sits at 0)."""
DEALER_OFF_HOUSE_WAY = "dealer_off_house_way"
"""The fault a live table raises when the dealer's hand is exposed set off the house way."""
S = TypeVar("S")


class ShowdownEngine(RoundEngine[S]):
    """Setting, exposing, reading and settling hands."""

    def verify_set_hand(self, who: Who, position: int, setting: str | None = None,
                        hand: str | Sequence[str] | None = None) -> None:
        """A playing position sets once, with its own pieces (or asks for the house way);
        once the dealer's hand is exposed, only a position the camera left unset (the dealer
        keys it)."""
        state = self._check("set_hand", who, Phase.SETTING, Phase.EXPOSED)
        if position == HOUSE or position not in state.playing():
            raise IllegalActError("set_hand", f"position {position!r} has no player's hand; "
                                              f"playing: {list(state.playing())}")
        if position in state.settings:
            raise IllegalActError("set_hand", f"position {position} is already set (record "
                                              f"{state.settings[position].seq}); correct it")
        self._setting_for("set_hand", position, setting, hand)

    def can_set_hand(self, who: Who, position: int, setting: str | None = None,
                     hand: str | Sequence[str] | None = None) -> bool:
        """Whether ``set_hand`` would be accepted."""
        return self._can(lambda: self.verify_set_hand(who, position, setting, hand))

    def set_hand(self, who: Who, position: int, setting: str | None = None,
                 hand: str | Sequence[str] | None = None) -> Record:
        """Record how a position set its hand; without ``setting``, the house way sets it."""
        self.verify_set_hand(who, position, setting, hand)
        chosen, by = self._setting_for("set_hand", position, setting, hand)
        return self._append(HandSet(position, chosen, by), who.actor, who.role)

    def verify_play_house_way(self, who: Who, position: int,
                              hand: str | Sequence[str] | None = None) -> None:
        """A player may ask for the house way instead of setting (as ``set_hand``)."""
        self._check("play_house_way", who, Phase.SETTING, Phase.EXPOSED)
        self.verify_set_hand(who, position, None, hand)

    def can_play_house_way(self, who: Who, position: int,
                           hand: str | Sequence[str] | None = None) -> bool:
        """Whether ``play_house_way`` would be accepted."""
        return self._can(lambda: self.verify_play_house_way(who, position, hand))

    def play_house_way(self, who: Who, position: int,
                       hand: str | Sequence[str] | None = None) -> Record:
        """"Play the house way" at the player's request: the house way sets the hand, and the
        ``set`` record says ``"by": "house_way"`` with ``"request": "player"``."""
        self.verify_play_house_way(who, position, hand)
        chosen, _ = self._setting_for("play_house_way", position, None, hand)
        return self._append({**to_json(HandSet(position, chosen, SetBy.HOUSE_WAY)),
                             "request": "player"}, who.actor, who.role)

    def verify_expose_dealer(self, who: Who, setting: str | None = None,
                             hand: str | Sequence[str] | None = None) -> None:
        """The dealer exposes once every player has set; at a table with a camera, also with
        positions unset (the camera reads them as the dealer turns them up)."""
        state = self._check("expose_dealer", who, Phase.SETTING)
        if self.game.play.pot is not None:
            raise IllegalActError("expose_dealer", "a pot game (home play) has no dealer's "
                                                   "hand; settle the pot once all have set")
        waiting = [p for p in state.playing() if p != HOUSE and p not in state.settings]
        if waiting and self.camera is None:
            raise IllegalActError("expose_dealer", f"positions {waiting} have not set (a "
                                                   f"table without a camera keys every setting "
                                                   f"before the exposure)")
        self._setting_for("expose_dealer", HOUSE, setting, hand)

    def can_expose_dealer(self, who: Who, setting: str | None = None,
                          hand: str | Sequence[str] | None = None) -> bool:
        """Whether ``expose_dealer`` would be accepted."""
        return self._can(lambda: self.verify_expose_dealer(who, setting, hand))

    def expose_dealer(self, who: Who, setting: str | None = None,
                      hand: str | Sequence[str] | None = None) -> Record:
        """The dealer's hand, as the dealer set it (the house way if not given) and the house
        way's setting of it."""
        self.verify_expose_dealer(who, setting, hand)
        actual, _ = self._setting_for("expose_dealer", HOUSE, setting, hand)
        pieces = self.game.pieces(actual)
        house_way, rule = self.game.house_way(pieces)
        record = self._append({"type": "dealer_exposed", "v": 1, "position": HOUSE,
                               "hand": list(pieces), "setting": str(actual),
                               "house_way": str(house_way), "rule": rule}, who.actor, who.role)
        if self.hold_deviations and str(actual) != str(house_way):
            self._fault(DEALER_OFF_HOUSE_WAY, f"the dealer's hand {actual} is not the house "
                        f"way's {house_way} ({rule}): the supervisor corrects it or lets it "
                        f"stand", position=HOUSE)
        return record

    # --- the camera --------------------------------------------------------------------------

    def entered(self, position: int) -> S:
        """The setting standing for ``position`` as entered (and corrected)."""
        state = self.round
        assert state is not None
        if position == HOUSE:
            assert state.exposure is not None
            return state.exposure.setting
        return state.settings[position].setting

    def verify_read_camera(self, who: Who, position: int) -> None:
        """The camera reads a playing position once the dealer's hand is exposed."""
        state = self._check("read_camera", who, Phase.EXPOSED)
        if self.camera is None:
            raise IllegalActError("read_camera", "this table has no camera")
        if position not in state.playing():
            raise IllegalActError("read_camera", f"position {position!r} plays no hand")

    def can_read_camera(self, who: Who, position: int) -> bool:
        """Whether ``read_camera`` would be accepted."""
        return self._can(lambda: self.verify_read_camera(who, position))

    def read_camera(self, who: Who, position: int) -> Record:
        """What the camera sees at ``position``; a disagreement raises a critical fault.  At a
        position not yet set, a reading that holds the position's own pieces sets it (a
        ``set`` record after the ``camera_read``, the camera's); any other reads as None and
        the position waits for the dealer to key it."""
        self.verify_read_camera(who, position)
        camera = self.camera
        state = self.round
        assert camera is not None and state is not None
        text = self._port("read_camera", camera.name, lambda: camera.read(position), position)
        try:
            seen = None if text is None else self.game.parse(text)
        except ValueError:
            seen = None  # unreadable counts as unknown; the entered setting stands
        if seen is None:  # nothing seen is routine; something unreadable is worth a look
            log.log(logging.INFO if text is None else logging.WARNING,
                    "round %s: the camera could not read position %d (%r)",
                    state.round_id, position, text)
        sets: dict[str, object] | None = None
        if seen is not None and position != HOUSE and position not in state.settings:
            try:
                chosen, _ = self._setting_for("read_camera", position, str(seen), None)
            except IllegalActError as err:  # never a guess: the dealer keys it
                log.warning("round %s: the camera's reading %r of position %d is not taken, "
                            "the dealer keys it: %s", state.round_id, text, position, err)
                seen = None
            else:
                sets = {**to_json(HandSet(position, chosen, SetBy.PLAYER)), "source": "camera"}
        payload: dict[str, object] = {"type": "camera_read", "v": 1, "position": position,
                                      "setting": None if seen is None else str(seen),
                                      "raw": text}
        kept = getattr(camera, "last_frame", None)  # a real camera keeps the frame it read
        if kept is not None and getattr(kept, "position", None) == position:
            payload["frame"] = {"file": Path(kept.path).name, "sha256": kept.sha256}
        record = self._append(payload, camera.name, Role.CAMERA)
        if sets is not None:
            self._append(sets, camera.name, Role.CAMERA)
        self.check_camera(position)
        return record

    def verify_read_dice(self, who: Who) -> None:
        """The camera reads the dice area once after each roll, while the players set."""
        state = self._check("read_dice", who, Phase.SETTING)
        if self.camera is None:
            raise IllegalActError("read_dice", "this table has no camera")
        if state.dice is None or state.dice_seen:
            raise IllegalActError("read_dice", "the dice of this roll are read already")

    def can_read_dice(self, who: Who) -> bool:
        """Whether ``read_dice`` would be accepted."""
        return self._can(lambda: self.verify_read_dice(who))

    def read_dice(self, who: Who) -> Record:
        """What the camera sees in the dice area after the roll, beside what the shaker said:
        other dice (in any order) are a critical ``dice_mismatch`` fault, for the supervisor
        to look at before anyone is paid by positions the dice gave; dice it cannot tell are
        noted and the shaker's stand."""
        self.verify_read_dice(who)
        camera = self.camera
        state = self.round
        assert camera is not None and state is not None and state.dice is not None
        seen = self._port("read_dice", camera.name, camera.read_dice)
        rolled = list(state.dice.faces)
        payload: dict[str, object] = {"type": "camera_dice", "v": 1,
                                      "dice": None if seen is None else list(seen),
                                      "roll": rolled}
        kept = getattr(camera, "last_frame", None)
        if kept is not None and getattr(kept, "position", None) == DICE_AREA:
            payload["frame"] = {"file": Path(kept.path).name, "sha256": kept.sha256}
        record = self._append(payload, camera.name, Role.CAMERA)
        if seen is not None and sorted(seen) != sorted(rolled):
            self._fault("dice_mismatch", f"the camera sees dice {list(seen)} in the dice "
                        f"area; the shaker said {rolled}: the supervisor checks the dice")
        return record

    def mismatch_fault(self, position: int) -> str | None:
        """The id of the active camera-mismatch fault at ``position``, if any."""
        state = self.round
        assert state is not None
        for fault, payload in state.faults.items():
            if payload.get("code") == "camera_mismatch" and payload.get("position") == position:
                return fault
        return None

    def check_camera(self, position: int) -> None:
        """Raise a mismatch fault when the reading and the entered setting differ; clear it
        when they agree again."""
        state = self.round
        assert state is not None
        reading = state.camera.get(position)
        active = self.mismatch_fault(position)
        agrees = reading is None or self.game.parse(reading) == self.entered(position)
        if not agrees and active is None:
            self._fault("camera_mismatch", f"position {position}: the camera reads {reading!r}, "
                        f"entered {str(self.entered(position))!r}", position=position)
        elif agrees and active is not None:
            self._append(fault_cleared(active, "the camera and the entered setting agree"),
                         "table", Role.SYSTEM)

    # --- settle ------------------------------------------------------------------------------

    def _hands(self) -> list[HandSet[S]]:
        state = self.round
        assert state is not None and state.exposure is not None
        hands = [HandSet(p, e.setting, e.by) for p, e in sorted(state.settings.items())]
        return [HandSet(HOUSE, state.exposure.setting, SetBy.PLAYER), *hands]

    def verify_settle(self, who: Who) -> None:
        """Settle once exposed, every position read (with a camera) and set, no fault active;
        a pot game settles once every player has set."""
        if self.game.play.pot is not None:
            self._pot_settlement(who)
            return
        state = self._check("settle", who, Phase.EXPOSED)
        if self.camera is not None:
            unread = [p for p in state.playing() if p not in state.camera]
            if unread:
                raise IllegalActError("settle", f"the camera has not read positions {unread}")
        unset = [p for p in state.playing() if p != HOUSE and p not in state.settings]
        if unset:
            raise IllegalActError("settle", f"positions {unset} are not set: the camera could "
                                            f"not read them, so the dealer keys them (set_hand)")
        self._settlement("settle")

    def _settlement(self, act: str) -> object:
        state = self.round
        assert state is not None
        bets = [bet for bet, _ in state.bets.values()]
        return self._rules(act, lambda: self.game.settle(self._hands(), bets, state.banker,
                                                         state.bank))

    def can_settle(self, who: Who) -> bool:
        """Whether ``settle`` would be accepted."""
        return self._can(lambda: self.verify_settle(who))

    def _pot_settlement(self, who: Who) -> PotResult[S]:
        """Home play: the pot's settlement of this deal (IllegalActError names why not)."""
        state = self._check("settle", who, Phase.SETTING)
        players = [p for p in state.playing() if p != HOUSE]
        waiting = [p for p in players if p not in state.settings]
        if waiting:
            raise IllegalActError("settle", f"positions {waiting} have not set")
        hands = [HandSet(p, state.settings[p].setting, state.settings[p].by) for p in players]
        antes = {p: bet.wager for p, (bet, _) in state.bets.items()}
        pot = state.pot or PotStatus()
        return self._rules("settle", lambda: self.game.settle_pot(hands, antes, pot))

    def settle(self, who: Who) -> Record:
        """Flag the dealer's deviation from the house way, then compare and settle every bet;
        at a pot game, settle the pot (``settle`` record with a ``pot`` block)."""
        if self.game.play.pot is not None:
            pot_result = self._pot_settlement(who)
            return self._append(to_json(pot_result), who.actor, who.role)
        self.verify_settle(who)
        state = self.round
        assert state is not None and state.exposure is not None
        exposure = state.exposure
        if exposure.setting != exposure.house_way:
            self._append({"type": "deviation", "v": 1, "position": HOUSE,
                          "setting": str(exposure.setting),
                          "house_way": str(exposure.house_way), "rule": exposure.rule},
                         "table", Role.SYSTEM)
        bets = [bet for bet, _ in state.bets.values()]
        result = self.game.settle(self._hands(), bets, state.banker, state.bank)
        return self._append(to_json(result), who.actor, who.role)
