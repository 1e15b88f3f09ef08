"""Reading a home-play deal to settle (``paigow settle ROUND.json`` with a pot profile).

Input, for a profile whose ``[play] mode`` is ``pot`` (``home``)::

    {"profile": "home",
     "way": "trump-plaza",              optional, the profile's house way by default
     "pot": "15.00",                    optional, the pot carried in from the last deal (0)
     "exempt": [3, 5],                  optional, who held a highest hand last deal: no ante
     "antes": {"2": "5.00", "3": 0},    optional, each player's ante (default: what is due)
     "hands": {"2": "As Kd Qh 9s 9c 4d Jk",        seven cards: set by the house way
               "4": "Kd Qh / As Jk 9s 9c 4d"}}     LOW / HIGH: as the player set it

There is no bank: the dealer's packet (position 1) plays no hand, and ``bets``, ``banker``,
``bank`` and ``co_bank`` are refused by name.  Antes are checked against the profile's ante
and the exemptions (``rules.home_pot.check_ante``); the deal settles by ``settle_pot``, whose
``PotResult`` says who took the pot or what carries over.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from ..profiles.poker import TableProfile
from ..rules.config_check import check_keys
from ..rules.errors import NotationError
from ..rules.money import format_money
from ..rules.poker.cards import check_distinct, format_cards
from ..rules.poker.dealing import HOUSE
from ..rules.poker.hands import describe2, describe5
from ..rules.poker.home_pot import PokerPotRanks, PotResult, PotRules, PotStatus, settle_pot
from ..rules.poker.house_way import HouseWayEngine
from ..rules.poker.setting import Setting
from ..rules.seat import HandSet
from .poker import read_hand
from .reader import read_hands, read_money, read_position

POT_KEYS = frozenset({"game", "profile", "way", "pot", "exempt", "antes", "hands"})
_BANK_KEYS = ("bets", "banker", "bank", "co_bank")


@dataclass(frozen=True, slots=True)
class PotRoundInput:
    """A validated home-play deal: profile, house way, pot rules, what was carried in, hands
    and antes."""

    profile: TableProfile
    engine: HouseWayEngine
    rules: PotRules
    status: PotStatus
    hands: tuple[HandSet[Setting], ...]
    antes: Mapping[int, int]


def read_pot_round(data: Mapping[str, Any], profile: TableProfile) -> PotRoundInput:
    """Validate a pot deal; errors name the offending key, position, card or amount."""
    rules = profile.play.pot
    assert rules is not None
    for key in _BANK_KEYS:
        if key in data:
            raise NotationError(f"table profile {profile.name!r} plays a pot (home play): no "
                                f"bank and no bets; {key!r} is refused (give 'antes', or none "
                                f"for the ante due)")
    check_keys(data, POT_KEYS, NotationError, what="round key")
    engine = profile.engine(data.get("way"))
    carried = read_money(data.get("pot", 0), "pot carried in")
    if carried < 0:
        raise NotationError(f"pot carried in {data.get('pot')!r} must not be negative")
    exempt_raw = data.get("exempt", [])
    if not isinstance(exempt_raw, list):
        raise NotationError(f"'exempt' must be a list of positions, not {exempt_raw!r}")
    exempt = frozenset(read_position(p) for p in exempt_raw)
    status = PotStatus(carried, exempt)
    hands = read_hands(data, lambda position, value: read_hand(position, value, engine), "cards")
    for hand in hands:
        if not HOUSE < hand.position <= profile.positions:
            raise NotationError(f"position {hand.position}: in home play the players sit at "
                                f"2..{profile.positions}; the dealer's packet plays no hand")
    check_distinct((f"position {h.position}", h.setting.cards) for h in hands)
    antes_raw = data.get("antes")
    if antes_raw is None:
        antes = {h.position: status.ante_due(h.position, rules) for h in hands}
    elif isinstance(antes_raw, Mapping):
        antes = {read_position(k): read_money(v, f"ante at {k}") for k, v in antes_raw.items()}
    else:
        raise NotationError(f"'antes' must map positions to money, not {antes_raw!r}")
    return PotRoundInput(profile, engine, rules, status, hands, antes)


def settle_pot_round(round_: PotRoundInput) -> PotResult[Setting]:
    """Settle a validated pot deal (PotError names a wrong ante, a missing hand...)."""
    engine = round_.engine

    def reset(setting: Setting) -> Setting:
        return engine.set_hand(list(setting.cards)).setting.setting

    return settle_pot(round_.hands, round_.antes, round_.status, round_.rules,
                      PokerPotRanks(round_.profile.evaluator()), reset=reset)


def pot_json(result: PotResult[Setting], round_: PotRoundInput) -> dict[str, object]:
    """The ``--json`` shape of ``paigow settle`` for a pot deal, money in cents."""
    net = result.net_by_position()
    seats = [{
        "position": h.position, "ante": h.ante,
        "low": [str(c) for c in h.setting.low], "high": [str(c) for c in h.setting.high],
        "low_rank": describe2(h.low_rank), "high_rank": describe5(h.high_rank),
        "best_low": h.position in result.best_low, "best_high": h.position in result.best_high,
        "fouled": h.fouled, "reset_from": None if h.reset_from is None else str(h.reset_from),
        "net": net[h.position],
    } for h in result.hands]
    return {
        "profile": round_.profile.name, "way": round_.engine.way.name, "mode": "pot",
        "carried": result.carried, "antes": result.antes, "total": result.total,
        "winner": result.winner, "carry": result.carry,
        "best_low": list(result.best_low), "best_high": list(result.best_high),
        "exempt_next": sorted(result.exempt_next), "seats": seats,
        "net_by_position": {str(p): n for p, n in sorted(net.items())},
    }


def _positions(values: Iterable[int]) -> str:
    return ", ".join(str(p) for p in sorted(values)) or "none"


def pot_text(result: PotResult[Setting], round_: PotRoundInput) -> str:
    """A dealer-readable account of the deal: the pot, each hand, who takes it or what stays."""
    net = result.net_by_position()
    lines = [f"pot: {format_money(result.carried)} carried in + {format_money(result.antes)} "
             f"antes = {format_money(result.total)}"]
    for h in result.hands:
        marks = [m for m, on in (("highest low", h.position in result.best_low),
                                 ("highest high", h.position in result.best_high),
                                 ("foul", h.fouled),
                                 ("re-set by the house way", h.reset_from is not None)) if on]
        lines.append(f"position {h.position}: {format_cards(h.setting.low)} / "
                     f"{format_cards(h.setting.high)}  ante {format_money(h.ante):>6}  "
                     f"{describe2(h.low_rank)} / {describe5(h.high_rank)}"
                     f"{'  (' + ', '.join(marks) + ')' if marks else ''}  "
                     f"net {format_money(net[h.position]):>9}")
    if result.winner is not None:
        lines.append(f"position {result.winner} holds both highest hands and takes the pot of "
                     f"{format_money(result.total)}")
    else:
        lines.append(f"nobody holds both highest hands: the pot of {format_money(result.carry)} "
                     f"carries over; positions {_positions(result.exempt_next)} "
                     f"do not ante next deal")
    return "\n".join(lines)
