"""Reading a round to settle from JSON (``paigow settle ROUND.json``) and reporting it.

Input::

    {"profile": "classic",              optional, default "classic"
     "way": "foxwoods",                 optional, the profile's house way by default
     "banker": 1,                       optional, 1 = the house
     "bank": "500.00",                  optional, what a player-banker puts up
     "co_bank": true,                   optional, the player-banker shares the bank with the house
     "hands": {"1": "As Kd Qh 9s 9c 4d Jk",        seven cards: set by the house way
               "2": "Kd Qh / As Jk 9s 9c 4d"},     LOW / HIGH: as the player set it
     "bets": [{"position": 2, "wager": "25.00", "fortune": 500}]}

Money is text in dollars ("25.00") or integer cents (2500).  A round with ``"game": "tiles"`` is
a Pai Gow tiles round, read by ``tile_round``.

Every position must be at the profile's table: a heads-up profile (``positions = 2``) has the
dealer (1) and one seat (2), and a hand or bet elsewhere is refused by name.  A profile that
plays a pot (home play, ``[play] mode = "pot"``) reads its deal with ``pot_round`` instead:
antes and the pot carried in, no bank and no bets.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from .errors import ConfigError
from .files import parse_json
from .profile import DEFAULT_PROFILE, TableProfile, load_profile
from .rules.cards import check_distinct, format_cards
from .rules.errors import NotationError, RulesError
from .rules.house_way import HouseWayEngine
from .rules.money import format_money, parse_money
from .rules.poker_eval import describe2, describe5
from .rules.seat import Bet, HandSet, SetBy
from .rules.setting import Setting, seven
from .rules.settlement import Settlement, settle

if TYPE_CHECKING:
    from .pot_round import PotRoundInput
    from .rules.home_pot import PotResult

_KEYS = {"game", "profile", "way", "banker", "bank", "co_bank", "hands", "bets"}
_POT_ONLY = ("pot", "exempt", "antes")


@dataclass(frozen=True, slots=True)
class RoundInput:
    """A validated round: profile, engine, hands and bets."""

    profile: TableProfile
    engine: HouseWayEngine
    banker: int
    bank: int | None
    co_bank: bool
    hands: tuple[HandSet[Setting], ...]
    bets: tuple[Bet, ...]


def read_money(value: object, what: str) -> int:
    """Money as integer cents (2500) or dollars text ("25.00")."""
    if isinstance(value, bool):
        raise NotationError(f"{what} {value!r} is not money")
    if isinstance(value, int):
        return value
    if isinstance(value, str):
        return parse_money(value)
    raise NotationError(f"{what} {value!r} must be cents (2500) or dollars text ('25.00')")


def read_position(key: object) -> int:
    """A position number, from a JSON key or value."""
    try:
        return int(str(key))
    except ValueError:
        raise NotationError(f"position {key!r} is not a number") from None


def read_hand(position: int, value: object, engine: HouseWayEngine) -> HandSet[Setting]:
    """A position's hand: seven cards set by the house way, or ``LOW / HIGH`` as set."""
    if isinstance(value, dict):
        value = value.get("setting") or value.get("cards")
    if not isinstance(value, str):
        raise NotationError(f"hand of position {position} must be text, not {value!r}")
    if "/" in value:
        return HandSet(position, Setting.parse(value), SetBy.PLAYER)
    return HandSet(position, engine.set_hand(seven(value)).setting.setting, SetBy.HOUSE_WAY)


def check_positions(profile: str, positions: int, used: Mapping[str, int]) -> None:
    """NotationError naming the first position (of a hand, a bet, the banker) that is not at
    a table of ``positions`` places (a heads-up table has the dealer, 1, and one seat, 2)."""
    for what, position in used.items():
        if not 1 <= position <= positions:
            table = ("a heads-up table: the dealer (1) and one seat (2)" if positions == 2
                     else f"positions 1..{positions}")
            raise NotationError(f"{what}: position {position} is not at table profile "
                                f"{profile!r} ({table})")


def read_round(data: Mapping[str, Any]) -> RoundInput | PotRoundInput:
    """Validate a round mapping; errors name the offending key, position or card.  A pot
    profile's deal is read by ``pot_round.read_pot_round``."""
    if not isinstance(data, Mapping):
        raise NotationError(f"a round must be a JSON object, not {data!r}")
    unknown = sorted(set(data) - _KEYS - set(_POT_ONLY))
    if unknown:
        raise NotationError(f"unknown round key {unknown[0]!r}; known: {sorted(_KEYS)} "
                            f"(a pot profile: {sorted(_POT_ONLY)} too)")
    if data.get("game", "poker") != "poker":
        raise NotationError(f"game {data['game']!r}: this reads Pai Gow Poker rounds")
    profile = load_profile(str(data.get("profile", DEFAULT_PROFILE)))
    if profile.play.pot is not None:
        from .pot_round import read_pot_round  # it reads with this module's readers
        return read_pot_round(data, profile)
    pot_only = [key for key in _POT_ONLY if key in data]
    if pot_only:
        raise NotationError(f"{pot_only[0]!r} is for a pot profile (home play); table profile "
                            f"{profile.name!r} plays against a bank: give 'bets'")
    engine = profile.engine(data.get("way"))
    hands_raw = data.get("hands")
    if not isinstance(hands_raw, Mapping) or not hands_raw:
        raise NotationError("a round needs 'hands': {position: cards or 'LOW / HIGH'}")
    hands = tuple(read_hand(read_position(k), v, engine) for k, v in hands_raw.items())
    check_distinct((f"position {h.position}", h.setting.cards) for h in hands)
    bets_raw = data.get("bets", [])
    if not isinstance(bets_raw, list):
        raise NotationError(f"'bets' must be a list, not {bets_raw!r}")
    bets = []
    for bet in bets_raw:
        if not isinstance(bet, Mapping) or "position" not in bet:
            raise NotationError(f"a bet needs a position and a wager: {bet!r}")
        position = read_position(bet["position"])
        extra = sorted(set(bet) - {"position", "wager", "fortune"})
        if extra:
            raise NotationError(f"unknown bet key {extra[0]!r} at position {position}")
        bets.append(Bet(position, read_money(bet.get("wager", 0), f"wager at {position}"),
                        read_money(bet.get("fortune", 0), f"Fortune bet at {position}")))
    bank = read_money(data["bank"], "bank") if "bank" in data else None
    banker = read_position(data.get("banker", 1))
    co_bank = data.get("co_bank", False)
    if not isinstance(co_bank, bool):
        raise NotationError(f"co_bank {co_bank!r} must be true or false")
    check_positions(profile.name, profile.positions, {
        "banker": banker, **{f"hand of position {h.position}": h.position for h in hands},
        **{f"bet at position {b.position}": b.position for b in bets}})
    return RoundInput(profile, engine, banker, bank, co_bank, hands, tuple(bets))


R = TypeVar("R")


def load_json_round(text: str, where: str, read: Callable[[Any], R]) -> R:
    """Parse a round's JSON text with ``read``; any error names the file."""
    data = parse_json(text, where)
    try:
        return read(data)
    except RulesError as err:
        raise ConfigError(f"{where}: {err}") from err


def load_round(text: str, where: str) -> RoundInput | PotRoundInput:
    """Parse a card round's JSON text."""
    return load_json_round(text, where, read_round)


def settle_round(round_: RoundInput | PotRoundInput) -> Settlement[Setting] | PotResult[Setting]:
    """Settle a validated round under its profile (a pot deal by ``settle_pot``)."""
    if not isinstance(round_, RoundInput):
        from .pot_round import settle_pot_round
        return settle_pot_round(round_)
    engine = round_.engine

    def reset(cards: object) -> Setting:
        return engine.set_hand(cards).setting.setting  # type: ignore[arg-type]

    return settle(round_.hands, round_.bets, round_.profile.evaluator(),
                  round_.profile.settlement, banker=round_.banker, reset=reset, bank=round_.bank,
                  co_bank=round_.co_bank)


def settlement_json(result: Settlement[Setting] | PotResult[Setting],
                    round_: RoundInput | PotRoundInput) -> dict[str, object]:
    """The ``--json`` shape of ``paigow settle``: per seat outcome and payout, in cents (a pot
    deal: ``pot_round.pot_json``)."""
    if not isinstance(result, Settlement) or not isinstance(round_, RoundInput):
        from .pot_round import PotRoundInput, pot_json
        assert not isinstance(result, Settlement) and isinstance(round_, PotRoundInput)
        return pot_json(result, round_)
    ev = round_.profile.evaluator()
    seats = []
    for seat in result.seats:
        c = seat.comparison
        seats.append({
            "position": seat.bet.position,
            "wager": seat.bet.wager,
            "outcome": c.outcome.value if c else None,
            "reason": c.reason.value if c else None,
            "low": [str(x) for x in c.setting.low] if c else None,
            "high": [str(x) for x in c.setting.high] if c else None,
            "commission": seat.commission,
            "payout": seat.gross - seat.commission,
            "fortune": {"line": seat.fortune.line.value, "net": seat.fortune.net}
            if seat.fortune else None,
            "envy": seat.envy,
            "net": seat.net,
        })
    banker = result.banker_setting
    return {
        "profile": round_.profile.name,
        "way": round_.engine.way.name,
        "banker": result.banker,
        "banker_low": [str(x) for x in banker.low],
        "banker_high": [str(x) for x in banker.high],
        "banker_low_rank": describe2(ev.rank2(banker.low)),
        "banker_high_rank": describe5(ev.rank5(banker.high)),
        "variant_push": result.variant_push,
        "seats": seats,
        "banker_commission": result.banker_commission,
        "commission_total": result.commission_total,
        "co_banked": result.co_banked,
        "banker_share": result.banker_share,
        "net_by_position": {str(k): v for k, v in sorted(result.net_by_position().items())},
    }


def settlement_text(result: Settlement[Setting] | PotResult[Setting],
                    round_: RoundInput | PotRoundInput) -> str:
    """A dealer-readable table of the settlement (a pot deal: ``pot_round.pot_text``)."""
    if not isinstance(result, Settlement) or not isinstance(round_, RoundInput):
        from .pot_round import PotRoundInput, pot_text
        assert not isinstance(result, Settlement) and isinstance(round_, PotRoundInput)
        return pot_text(result, round_)
    lines = [f"bank: position {result.banker}  {format_cards(result.banker_setting.low)} / "
             f"{format_cards(result.banker_setting.high)}"
             + ("  (variant push: every bet pushes)" if result.variant_push else "")]
    for seat in result.seats:
        c = seat.comparison
        outcome = f"{c.outcome.value:<4} ({c.reason.value})" if c else "banker"
        lines.append(f"position {seat.bet.position}: wager {format_money(seat.bet.wager):>8}  "
                     f"{outcome:<22} commission {format_money(seat.commission):>6}  "
                     f"net {format_money(seat.net):>9}")
    if result.co_banked:
        lines.append(f"co-bank: the bank's {format_money(result.banker_gross)} is shared, position "
                     f"{result.banker} {format_money(result.banker_share)} (commission "
                     f"{format_money(result.banker_commission)}), the house the rest")
    lines.append(f"commission to the house: {format_money(result.commission_total)}")
    return "\n".join(lines)
