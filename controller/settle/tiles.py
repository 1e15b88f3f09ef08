"""A Pai Gow tiles round, read from a round file, settled and reported.

Input, as for the cards (``poker``) with ``"game": "tiles"``::

    {"game": "tiles",
     "profile": "tiles-classic",        optional, default "tiles-classic"
     "way": "foxwoods",                 optional, the profile's house way by default
     "banker": 1,                       optional, 1 = the house
     "bank": "500.00",                  optional, what a player-banker puts up
     "co_bank": true,                   optional, the player-banker shares the bank with the house
     "hands": {"1": "6-6 4-5 1-2 3-3",           four tiles: set by the house way
               "2": "1-2 3-3 / 6-6 4-5"},        LOW / HIGH: as the player set it
     "bets": [{"position": 2, "wager": "25.00"}]}

Four tiles are set by the round's tile house way (``config.house_ways.tile_engine``), which
also re-sets a foul under the foul policy "house_way".
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..config.house_ways import tile_engine
from ..profiles.tiles import DEFAULT_TILE_PROFILE, TileProfile, load_tile_profile
from ..rules.bank import Settlement
from ..rules.config_check import check_keys
from ..rules.errors import NotationError
from ..rules.money import format_money
from ..rules.seat import Bet, HandSet
from ..rules.tiles.comparison import TileReset
from ..rules.tiles.dominoes import Tile, check_one_set, format_tiles
from ..rules.tiles.hands import TileRules, describe
from ..rules.tiles.setting import TileSetting, four
from ..rules.tiles.settlement import settle_tiles
from .reader import (
    check_positions,
    load_json_round,
    read_bank,
    read_bets,
    read_hand,
    read_hands,
    used_positions,
)
from .report import bank_lines, bank_totals

_KEYS = {"game", "profile", "way", "banker", "bank", "co_bank", "hands", "bets"}


def tile_house_way(name: str, rules: TileRules) -> TileReset:
    """The named tile house way as a callable on four tiles; HouseWayError names an unknown one."""
    engine = tile_engine(name, rules)

    def set_tiles(tiles: Sequence[Tile]) -> TileSetting:
        return engine.set_hand(tiles).setting.setting

    return set_tiles


@dataclass(frozen=True, slots=True)
class TileRoundInput:
    """A validated tile round: profile, house way, hands and bets."""

    profile: TileProfile
    way: str
    house_way: TileReset
    banker: int
    bank: int | None
    co_bank: bool
    hands: tuple[HandSet[TileSetting], ...]
    bets: tuple[Bet, ...]


def read_tile_round(data: Mapping[str, Any]) -> TileRoundInput:
    """Validate a tile round mapping; errors name the offending key, position or tile."""
    if not isinstance(data, Mapping):
        raise NotationError(f"a round must be a JSON object, not {data!r}")
    check_keys(data, _KEYS, NotationError, what="round key")
    if data.get("game") != "tiles":
        raise NotationError(f"game {data.get('game')!r}: this reads tile rounds")
    profile = load_tile_profile(str(data.get("profile", DEFAULT_TILE_PROFILE)))
    way = str(data.get("way") or profile.house_way)
    house_way = tile_house_way(way, profile.ruleset)
    hands = read_hands(data, lambda position, value: read_hand(
        position, value, "tiles", TileSetting.parse, lambda text: house_way(four(text))),
        "four tiles")
    check_one_set((t for h in hands for t in h.setting.tiles), "the round's hands")
    bets = read_bets(data.get("bets", []), fortune=False)
    banker, bank, co_bank = read_bank(data)
    check_positions(profile.name, profile.positions, used_positions(banker, hands, bets))
    return TileRoundInput(profile, way, house_way, banker, bank, co_bank, hands, bets)


def load_tile_round(text: str, where: str) -> TileRoundInput:
    """Parse a tile round's JSON text."""
    return load_json_round(text, where, read_tile_round)


def settle_tile_round(round_: TileRoundInput) -> Settlement[TileSetting]:
    """Settle a validated tile round under its profile."""
    return settle_tiles(round_.hands, round_.bets, round_.profile.ruleset,
                        round_.profile.settlement, banker=round_.banker,
                        reset=round_.house_way, bank=round_.bank, co_bank=round_.co_bank)


def _codes(hand: tuple[object, ...]) -> list[str]:
    return [str(t) for t in hand]


def tile_settlement_json(
    result: Settlement[TileSetting], round_: TileRoundInput
) -> dict[str, object]:
    """The ``--json`` shape of ``paigow settle`` for tiles: per seat outcome and payout, in
    cents, hands as tile codes with their ranks in words."""
    rules = round_.profile.ruleset
    seats = []
    for seat in result.seats:
        c = seat.comparison
        seats.append({
            "position": seat.bet.position,
            "wager": seat.bet.wager,
            "outcome": c.outcome.value if c else None,
            "reason": c.reason.value if c else None,
            "low": _codes(c.setting.low) if c else None,
            "high": _codes(c.setting.high) if c else None,
            "low_rank": describe(c.setting.low, rules) if c else None,
            "high_rank": describe(c.setting.high, rules) if c else None,
            "reset_from": str(c.reset_from) if c and c.reset_from else None,
            "commission": seat.commission,
            "payout": seat.gross - seat.commission,
            "net": seat.net,
        })
    banker = result.banker_setting
    return {
        "game": "tiles",
        "profile": round_.profile.name,
        "way": round_.way,
        "banker": result.banker,
        "banker_low": _codes(banker.low),
        "banker_high": _codes(banker.high),
        "banker_low_rank": describe(banker.low, rules),
        "banker_high_rank": describe(banker.high, rules),
        "banker_fouled": result.banker_fouled,
        "seats": seats,
        **bank_totals(result),
    }


def tile_settlement_text(result: Settlement[TileSetting], round_: TileRoundInput) -> str:
    """A dealer-readable table of a tile settlement."""
    rules = round_.profile.ruleset
    bank = result.banker_setting
    lines = [f"bank: position {result.banker}  {format_tiles(bank.low)} / "
             f"{format_tiles(bank.high)}  ({describe(bank.low, rules)} / "
             f"{describe(bank.high, rules)})" + ("  foul" if result.banker_fouled else "")]
    for seat in result.seats:
        c = seat.comparison
        outcome = f"{c.outcome.value:<4} ({c.reason.value})" if c else "banker"
        hands = f"{c.setting!s:<19}" if c else " " * 19
        lines.append(f"position {seat.bet.position}: {hands} wager "
                     f"{format_money(seat.bet.wager):>8}  {outcome:<17} commission "
                     f"{format_money(seat.commission):>6}  net {format_money(seat.net):>9}")
    lines.extend(bank_lines(result))
    return "\n".join(lines)
