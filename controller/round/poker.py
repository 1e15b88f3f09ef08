"""The Pai Gow Poker round: the shuffler counts the deck and deals seven packets of seven.

A count other than 53 raises a critical fault (the round pauses; a supervisor clears it once
the deck is fixed, and the shuffle is done again).  A packet of the wrong size or a card seen
twice is a misdeal: the packet is recorded as delivered and the round is voided with the
reason.
"""

from __future__ import annotations

from ..journal import Journal, Record, Role
from ..profiles.poker import TableProfile
from ..rules.errors import RulesError
from ..rules.poker.cards import DECK_SIZE
from ..rules.poker.dealing import HAND_SIZE
from ..rules.poker.setting import Setting
from .acts import Who
from .games import PokerGame
from .oversight import OversightEngine
from .ports import CameraPort, DicePort, ShufflerPort
from .state import Phase


class PokerRound(OversightEngine[Setting]):
    """The round engine of a Pai Gow Poker table."""

    def __init__(self, journal: Journal, profile: TableProfile, shuffler: ShufflerPort,
                 dice: DicePort, camera: CameraPort | None = None, *,
                 replay: bool = False) -> None:
        super().__init__(journal, PokerGame(profile), dice, camera, replay=replay)
        self.shuffler = shuffler

    def verify_shuffle(self, who: Who) -> None:
        """The shuffler shuffles once bets are closed (again after a bad count)."""
        self._check("shuffle", who, Phase.CLOSED)

    def can_shuffle(self, who: Who) -> bool:
        """Whether ``shuffle`` would be accepted."""
        return self._can(lambda: self.verify_shuffle(who))

    def shuffle(self, who: Who) -> Record:
        """Shuffle and count; a wrong count raises a critical fault."""
        self.verify_shuffle(who)
        name = self.shuffler.name
        count = self._port("shuffle", name, self.shuffler.shuffle)
        record = self._append({"type": "shuffled", "v": 1, "count": count}, name, Role.DEVICE,
                              self.shuffler.randomness)
        if count != DECK_SIZE:
            self._fault("card_count", f"the shuffler counted {count} cards, not {DECK_SIZE}",
                        device=name, act="shuffle")
        return record

    def verify_deal_packet(self, who: Who) -> None:
        """Packets come after a good shuffle, seven of them."""
        self._check("deal_packet", who, Phase.SHUFFLED, Phase.DEALING)

    def can_deal_packet(self, who: Who) -> bool:
        """Whether ``deal_packet`` would be accepted."""
        return self._can(lambda: self.verify_deal_packet(who))

    def deal_packet(self, who: Who) -> Record:
        """Take the next packet; a short packet or a repeated card voids the round (misdeal)."""
        self.verify_deal_packet(who)
        state = self.round
        assert state is not None
        name = self.shuffler.name
        cards = self._port("deal_packet", name, self.shuffler.next_packet)
        number = len(state.packets) + 1
        record = self._append({"type": "packet", "v": 1, "n": number, "cards": list(cards)},
                              name, Role.DEVICE)
        problem = None
        if len(cards) != HAND_SIZE:
            problem = f"packet {number} holds {len(cards)} cards, not {HAND_SIZE}"
        else:
            try:
                self.game.check_pieces(c for packet in state.packets for c in packet)
            except RulesError as err:
                problem = f"packet {number}: {err}"
        if problem is not None:
            self._auto_void(f"misdeal: {problem}", Who.system())
        return record
