"""Home play (the pot game): no bank, everyone antes, one player must hold both best hands.

docs/sources.md: [D0] line 23: "All players ante, then seven cards are dealt
to each player. [...] If one player has the highest front hand and back hand, then they collect
the lot. If the highest front and back hand are split between two players, the pot remains
uncollected, the other players (other than the two winners) ante again, and a new hand is
dealt, with the pot steadily building until someone can take it all."

Where the seed is silent, this module decides (``docs/table_profiles.md``):

- **Ties.** A highest hand shared by two or more players belongs to none of them alone, so the
  pot stays.  Everyone holding a highest hand, shared or not, is one of the seed's "winners" and
  does not ante for the next deal.
- **Fouls.** A back hand not above the front hand is foul (seed line 17, and line 19: "the hand
  is considered to be fouled and the stake is lost").  Under the ``loss`` policy the foul hand
  takes no part in the contest: its ante stays in the pot and it antes again.  Under
  ``house_way`` the hand is re-set by the house way first, as at a banked table.  When every
  hand is foul nobody holds a highest hand: the pot stays and everyone antes again.

Money is integer cents.  A deal's antes go into the pot; the winner takes the whole pot; the
nets of a deal and the pot's change always sum to zero (``PotResult.balance``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from ..comparison import FoulPolicy, SettingRules, play
from ..config_check import check_keys
from ..errors import ProfileError, SettlementError
from ..seat import HandSet
from .comparison import PokerHands
from .setting import Setting

S = TypeVar("S")
S_contra = TypeVar("S_contra", contravariant=True)

MIN_PLAYERS = 2
"""A pot needs two players: one alone would always take back what it put in."""


class PotError(SettlementError):
    """An ante or a deal of the pot game that breaks its rules; the message names the value."""


def _cents(value: object, what: str, minimum: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise PotError(f"{what} {value!r} must be whole cents >= {minimum}")
    return value


@dataclass(frozen=True, slots=True)
class PotRules:
    """A pot table's rules: the ante in cents and what a foul setting does."""

    ante: int = 500
    foul: FoulPolicy = FoulPolicy.LOSS

    def __post_init__(self) -> None:
        if isinstance(self.ante, bool) or not isinstance(self.ante, int) or self.ante < 1:
            raise ProfileError(f"ante_cents {self.ante!r} must be whole cents >= 1")

    @classmethod
    def from_mapping(cls, data: Mapping[str, object]) -> PotRules:
        """Read ``{ante_cents, foul}``; unknown keys and bad values are errors naming them."""
        check_keys(data, ("ante_cents", "foul"), ProfileError, what="pot key")
        foul = data.get("foul", FoulPolicy.LOSS.value)
        if foul not in tuple(p.value for p in FoulPolicy):
            raise ProfileError(f"pot foul policy {foul!r} is not one of "
                               f"{[p.value for p in FoulPolicy]}")
        ante = data.get("ante_cents", cls().ante)
        if isinstance(ante, bool) or not isinstance(ante, int):
            raise ProfileError(f"ante_cents {ante!r} must be whole cents")
        return cls(ante, FoulPolicy(str(foul)))


@dataclass(frozen=True, slots=True)
class PotStatus:
    """What one deal leaves for the next: the pot and who need not ante (the seed's winners)."""

    pot: int = 0
    exempt: frozenset[int] = frozenset()

    def __post_init__(self) -> None:
        _cents(self.pot, "pot")

    def ante_due(self, position: int, rules: PotRules) -> int:
        """What ``position`` antes for the next deal: nothing if it held a highest hand."""
        return 0 if position in self.exempt else rules.ante


def check_ante(status: PotStatus, rules: PotRules, position: int, amount: int) -> None:
    """PotError naming the amount unless it is exactly the ante due from ``position``."""
    due = status.ante_due(position, rules)
    _cents(amount, f"ante at position {position}")
    if amount != due:
        why = ("it held a highest hand of the last deal, so it does not ante"
               if due == 0 else f"the ante is {due} cents")
        raise PotError(f"ante {amount!r} cents at position {position}: {why}")


class PotRanks(SettingRules[S_contra], Protocol[S_contra]):
    """What the pot game needs of a game: the showdown's rules and each hand's rank."""

    def ranks(self, setting: S_contra) -> tuple[int, int]:
        """(low hand's rank, high hand's rank): a larger number is a better hand."""
        ...


@dataclass(frozen=True, slots=True)
class PokerPotRanks(PokerHands):
    """Pai Gow Poker settings ranked for the pot game (two-card and five-card ranks)."""

    def ranks(self, setting: Setting) -> tuple[int, int]:
        """(rank of the two-card hand, rank of the five-card hand)."""
        return self.evaluator.rank2(setting.low), self.evaluator.rank5(setting.high)


@dataclass(frozen=True, slots=True)
class PotHand(Generic[S]):
    """One player's hand in the contest: as played, its ranks, and why it took no part."""

    position: int
    ante: int
    setting: S  # as played, after any house-way re-set
    low_rank: int
    high_rank: int
    fouled: bool = False  # stands foul (policy "loss"): out of the contest
    reset_from: S | None = None


@dataclass(frozen=True, slots=True)
class PotResult(Generic[S]):
    """Record of the pot settlement of one deal."""

    carried: int  # the pot before this deal's antes
    hands: tuple[PotHand[S], ...]  # by position
    best_low: tuple[int, ...]  # positions holding the highest low (front) hand
    best_high: tuple[int, ...]  # positions holding the highest high (back) hand
    winner: int | None

    @property
    def antes(self) -> int:
        """This deal's antes in cents."""
        return sum(h.ante for h in self.hands)

    @property
    def total(self) -> int:
        """The pot once this deal's antes are in."""
        return self.carried + self.antes

    @property
    def carry(self) -> int:
        """The pot left for the next deal: none when it was taken."""
        return 0 if self.winner is not None else self.total

    @property
    def exempt_next(self) -> frozenset[int]:
        """Who need not ante next deal: the holders of a highest hand when the pot stays."""
        if self.winner is not None:
            return frozenset()
        return frozenset(self.best_low) | frozenset(self.best_high)

    def status(self) -> PotStatus:
        """What this deal leaves for the next."""
        return PotStatus(self.carry, self.exempt_next)

    def net_by_position(self) -> dict[int, int]:
        """Each player's net this deal: minus its ante, plus the pot for the winner."""
        out = {h.position: -h.ante for h in self.hands}
        if self.winner is not None:
            out[self.winner] += self.total
        return out

    @property
    def balance(self) -> int:
        """Nets plus the pot's change: always zero, no cent is made or lost."""
        return sum(self.net_by_position().values()) + self.carry - self.carried

    def to_json(self) -> dict[str, Any]:
        """The ``pot`` block of the deal's settle record (money in cents, settings as text)."""
        return {
            "carried": self.carried, "antes": self.antes, "total": self.total,
            "winner": self.winner, "carry": self.carry,
            "best_low": list(self.best_low), "best_high": list(self.best_high),
            "exempt_next": sorted(self.exempt_next),
            "hands": [{"position": h.position, "ante": h.ante, "setting": str(h.setting),
                       "low_rank": h.low_rank, "high_rank": h.high_rank, "fouled": h.fouled,
                       "reset_from": None if h.reset_from is None else str(h.reset_from)}
                      for h in self.hands],
        }


def _holders(hands: Sequence[PotHand[S]], key: Callable[[PotHand[S]], int]) -> tuple[int, ...]:
    live = [h for h in hands if not h.fouled]
    if not live:
        return ()
    best = max(key(h) for h in live)
    return tuple(h.position for h in live if key(h) == best)


def settle_pot(
    hands: Iterable[HandSet[S]],
    antes: Mapping[int, int],
    status: PotStatus,
    rules: PotRules,
    game: PotRanks[S],
    *,
    reset: Callable[[S], S] | None = None,
) -> PotResult[S]:
    """Settle one deal of the pot game.

    ``antes`` maps each player's position to what it anted (checked against ``status``: the
    ante, or nothing for last deal's winners); every player with a hand has an entry and
    nobody else; ``reset`` re-sets a foul setting by the house way (policy ``house_way``).
    """
    by_position: dict[int, HandSet[S]] = {}
    for hand in hands:
        if hand.position in by_position:
            raise PotError(f"position {hand.position!r} has two hands set")
        by_position[hand.position] = hand
    missing = sorted(set(by_position) ^ set(antes))
    if missing:
        position = missing[0]
        what = "has a hand but no ante" if position in by_position else "anted but has no hand"
        raise PotError(f"position {position!r} {what}")
    if len(by_position) < MIN_PLAYERS:
        raise PotError(f"a pot needs {MIN_PLAYERS} players or more, not {len(by_position)}")
    for position in sorted(antes):
        check_ante(status, rules, position, antes[position])

    played: list[PotHand[S]] = []
    for position in sorted(by_position):
        result = play(by_position[position].setting, game, rules.foul, reset)
        low, high = game.ranks(result.setting)
        played.append(PotHand(position, antes[position], result.setting, low, high,
                              result.fouled, result.reset_from))
    best_low = _holders(played, lambda h: h.low_rank)
    best_high = _holders(played, lambda h: h.high_rank)
    winner = best_low[0] if len(best_low) == 1 and best_low == best_high else None
    return PotResult(status.pot, tuple(played), best_low, best_high, winner)
