"""Banking rotation: the bank is offered to each player in turn, and a player-banker must cover.

docs/sources.md: [D3] line 23: "each player will be given the opportunity
to act as the banker, covering all the bets of the rest of the players and acting as the house.
This is not required, it's strictly optional"; line 75: "your turns at playing the bank".

The turn passes one player position per round in the table's own order (2, 3, ... and round
again: position 2 sits immediately to the dealer's right and the count runs counter-clockwise,
[D0] l.13).  A round's offer goes to the position in turn unless the dealer passes over
empty seats, which the offer then names as skipped; the next round's turn follows the position
last offered.  The player may take the bank or decline it; on a decline the house banks the
round.  A player-banker puts up a bank that must cover every wager against it, the house's
included (``check_cover``): a bet it cannot cover is refused, naming the shortfall.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from .dice import MAX_POSITIONS
from .errors import SettlementError
from .poker.dealing import HOUSE

FIRST_PLAYER: Final = HOUSE + 1


class CoverError(SettlementError):
    """A player-banker's bank that does not cover the wagers against it; names the shortfall."""


class TurnError(SettlementError):
    """A bank offered out of turn, or to a position that is not a player's."""


def _players(positions: int) -> tuple[int, ...]:
    if isinstance(positions, bool) or not isinstance(positions, int) or \
            not FIRST_PLAYER <= positions <= MAX_POSITIONS:
        raise TurnError(f"position count {positions!r} must be {FIRST_PLAYER}..{MAX_POSITIONS}")
    return tuple(range(FIRST_PLAYER, positions + 1))


def turn_order(last_offered: int | None, positions: int) -> tuple[int, ...]:
    """Every player position, starting with the one whose turn it is after ``last_offered``."""
    players = _players(positions)
    if last_offered is None:
        return players
    if last_offered not in players:
        raise TurnError(f"last offered position {last_offered!r} is not one of "
                        f"{FIRST_PLAYER}..{positions}")
    start = players.index(last_offered) + 1
    return players[start:] + players[:start]


def in_turn(last_offered: int | None, positions: int) -> int:
    """The position the bank is offered to next."""
    return turn_order(last_offered, positions)[0]


@dataclass(frozen=True, slots=True)
class BankOffer:
    """Record of the offer act: who is offered the bank, and the empty seats passed over."""

    position: int
    skipped: tuple[int, ...] = ()

    def to_json(self) -> dict[str, object]:
        """The ``bank_offered`` record's payload."""
        return {"type": "bank_offered", "v": 1, "position": self.position,
                "skipped": list(self.skipped)}


def offer(last_offered: int | None, positions: int, to: int | None = None) -> BankOffer:
    """The offer of this round: to the position in turn, or to ``to`` passing over the seats
    between (empty ones); TurnError names a position that is not a player's."""
    order = turn_order(last_offered, positions)
    if to is None:
        return BankOffer(order[0])
    if isinstance(to, bool) or to not in order:
        raise TurnError(f"position {to!r} is not a player's position "
                        f"({FIRST_PLAYER}..{positions})")
    index = order.index(to)
    return BankOffer(to, order[:index])


def covered(wagers: Iterable[int]) -> int:
    """What a bank must cover: the sum of the wagers against it, in cents."""
    return sum(wagers)


def check_cover(bank: int, wagers: Iterable[int], *, adding: tuple[int, int] | None = None
                ) -> None:
    """CoverError unless ``bank`` covers every wager (and the bet ``adding`` =
    (position, wager) about to be taken), naming the shortfall in cents."""
    if isinstance(bank, bool) or not isinstance(bank, int) or bank < 1:
        raise CoverError(f"bank {bank!r} must be whole cents >= 1")
    standing = covered(wagers)
    need = standing + (adding[1] if adding is not None else 0)
    if need <= bank:
        return
    short = need - bank
    if adding is None:
        raise CoverError(f"the bank of {bank} cents does not cover {need} cents of wagers: "
                         f"short by {short} cents")
    position, wager = adding
    raise CoverError(f"wager {wager!r} cents at position {position}: the bank of {bank} cents "
                     f"covers only {max(bank - standing, 0)} cents more (short by {short} "
                     f"cents)")
