"""A Pai Gow Poker round against a bank, read from a round file, settled and reported.

Input::

    {"profile": "classic",              optional, default "classic"
     "way": "foxwoods",                 optional, the profile's house way by default
     "banker": 1,                       optional, 1 = the house
     "bank": "500.00",                  optional, what a player-banker puts up
     "co_bank": true,                   optional, the player-banker shares the bank with the house
     "hands": {"1": "As Kd Qh 9s 9c 4d Jk",        seven cards: set by the house way
               "2": "Kd Qh / As Jk 9s 9c 4d"},     LOW / HIGH: as the player set it
     "bets": [{"position": 2, "wager": "25.00", "fortune": 500}]}

Money is text in dollars ("25.00") or integer cents (2500), read as ``reader`` reads it for
both games.  Every position must be at the profile's table: a heads-up profile (``positions =
2``) has the dealer (1) and one seat (2), and a hand or bet elsewhere is refused by name.  A
profile that plays a pot (home play) reads its deal with ``pot`` instead.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..profiles.poker import TableProfile
from ..rules.errors import NotationError
from ..rules.money import format_money
from ..rules.poker.cards import check_distinct, format_cards
from ..rules.poker.hands import describe2, describe5
from ..rules.poker.house_way import HouseWayEngine
from ..rules.poker.setting import Setting, seven
from ..rules.poker.settlement import Settlement, settle
from ..rules.seat import Bet, HandSet
from .reader import check_positions, read_bank, read_bets, read_hands, used_positions
from .reader import read_hand as read_pieces
from .report import bank_lines, bank_totals

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


def read_hand(position: int, value: object, engine: HouseWayEngine) -> HandSet[Setting]:
    """A position's hand: seven cards set by the house way, or ``LOW / HIGH`` as set."""
    return read_pieces(position, value, "cards", Setting.parse,
                            lambda text: engine.set_hand(seven(text)).setting.setting)


def read_round(data: Mapping[str, Any], profile: TableProfile) -> RoundInput:
    """Validate a round against a bank under ``profile``; errors name the offending key,
    position or card."""
    unknown = sorted(set(data) - _KEYS - set(_POT_ONLY))
    if unknown:
        raise NotationError(f"unknown round key {unknown[0]!r}; known: {sorted(_KEYS)} "
                            f"(a pot profile: {sorted(_POT_ONLY)} too)")
    pot_only = [key for key in _POT_ONLY if key in data]
    if pot_only:
        raise NotationError(f"{pot_only[0]!r} is for a pot profile (home play); table profile "
                            f"{profile.name!r} plays against a bank: give 'bets'")
    engine = profile.engine(data.get("way"))
    hands = read_hands(data, lambda position, value: read_hand(position, value, engine), "cards")
    check_distinct((f"position {h.position}", h.setting.cards) for h in hands)
    bets = read_bets(data.get("bets", []), fortune=True)
    banker, bank, co_bank = read_bank(data)
    check_positions(profile.name, profile.positions, used_positions(banker, hands, bets))
    return RoundInput(profile, engine, banker, bank, co_bank, hands, bets)


def settle_round(round_: RoundInput) -> Settlement[Setting]:
    """Settle a validated round under its profile."""
    engine = round_.engine

    def reset(cards: object) -> Setting:
        return engine.set_hand(cards).setting.setting  # type: ignore[arg-type]

    return settle(round_.hands, round_.bets, round_.profile.evaluator(),
                  round_.profile.settlement, banker=round_.banker, reset=reset, bank=round_.bank,
                  co_bank=round_.co_bank)


def settlement_json(result: Settlement[Setting], round_: RoundInput) -> dict[str, object]:
    """The ``--json`` shape of ``paigow settle``: per seat outcome and payout, in cents."""
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
        **bank_totals(result),
    }


def settlement_text(result: Settlement[Setting], round_: RoundInput) -> str:
    """A dealer-readable table of the settlement."""
    lines = [f"bank: position {result.banker}  {format_cards(result.banker_setting.low)} / "
             f"{format_cards(result.banker_setting.high)}"
             + ("  (variant push: every bet pushes)" if result.variant_push else "")]
    for seat in result.seats:
        c = seat.comparison
        outcome = f"{c.outcome.value:<4} ({c.reason.value})" if c else "banker"
        lines.append(f"position {seat.bet.position}: wager {format_money(seat.bet.wager):>8}  "
                     f"{outcome:<22} commission {format_money(seat.commission):>6}  "
                     f"net {format_money(seat.net):>9}")
    lines.extend(bank_lines(result))
    return "\n".join(lines)
