"""The players' part of the simulated table's rounds (``TableRunner``'s seats): the bank
offered in turn, the wagers or antes taken, the hands known (the simulated tiles washed into
the woodpile, or the cards the engine dealt) and each setting decided, keyed in by the dealer
(now and then wrongly: ``entry_error_rate``) and laid on the layout for the camera to read.

What lies on the layout (``placed``) is what the supervisor corrects a camera mismatch to.
Every act goes through the runner's ``act`` (a refusal is journaled, not fatal) and the panel's
buttons through its ``press``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from firmware_interfaces.gpio import PanelButton

from ..journal import Record
from ..round import Who
from ..round.oversight import OversightEngine
from ..rules.poker.dealing import HOUSE
from ..rules.tiles.dominoes import full_set
from ..table.live import Devices
from ..table.people import Choice, Dealer, Decision, Players

DEALER = Who.dealer()
SUPERVISOR = Who.supervisor()

REPEAT_RATE = 0.8
"""At a ``repeat_wager`` table, how often a player lets "Deal" repeat the last wager."""


class Act(Protocol):
    """An act done through the table by the runner: the records, none if it was refused."""

    def __call__(self, name: str, who: Who, *args: Any, **kwargs: Any) -> list[Record]:
        """Do act ``name`` as ``who``."""


@dataclass(eq=False)
class Seats:
    """The bets and settings, in the round ``engine`` has open, of the players and dealer the
    runner names at each call (its ``players`` and ``dealer`` may be replaced between them)."""

    engine: OversightEngine[Any]
    devices: Devices
    rng: random.Random
    entry_error_rate: float  # the dealer keys in another setting than the layout's
    act: Act
    press: Callable[[PanelButton], None]
    placed: dict[int, str] = field(default_factory=dict)
    """The setting laid at each position this round: what the layout shows."""
    _woodpile: tuple[tuple[str, ...], ...] | None = field(default=None, init=False)

    def new_round(self) -> None:
        """Forget the last round's layout and tiles."""
        self.placed, self._woodpile = {}, None

    def bets(self, players: Players) -> None:
        """The bank offered in turn (rotation), then the wagers or antes, then no more bets."""
        state = self.engine.round
        assert state is not None
        play = self.engine.game.play
        if play.rotation and state.banker == HOUSE and not state.bets:
            if state.bank_offer is None:
                self.act("offer_bank", DEALER)
            elif not state.bank_declined:
                if players.takes_bank():
                    amount = players.bank_amount(self.engine.game.positions)
                    self.act("bank", SUPERVISOR, state.bank_offer, amount)
                else:
                    self.act("decline_bank", DEALER)
            else:
                self._place_bets(players)
            return
        if not state.bets:
            self._place_bets(players)
            return
        self.act("close_bets", DEALER)

    def _place_bets(self, players: Players) -> None:
        state = self.engine.round
        assert state is not None
        game = self.engine.game
        positions = [p for p in range(2, game.positions + 1) if p != state.banker]
        wagers = players.bets(positions)
        if game.play.pot is not None:  # home play: each antes what is due; two at least
            for extra in positions:
                if len(wagers) >= 2:
                    break
                wagers.setdefault(extra, 0)
            wagers = {p: self.engine.ante_due(p) for p in wagers}
        elif game.play.repeat_wager:  # "Deal" repeats the last wager, mostly
            for position in wagers:
                last = self.engine.last_wager(position)
                if last is not None and self.rng.random() < REPEAT_RATE:
                    wagers[position] = last
        if state.banker != HOUSE:  # the house plays position 1 against the player's bank
            wagers = {HOUSE: players.bets([HOUSE])[HOUSE], **wagers}
        fortunes = players.fortunes([p for p, w in wagers.items() if w and p != HOUSE]) \
            if game.fortune and game.play.pot is None else {}
        for position, wager in wagers.items():
            self.act("take_bet", DEALER, position, wager, fortunes.get(position, 0))

    def wash(self) -> None:
        """The simulated tiles: a shuffled set in eight stacks of four, stack 1 first."""
        tiles = [str(t) for t in full_set()]
        self.rng.shuffle(tiles)
        self._woodpile = tuple(tuple(tiles[4 * k:4 * k + 4]) for k in range(len(tiles) // 4))

    def _hand(self, position: int) -> tuple[str, ...] | None:
        known = self.engine.known_hand(position)
        if known is not None:
            return known
        state = self.engine.round
        if self._woodpile is None or state is None or state.plan is None:
            return None
        return self._woodpile[state.plan.packet_of(position) - 1]

    def set_next(self, players: Players, dealer: Dealer) -> Callable[[], None] | None:
        """The next hand set (the dealer's last); what is left to do once the lock is let go."""
        state = self.engine.round
        assert state is not None
        waiting = [p for p in state.playing() if p != HOUSE and p not in state.settings]
        if not waiting and self.engine.game.play.pot is not None:
            # home play: no dealer's hand; settle the pot
            return lambda: self.press(PanelButton.CONFIRM)
        position = waiting[0] if waiting else HOUSE
        pieces = self._hand(position)
        if pieces is None:
            self.act("void", SUPERVISOR, f"position {position}'s hand is not known to the "
                                          f"simulated table (restart)")
            return None
        if position == HOUSE:
            decision = dealer.decide(pieces)
            self._place(position, decision.setting)
            self.act("expose_dealer", DEALER, decision.setting)
            return None
        decision = players.decide(pieces)
        self._place(position, decision.setting)
        entered = self._entry(players, decision, pieces)
        if entered is None:
            self.act("set_hand", DEALER, position, hand=list(pieces))
        else:
            self.act("set_hand", DEALER, position, entered)
        return None

    def _entry(self, players: Players, decision: Decision, pieces: Sequence[str]) -> str | None:
        """What the dealer keys in: None for the house way; now and then a wrong setting."""
        if self.rng.random() < self.entry_error_rate:
            options = players.setter.options(pieces)
            wrong = [s for s in (options.house_way, *options.others) if s != decision.setting]
            if wrong:
                return self.rng.choice(wrong)
        return None if decision.choice is Choice.HOUSE_WAY else decision.setting

    def _place(self, position: int, setting: str) -> None:
        self.placed[position] = setting
        camera = self.devices.camera
        if camera is not None:
            camera.place(position, setting)


__all__ = ["REPEAT_RATE", "Act", "Seats"]
