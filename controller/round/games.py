"""What differs between the two games, behind one small interface the engine calls.

``PokerGame`` and ``TileGame`` parse settings and hands, set a hand by the house way and settle a
round through the rules core (``settlement.settle`` and ``tile_settlement.settle_tiles``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Protocol, TypeVar

from ..config.house_ways import tile_engine
from ..profiles.play import TablePlay
from ..profiles.poker import TableProfile
from ..profiles.tiles import TileProfile
from ..rules.bank import Settlement
from ..rules.dice import POSITIONS, TILE_POSITIONS
from ..rules.poker.cards import parse_cards
from ..rules.poker.home_pot import PokerPotRanks, PotError, PotResult, PotStatus, settle_pot
from ..rules.poker.setting import Setting
from ..rules.poker.settlement import settle
from ..rules.seat import Bet, HandSet, TableLimits
from ..rules.tiles.dominoes import check_one_set, parse_tiles
from ..rules.tiles.setting import TileSetting
from ..rules.tiles.settlement import settle_tiles

S = TypeVar("S")


class GameRules(Protocol[S]):
    """One game's rules as the engine needs them."""

    name: str
    positions: int
    hand_size: int
    limits: TableLimits
    profile: str
    way: str
    play: TablePlay
    fortune: bool
    """Whether the table takes a Fortune side bet."""

    def parse(self, text: str) -> S:
        """A setting from its text (``LOW / HIGH``); a RulesError names what is wrong."""

    def pieces(self, setting: S) -> tuple[str, ...]:
        """The setting's pieces as sorted texts."""

    def hand(self, pieces: Iterable[str]) -> tuple[str, ...]:
        """Pieces parsed and sorted as texts; a RulesError names a bad one."""

    def house_way(self, pieces: Sequence[str]) -> tuple[S, str]:
        """The house way's setting of a hand and the rule that chose it."""

    def check_pieces(self, pieces: Iterable[str]) -> None:
        """RulesError if these pieces could not all come from one deck or set."""

    def settle(self, hands: Sequence[HandSet[S]], bets: Sequence[Bet], banker: int,
               bank: int | None) -> Settlement[S]:
        """The rules core's settlement of the round."""

    def settle_pot(self, hands: Sequence[HandSet[S]], antes: dict[int, int],
                   status: PotStatus) -> PotResult[S]:
        """The rules core's settlement of a deal of the pot game (home play)."""


class PokerGame:
    """Pai Gow Poker under a table profile."""

    name = "poker"
    positions = POSITIONS
    hand_size = 7

    def __init__(self, profile: TableProfile) -> None:
        self._profile = profile
        self._engine = profile.engine()
        self.limits = profile.settlement.limits
        self.profile = profile.name
        self.way = profile.house_way
        self.positions = profile.positions
        self.play = profile.play
        self.fortune = profile.settlement.fortune is not None

    def parse(self, text: str) -> Setting:
        """A card setting from ``LOW / HIGH``."""
        return Setting.parse(text)

    def pieces(self, setting: Setting) -> tuple[str, ...]:
        """The seven cards, sorted, as text."""
        return self.hand(str(c) for c in setting.cards)

    def hand(self, pieces: Iterable[str]) -> tuple[str, ...]:
        """Cards parsed, sorted by index, as text."""
        return tuple(str(c) for c in sorted(parse_cards(list(pieces), what="hand")))

    def house_way(self, pieces: Sequence[str]) -> tuple[Setting, str]:
        """The profile's house way on seven cards."""
        choice = self._engine.set_hand(list(pieces))
        return choice.setting.setting, choice.rule

    def check_pieces(self, pieces: Iterable[str]) -> None:
        """DuplicateCardError names a card seen twice."""
        parse_cards(list(pieces), what="the round's cards")

    def settle(self, hands: Sequence[HandSet[Setting]], bets: Sequence[Bet], banker: int,
               bank: int | None) -> Settlement[Setting]:
        """``settlement.settle`` with the profile's rules and house way for re-sets."""
        reset: Any = (lambda cards: self._engine.set_hand(list(cards)).setting.setting) \
            if self._profile.resets_fouls else None
        return settle(hands, bets, self._engine.evaluator, self._profile.settlement,
                      banker=banker, reset=reset, bank=bank)

    def settle_pot(self, hands: Sequence[HandSet[Setting]], antes: dict[int, int],
                   status: PotStatus) -> PotResult[Setting]:
        """``home_pot.settle_pot`` with the profile's pot rules; fouls re-set by the house way
        when its pot policy says so."""
        rules = self.play.pot
        if rules is None:
            raise PotError(f"table profile {self.profile!r} plays against a bank, not a pot")
        reset: Any = lambda s: self._engine.set_hand(list(s.cards)).setting.setting  # noqa: E731
        return settle_pot(hands, antes, status, rules, PokerPotRanks(self._engine.evaluator),
                          reset=reset)


class TileGame:
    """Pai Gow tiles under a tile profile."""

    name = "tiles"
    positions = TILE_POSITIONS
    hand_size = 4

    def __init__(self, profile: TileProfile) -> None:
        self._profile = profile
        self._engine = tile_engine(profile.house_way, profile.ruleset)
        self.limits = profile.settlement.limits
        self.profile = profile.name
        self.way = profile.house_way
        self.positions = profile.positions
        self.play = profile.play
        self.fortune = False

    def parse(self, text: str) -> TileSetting:
        """A tile setting from ``LOW / HIGH``."""
        return TileSetting.parse(text)

    def pieces(self, setting: TileSetting) -> tuple[str, ...]:
        """The four tiles, sorted, as text."""
        return self.hand(str(t) for t in setting.tiles)

    def hand(self, pieces: Iterable[str]) -> tuple[str, ...]:
        """Tiles parsed, sorted by index, as text."""
        return tuple(str(t) for t in sorted(parse_tiles(list(pieces), what="hand")))

    def house_way(self, pieces: Sequence[str]) -> tuple[TileSetting, str]:
        """The profile's tile house way on four tiles."""
        choice = self._engine.set_hand(list(pieces))
        return choice.setting.setting, choice.rule

    def check_pieces(self, pieces: Iterable[str]) -> None:
        """TileSetError names a tile seen more often than one set holds it."""
        check_one_set(parse_tiles(list(pieces), what="tiles"), "the round's tiles")

    def settle(self, hands: Sequence[HandSet[TileSetting]], bets: Sequence[Bet], banker: int,
               bank: int | None) -> Settlement[TileSetting]:
        """``tile_settlement.settle_tiles`` with the profile's rules and house way for re-sets."""
        reset: Any = (lambda tiles: self._engine.set_hand(list(tiles)).setting.setting) \
            if self._profile.resets_fouls else None
        return settle_tiles(hands, bets, self._profile.ruleset, self._profile.settlement,
                            banker=banker, reset=reset, bank=bank)

    def settle_pot(self, hands: Sequence[HandSet[TileSetting]], antes: dict[int, int],
                   status: PotStatus) -> PotResult[TileSetting]:
        """Home play is a Pai Gow Poker game: always a PotError."""
        raise PotError(f"tile profile {self.profile!r}: home play (the pot) is a Pai Gow Poker "
                       f"game")
