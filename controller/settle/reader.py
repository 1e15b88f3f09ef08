"""The one reader of a round file's parts both games share: money, positions, hands, bets and
the bank, with errors that name the offending key, position or value.

A round file is JSON (``paigow settle ROUND.json``); ``poker``, ``pot`` and ``tiles`` read
their own keys and hand the shared ones to these functions, so money, positions and hands are
read one way whatever the game.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from ..config.files import parse_json
from ..errors import ConfigError
from ..rules.errors import NotationError, RulesError
from ..rules.money import parse_money
from ..rules.seat import Bet, HandSet, SetBy

S = TypeVar("S")
R = TypeVar("R")


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


def read_hand(position: int, value: object, pieces: str, as_set: Callable[[str], S],
              by_house_way: Callable[[str], S]) -> HandSet[S]:
    """A position's hand: its pieces set by the house way (``by_house_way``), or ``LOW /
    HIGH`` as the player set it (``as_set``).  ``pieces`` names them: "cards" or "tiles"
    (a hand may also be given as ``{"setting": ...}`` or ``{pieces: ...}``)."""
    if isinstance(value, dict):
        value = value.get("setting") or value.get(pieces)
    if not isinstance(value, str):
        raise NotationError(f"hand of position {position} must be text, not {value!r}")
    try:
        if "/" in value:
            return HandSet(position, as_set(value), SetBy.PLAYER)
        return HandSet(position, by_house_way(value), SetBy.HOUSE_WAY)
    except RulesError as err:
        raise NotationError(f"position {position}: {err}") from err


def read_hands(data: Mapping[str, Any], read: Callable[[int, object], HandSet[S]],
               pieces: str) -> tuple[HandSet[S], ...]:
    """The round's ``hands``: {position: pieces or 'LOW / HIGH'}, each read by ``read``."""
    raw = data.get("hands")
    if not isinstance(raw, Mapping) or not raw:
        raise NotationError(f"a round needs 'hands': {{position: {pieces} or 'LOW / HIGH'}}")
    return tuple(read(read_position(key), value) for key, value in raw.items())


def read_bets(raw: object, *, fortune: bool) -> tuple[Bet, ...]:
    """The round's ``bets``: [{position, wager, (fortune)}], money as ``read_money`` reads it;
    ``fortune`` says whether the table takes the Fortune side bet."""
    if not isinstance(raw, list):
        raise NotationError(f"'bets' must be a list, not {raw!r}")
    keys = {"position", "wager", *(("fortune",) if fortune else ())}
    bets = []
    for bet in raw:
        if not isinstance(bet, Mapping) or "position" not in bet:
            raise NotationError(f"a bet needs a position and a wager: {bet!r}")
        position = read_position(bet["position"])
        extra = sorted(set(bet) - keys)
        if extra:
            raise NotationError(f"unknown bet key {extra[0]!r} at position {position}"
                                + ("" if fortune else " (a tile table takes no side bets)"))
        bets.append(Bet(position, read_money(bet.get("wager", 0), f"wager at {position}"),
                        read_money(bet.get("fortune", 0), f"Fortune bet at {position}")))
    return tuple(bets)


def read_bank(data: Mapping[str, Any]) -> tuple[int, int | None, bool]:
    """The banker's position (1, the house, by default), what a player-banker puts up (None:
    not given) and whether the bank is shared with the house (``co_bank``)."""
    bank = read_money(data["bank"], "bank") if "bank" in data else None
    banker = read_position(data.get("banker", 1))
    co_bank = data.get("co_bank", False)
    if not isinstance(co_bank, bool):
        raise NotationError(f"co_bank {co_bank!r} must be true or false")
    return banker, bank, co_bank


def check_positions(profile: str, positions: int, used: Mapping[str, int]) -> None:
    """NotationError naming the first position (of a hand, a bet, the banker) that is not at
    a table of ``positions`` places (a heads-up table has the dealer, 1, and one seat, 2)."""
    for what, position in used.items():
        if not 1 <= position <= positions:
            table = ("a heads-up table: the dealer (1) and one seat (2)" if positions == 2
                     else f"positions 1..{positions}")
            raise NotationError(f"{what}: position {position} is not at table profile "
                                f"{profile!r} ({table})")


def used_positions(banker: int, hands: tuple[HandSet[Any], ...],
                   bets: tuple[Bet, ...]) -> dict[str, int]:
    """Every position a round names, by what names it (for ``check_positions``)."""
    return {"banker": banker, **{f"hand of position {h.position}": h.position for h in hands},
            **{f"bet at position {b.position}": b.position for b in bets}}


def load_json_round(text: str, where: str, read: Callable[[Any], R]) -> R:
    """Parse a round's JSON text with ``read``; any error names the file."""
    data = parse_json(text, where)
    try:
        return read(data)
    except RulesError as err:
        raise ConfigError(f"{where}: {err}") from err


def is_tile_round(text: str) -> bool:
    """True when a round's JSON text says ``"game": "tiles"`` (bad JSON: False, the card
    reader names the fault)."""
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        return False
    return isinstance(data, dict) and data.get("game") == "tiles"


__all__ = ["check_positions", "is_tile_round", "load_json_round", "read_bank", "read_bets",
           "read_hand", "read_hands", "read_money", "read_position", "used_positions"]
