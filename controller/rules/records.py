"""The stable, versioned JSON form of every act's record: roll, deal, bet, set, compare, settle.

Each act already returns a frozen record of its own module (``Dice``, ``Deal``, ``TileDeal``,
``Bet``, ``HandSet``, ``Comparison``, ``Settlement``); this module only gives them one JSON
shape: ``{"type": ..., "v": 1, ...fields}``, cards and tiles as canonical text (``"As"``,
``"Jk"``, ``"1-2"``), settings as ``{"low": [...], "high": [...]}``, money as integer cents.
``from_json(to_json(e)) == e``.  Decoding re-checks what it can: a deal is dealt again from its
dice and cards or tiles, and a settlement's recorded nets must match its seats and sum to zero.
Any fault is a NotationError naming it.

Home play's pot deal (``home_pot.PotResult``) is a ``settle`` record too, told apart by its
``pot`` block (``banker`` is null; each player's ante is its seat's bet; settings in the block
are ``LOW / HIGH`` text, the form the round engine has written since home play began).  Decoding
re-derives the highest hands from the recorded ranks, the winner, the totals and the nets.

Both games share the types: a tile table's ``deal``, ``set``, ``compare`` and ``settle`` records
carry ``"game": "tiles"`` (settings hold tile codes, a deal holds ``"stacks"`` of four tiles
instead of ``"hands"``); without a ``game`` field a record is Pai Gow Poker's, as every record
written before the tile game existed.  ``roll`` and ``bet`` are the same for both games.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final, TypeVar

from .bank import SeatResult, Settlement
from .comparison import Comparison, HandResult, Outcome, Reason, Side
from .dice import TILE_POSITIONS, Dice
from .errors import NotationError, RulesError
from .poker.cards import Card, parse_cards
from .poker.dealing import Deal, deal, deal_cards
from .poker.fortune import FortuneResult, Line
from .poker.home_pot import PotHand, PotResult
from .poker.setting import Setting
from .seat import Bet, HandSet, SetBy
from .tiles.dealing import TileDeal, deal_tiles
from .tiles.dominoes import Tile, parse_tiles
from .tiles.setting import TileSetting

SCHEMA_VERSION: Final = 1
GAMES: Final = ("poker", "tiles")  # values of a record's "game" field; absent means poker
Event = (Dice | Deal | TileDeal | Bet | HandSet[Any] | Comparison[Any] | Settlement[Any]
         | PotResult[Any])
"""Any record the rules core's acts return."""
AnySetting = Setting | TileSetting
"""A setting of either game."""

Json = dict[str, Any]
"""A decoded JSON object."""
_T = TypeVar("_T")


# --- encoding -----------------------------------------------------------------------------------

def _texts(pieces: Sequence[Card] | Sequence[Tile]) -> list[str]:
    return [str(c) for c in pieces]


def _setting(setting: AnySetting | None) -> Json | None:
    if setting is None:
        return None
    return {"low": _texts(setting.low), "high": _texts(setting.high)}


def _game(setting: object) -> Json:
    """The ``game`` field of a record holding this setting: none for poker."""
    return {"game": "tiles"} if isinstance(setting, TileSetting) else {}


def _hand(result: HandResult | None) -> Json | None:
    return None if result is None else {"winner": result.winner.value, "copy": result.copy}


def _bet(bet: Bet) -> Json:
    return {"position": bet.position, "wager": bet.wager, "fortune": bet.fortune}


def _set(h: HandSet[AnySetting]) -> Json:
    return {**_game(h.setting), "position": h.position, "setting": _setting(h.setting),
            "by": h.by.value}


def _comparison_fields(c: Comparison[AnySetting]) -> Json:
    return {
        "position": c.position, "setting": _setting(c.setting), "outcome": c.outcome.value,
        "reason": c.reason.value, "high": _hand(c.high), "low": _hand(c.low),
        "reset_from": _setting(c.reset_from),
    }


def _comparison(c: Comparison[AnySetting]) -> Json:
    return {**_game(c.setting), **_comparison_fields(c)}


def _plan(d: Deal) -> Json:
    return {
        "dice": list(d.dice.faces), "positions": d.positions, "banker": d.banker,
        "vacant": sorted(d.vacant), "receivers": list(d.receivers),
    }


def _deal(d: Deal) -> Json:
    out = _plan(d)
    if d.hands:
        out["hands"] = [_texts(h) for h in d.hands]
        out["unused"] = _texts(d.unused)
    return out


def _tile_deal(d: TileDeal) -> Json:
    return {"game": "tiles", **_plan(d.plan), "stacks": [_texts(s) for s in d.stacks]}


def _seat(s: SeatResult[AnySetting]) -> Json:
    fortune = s.fortune
    return {
        "bet": _bet(s.bet),
        "comparison": None if s.comparison is None else _comparison_fields(s.comparison),
        "commission": s.commission,
        "fortune": None if fortune is None else {
            "line": fortune.line.value, "wager": fortune.wager, "odds": fortune.odds,
        },
        "envy": s.envy,
    }


def _settlement(s: Settlement[AnySetting]) -> Json:
    return {
        **_game(s.banker_setting),
        "banker": s.banker, "banker_setting": _setting(s.banker_setting),
        "banker_commission": s.banker_commission, "banker_fouled": s.banker_fouled,
        "banker_reset_from": _setting(s.banker_reset_from), "variant_push": s.variant_push,
        **({"co_banked": True} if s.co_banked else {}),
        "seats": [_seat(seat) for seat in s.seats],
        "net": {str(p): n for p, n in sorted(s.net_by_position().items())},
    }


def _pot_settlement(p: PotResult[AnySetting]) -> Json:
    """A pot deal's ``settle`` record: ``banker`` null, the ``pot`` block, each ante as a bet."""
    return {
        **_game(p.hands[0].setting if p.hands else None),
        "banker": None, "pot": p.to_json(),
        "seats": [{"bet": {"position": h.position, "wager": h.ante, "fortune": 0},
                   "comparison": None, "commission": 0, "fortune": None, "envy": 0}
                  for h in p.hands],
        "net": {str(pos): n for pos, n in sorted(p.net_by_position().items())},
    }


def to_json(event: Event) -> Json:
    """The JSON form of a record: ``{"type", "v", ...fields}``."""
    encoders: tuple[tuple[str, type[Any], Callable[[Any], Json]], ...] = (
        ("roll", Dice, lambda d: {"dice": list(d.faces)}),
        ("deal", Deal, _deal),
        ("deal", TileDeal, _tile_deal),
        ("bet", Bet, _bet),
        ("set", HandSet, _set),
        ("compare", Comparison, _comparison),
        ("settle", Settlement, _settlement),
        ("settle", PotResult, _pot_settlement),
    )
    for name, kind, encode in encoders:
        if isinstance(event, kind):
            return {"type": name, "v": SCHEMA_VERSION, **encode(event)}
    raise NotationError(f"not an event record: {event!r}")


# --- decoding -----------------------------------------------------------------------------------

def _get(data: Mapping[str, Any], key: str, kind: type[_T]) -> _T:
    if key not in data:
        raise NotationError(f"missing field {key!r} in {dict(data)!r}")
    value = data[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise NotationError(f"field {key!r} must be {kind.__name__}, not {value!r}")
    return value


def _maybe(data: Mapping[str, Any], key: str, kind: type[_T]) -> _T | None:
    return None if data.get(key) is None else _get(data, key, kind)


def _ints(values: list[Any], key: str) -> tuple[int, ...]:
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        raise NotationError(f"field {key!r} must hold integers, not {values!r}")
    return tuple(values)


def _strings(values: list[Any], key: str) -> list[str]:
    if not all(isinstance(v, str) for v in values):
        raise NotationError(f"field {key!r} must hold card or tile texts, not {values!r}")
    return values


def _read_cards(values: list[Any], key: str) -> tuple[Card, ...]:
    return parse_cards(_strings(values, key), what=key)


def _game_of(data: Mapping[str, Any]) -> str:
    game = data.get("game", "poker")
    if game not in GAMES:
        raise NotationError(f"unknown game {game!r}; known: {list(GAMES)}")
    return str(game)


def _setting_of(data: Mapping[str, Any], game: str) -> AnySetting:
    low, high = _get(data, "low", list), _get(data, "high", list)
    if game == "tiles":
        return TileSetting.of(parse_tiles(_strings(low, "low"), 2, what="low hand"),
                              parse_tiles(_strings(high, "high"), 2, what="high hand"))
    return Setting.of(_read_cards(low, "low"), _read_cards(high, "high"))


def _read_setting(data: Mapping[str, Any] | None, game: str) -> AnySetting | None:
    return None if data is None else _setting_of(data, game)


def _need_setting(data: Mapping[str, Any], key: str, game: str) -> AnySetting:
    return _setting_of(_get(data, key, dict), game)


def _read_hand(data: Mapping[str, Any] | None) -> HandResult | None:
    if data is None:
        return None
    return HandResult(Side(_get(data, "winner", str)), _get(data, "copy", bool))


def _read_bet(data: Mapping[str, Any]) -> Bet:
    return Bet(_get(data, "position", int), _get(data, "wager", int), _get(data, "fortune", int))


def _read_set(data: Mapping[str, Any]) -> HandSet[AnySetting]:
    game = _game_of(data)
    return HandSet(_get(data, "position", int), _need_setting(data, "setting", game),
                   SetBy(_get(data, "by", str)))


def _read_comparison(data: Mapping[str, Any], game: str | None = None) -> Comparison[AnySetting]:
    game = game or _game_of(data)
    return Comparison(
        position=_get(data, "position", int), setting=_need_setting(data, "setting", game),
        outcome=Outcome(_get(data, "outcome", str)), reason=Reason(_get(data, "reason", str)),
        high=_read_hand(_maybe(data, "high", dict)), low=_read_hand(_maybe(data, "low", dict)),
        reset_from=_read_setting(_maybe(data, "reset_from", dict), game),
    )


def _read_tile_deal(data: Mapping[str, Any], dice: Dice, vacant: tuple[int, ...],
                    positions: int, banker: int) -> TileDeal:
    if positions != TILE_POSITIONS:
        raise NotationError(f"a tile deal has {TILE_POSITIONS} positions, not {positions!r}")
    stacks = tuple(tuple(parse_tiles(_strings(s, "stacks"), what="stack"))
                   for s in _get(data, "stacks", list))
    made = deal_tiles([t for stack in stacks for t in stack], dice, vacant, banker)
    if made.stacks != stacks:
        raise NotationError(f"deal stacks must hold four tiles each: {data['stacks']!r}")
    return made


def _read_deal(data: Mapping[str, Any]) -> Deal | TileDeal:
    dice = Dice.of(_ints(_get(data, "dice", list), "dice"))
    vacant = _ints(_get(data, "vacant", list), "vacant")
    positions, banker = _get(data, "positions", int), _get(data, "banker", int)
    made: Deal | TileDeal
    if _game_of(data) == "tiles":
        made = _read_tile_deal(data, dice, vacant, positions, banker)
        plan = made.plan
    elif "hands" in data:
        packets = tuple(_read_cards(h, "hands") for h in _get(data, "hands", list))
        unused = _read_cards(_get(data, "unused", list), "unused")
        order = [c for packet in packets for c in packet] + list(unused)
        made = plan = deal_cards(order, dice, vacant, positions, banker)
        if made.hands != packets:
            raise NotationError(f"deal packets must hold seven cards each: {data['hands']!r}")
    else:
        made = plan = deal(dice, vacant, positions, banker)
    receivers = _ints(_get(data, "receivers", list), "receivers")
    if receivers != plan.receivers:
        raise NotationError(f"deal receivers {list(receivers)!r} do not follow from dice "
                            f"{str(dice)!r}: expected {list(plan.receivers)!r}")
    return made


def _read_seat(data: Mapping[str, Any], game: str) -> SeatResult[AnySetting]:
    raw = _maybe(data, "comparison", dict)
    fortune = _maybe(data, "fortune", dict)
    odds = None if fortune is None else _maybe(fortune, "odds", int)
    return SeatResult(
        bet=_read_bet(_get(data, "bet", dict)),
        comparison=None if raw is None else _read_comparison(raw, game),
        commission=_get(data, "commission", int),
        fortune=None if fortune is None else FortuneResult(
            Line(_get(fortune, "line", str)), _get(fortune, "wager", int), odds),
        envy=_get(data, "envy", int),
    )


def _read_settlement(data: Mapping[str, Any]) -> Settlement[AnySetting]:
    game = _game_of(data)
    made = Settlement(
        banker=_get(data, "banker", int),
        banker_setting=_need_setting(data, "banker_setting", game),
        seats=tuple(_read_seat(s, game) for s in _get(data, "seats", list)),
        banker_commission=_get(data, "banker_commission", int),
        banker_fouled=_get(data, "banker_fouled", bool),
        banker_reset_from=_read_setting(_maybe(data, "banker_reset_from", dict), game),
        variant_push=_get(data, "variant_push", bool),
        co_banked=bool(_maybe(data, "co_banked", bool)),
    )
    net = {str(p): n for p, n in sorted(made.net_by_position().items())}
    if "net" in data and data["net"] != net:
        raise NotationError(f"settlement nets {data['net']!r} do not match its seats: {net!r}")
    if sum(net.values()) != 0:
        raise NotationError(f"settlement does not balance: {net!r}")
    return made


def _setting_text(text: object, key: str, game: str) -> AnySetting:
    if not isinstance(text, str):
        raise NotationError(f"field {key!r} must be a 'LOW / HIGH' text, not {text!r}")
    if game == "tiles":
        return TileSetting.parse(text)
    return Setting.parse(text)


def _read_pot_hand(data: Mapping[str, Any], game: str) -> PotHand[AnySetting]:
    reset = data.get("reset_from")
    return PotHand(
        position=_get(data, "position", int), ante=_get(data, "ante", int),
        setting=_setting_text(data.get("setting"), "setting", game),
        low_rank=_get(data, "low_rank", int), high_rank=_get(data, "high_rank", int),
        fouled=_get(data, "fouled", bool),
        reset_from=None if reset is None else _setting_text(reset, "reset_from", game),
    )


def _holders(hands: Sequence[PotHand[AnySetting]], low: bool) -> list[int]:
    live = [h for h in hands if not h.fouled]
    if not live:
        return []
    best = max(h.low_rank if low else h.high_rank for h in live)
    return [h.position for h in live if (h.low_rank if low else h.high_rank) == best]


def _read_pot(data: Mapping[str, Any]) -> PotResult[AnySetting]:
    """A pot deal's settlement, re-checked: the holders of the highest hands follow from the
    ranks, the winner from the holders, and the totals, seats and nets from the hands."""
    game = _game_of(data)
    block = _get(data, "pot", dict)
    hands = tuple(_read_pot_hand(h, game) for h in _get(block, "hands", list))
    positions = [h.position for h in hands]
    if positions != sorted(set(positions)):
        raise NotationError(f"pot hands must be in position order, once each: {positions!r}")
    best_low = _ints(_get(block, "best_low", list), "best_low")
    best_high = _ints(_get(block, "best_high", list), "best_high")
    for key, held, low in (("best_low", best_low, True), ("best_high", best_high, False)):
        if list(held) != _holders(hands, low):
            raise NotationError(f"pot {key} {list(held)!r} does not follow from the hands' "
                                f"ranks: expected {_holders(hands, low)!r}")
    winner = _maybe(block, "winner", int)
    expected = best_low[0] if len(best_low) == 1 and best_low == best_high else None
    if winner != expected:
        raise NotationError(f"pot winner {winner!r} does not follow from the highest hands "
                            f"(low {list(best_low)!r}, high {list(best_high)!r}): "
                            f"expected {expected!r}")
    carried = _get(block, "carried", int)
    negative = [(k, v) for k, v in [("carried", carried), *(("ante", h.ante) for h in hands)]
                if v < 0]
    if negative:
        raise NotationError(f"pot {negative[0][0]} {negative[0][1]!r} must be whole cents >= 0")
    made = PotResult(carried, hands, best_low, best_high, winner)
    if data.get("banker") is not None:
        raise NotationError(f"a pot deal has no banker, not {data['banker']!r}")
    again = _pot_settlement(made)
    for key in ("pot", "seats", "net"):
        if key in data and data[key] != again[key]:
            raise NotationError(f"pot settlement {key} {data[key]!r} does not match its hands: "
                                f"expected {again[key]!r}")
    return made


def _read_settle(data: Mapping[str, Any]) -> Settlement[AnySetting] | PotResult[AnySetting]:
    return _read_pot(data) if "pot" in data else _read_settlement(data)


_DECODERS: Final[Mapping[str, Callable[[Mapping[str, Any]], Event]]] = {
    "roll": lambda d: Dice.of(_ints(_get(d, "dice", list), "dice")),
    "deal": _read_deal,
    "bet": _read_bet,
    "set": _read_set,
    "compare": _read_comparison,
    "settle": _read_settle,
}


def from_json(data: Mapping[str, Any]) -> Event:
    """The record a JSON form describes; NotationError names an unknown type, version or field."""
    if not isinstance(data, Mapping):
        raise NotationError(f"an event must be a JSON object, not {data!r}")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in _DECODERS:
        raise NotationError(f"unknown event type {kind!r}; known: {list(_DECODERS)}")
    version = data.get("v")
    if version != SCHEMA_VERSION or isinstance(version, bool):
        raise NotationError(f"unknown {kind!r} event version {version!r}; "
                            f"this reader knows v{SCHEMA_VERSION}")
    try:
        return _DECODERS[kind](data)
    except NotationError:
        raise
    except (RulesError, ValueError, TypeError) as err:
        raise NotationError(f"bad {kind!r} event {dict(data)!r}: {err}") from err
