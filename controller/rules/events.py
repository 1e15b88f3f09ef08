"""The stable, versioned JSON form of every act's record: roll, deal, bet, set, compare, settle.

Each act already returns a frozen record of its own module (``Dice``, ``Deal``, ``Bet``,
``HandSet``, ``Comparison``, ``Settlement``); this module only gives them one JSON shape:
``{"type": ..., "v": 1, ...fields}``, cards as canonical text (``"As"``, ``"Jk"``), settings as
``{"low": [...], "high": [...]}``, money as integer cents.  ``from_json(to_json(e)) == e``.
Decoding re-checks what it can: a deal is dealt again from its dice and cards, and a settlement's
recorded nets must match its seats and sum to zero.  Any fault is a NotationError naming it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final, TypeVar

from .cards import Card, parse_cards
from .comparison import Comparison, HandResult, Outcome, Reason, Side
from .dealing import Deal, deal, deal_cards
from .dice import Dice
from .errors import NotationError, RulesError
from .fortune import FortuneResult, Line
from .seat import Bet, HandSet, SetBy
from .setting import Setting
from .settlement import SeatResult, Settlement

SCHEMA_VERSION: Final = 1
Event = Dice | Deal | Bet | HandSet | Comparison | Settlement
"""Any record the rules core's acts return."""

Json = dict[str, Any]
"""A decoded JSON object."""
_T = TypeVar("_T")


# --- encoding -----------------------------------------------------------------------------------

def _cards(cards: Sequence[Card]) -> list[str]:
    return [str(c) for c in cards]


def _setting(setting: Setting | None) -> Json | None:
    return None if setting is None else {"low": _cards(setting.low), "high": _cards(setting.high)}


def _hand(result: HandResult | None) -> Json | None:
    return None if result is None else {"winner": result.winner.value, "copy": result.copy}


def _bet(bet: Bet) -> Json:
    return {"position": bet.position, "wager": bet.wager, "fortune": bet.fortune}


def _comparison(c: Comparison) -> Json:
    return {
        "position": c.position, "setting": _setting(c.setting), "outcome": c.outcome.value,
        "reason": c.reason.value, "high": _hand(c.high), "low": _hand(c.low),
        "reset_from": _setting(c.reset_from),
    }


def _deal(d: Deal) -> Json:
    out: Json = {
        "dice": list(d.dice.faces), "positions": d.positions, "banker": d.banker,
        "vacant": sorted(d.vacant), "receivers": list(d.receivers),
    }
    if d.hands:
        out["hands"] = [_cards(h) for h in d.hands]
        out["unused"] = _cards(d.unused)
    return out


def _seat(s: SeatResult) -> Json:
    fortune = s.fortune
    return {
        "bet": _bet(s.bet),
        "comparison": None if s.comparison is None else _comparison(s.comparison),
        "commission": s.commission,
        "fortune": None if fortune is None else {
            "line": fortune.line.value, "wager": fortune.wager, "odds": fortune.odds,
        },
        "envy": s.envy,
    }


def _settlement(s: Settlement) -> Json:
    return {
        "banker": s.banker, "banker_setting": _setting(s.banker_setting),
        "banker_commission": s.banker_commission, "banker_fouled": s.banker_fouled,
        "banker_reset_from": _setting(s.banker_reset_from), "variant_push": s.variant_push,
        "seats": [_seat(seat) for seat in s.seats],
        "net": {str(p): n for p, n in sorted(s.net_by_position().items())},
    }


def to_json(event: Event) -> Json:
    """The JSON form of a record: ``{"type", "v", ...fields}``."""
    encoders: tuple[tuple[str, type[Any], Callable[[Any], Json]], ...] = (
        ("roll", Dice, lambda d: {"dice": list(d.faces)}),
        ("deal", Deal, _deal),
        ("bet", Bet, _bet),
        ("set", HandSet, lambda h: {"position": h.position, "setting": _setting(h.setting),
                                    "by": h.by.value}),
        ("compare", Comparison, _comparison),
        ("settle", Settlement, _settlement),
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


def _read_cards(values: list[Any], key: str) -> tuple[Card, ...]:
    if not all(isinstance(v, str) for v in values):
        raise NotationError(f"field {key!r} must hold card texts, not {values!r}")
    return parse_cards(values, what=key)


def _setting_of(data: Mapping[str, Any]) -> Setting:
    low = _read_cards(_get(data, "low", list), "low")
    return Setting.of(low, _read_cards(_get(data, "high", list), "high"))


def _read_setting(data: Mapping[str, Any] | None) -> Setting | None:
    return None if data is None else _setting_of(data)


def _need_setting(data: Mapping[str, Any], key: str) -> Setting:
    return _setting_of(_get(data, key, dict))


def _read_hand(data: Mapping[str, Any] | None) -> HandResult | None:
    if data is None:
        return None
    return HandResult(Side(_get(data, "winner", str)), _get(data, "copy", bool))


def _read_bet(data: Mapping[str, Any]) -> Bet:
    return Bet(_get(data, "position", int), _get(data, "wager", int), _get(data, "fortune", int))


def _read_comparison(data: Mapping[str, Any]) -> Comparison:
    return Comparison(
        position=_get(data, "position", int), setting=_need_setting(data, "setting"),
        outcome=Outcome(_get(data, "outcome", str)), reason=Reason(_get(data, "reason", str)),
        high=_read_hand(_maybe(data, "high", dict)), low=_read_hand(_maybe(data, "low", dict)),
        reset_from=_read_setting(_maybe(data, "reset_from", dict)),
    )


def _read_deal(data: Mapping[str, Any]) -> Deal:
    dice = Dice.of(_ints(_get(data, "dice", list), "dice"))
    vacant = _ints(_get(data, "vacant", list), "vacant")
    positions, banker = _get(data, "positions", int), _get(data, "banker", int)
    if "hands" in data:
        packets = tuple(_read_cards(h, "hands") for h in _get(data, "hands", list))
        unused = _read_cards(_get(data, "unused", list), "unused")
        order = [c for packet in packets for c in packet] + list(unused)
        made = deal_cards(order, dice, vacant, positions, banker)
        if made.hands != packets:
            raise NotationError(f"deal packets must hold seven cards each: {data['hands']!r}")
    else:
        made = deal(dice, vacant, positions, banker)
    receivers = _ints(_get(data, "receivers", list), "receivers")
    if receivers != made.receivers:
        raise NotationError(f"deal receivers {list(receivers)!r} do not follow from dice "
                            f"{str(dice)!r}: expected {list(made.receivers)!r}")
    return made


def _read_seat(data: Mapping[str, Any]) -> SeatResult:
    raw = _maybe(data, "comparison", dict)
    fortune = _maybe(data, "fortune", dict)
    odds = None if fortune is None else _maybe(fortune, "odds", int)
    return SeatResult(
        bet=_read_bet(_get(data, "bet", dict)),
        comparison=None if raw is None else _read_comparison(raw),
        commission=_get(data, "commission", int),
        fortune=None if fortune is None else FortuneResult(
            Line(_get(fortune, "line", str)), _get(fortune, "wager", int), odds),
        envy=_get(data, "envy", int),
    )


def _read_settlement(data: Mapping[str, Any]) -> Settlement:
    made = Settlement(
        banker=_get(data, "banker", int), banker_setting=_need_setting(data, "banker_setting"),
        seats=tuple(_read_seat(s) for s in _get(data, "seats", list)),
        banker_commission=_get(data, "banker_commission", int),
        banker_fouled=_get(data, "banker_fouled", bool),
        banker_reset_from=_read_setting(_maybe(data, "banker_reset_from", dict)),
        variant_push=_get(data, "variant_push", bool),
    )
    net = {str(p): n for p, n in sorted(made.net_by_position().items())}
    if "net" in data and data["net"] != net:
        raise NotationError(f"settlement nets {data['net']!r} do not match its seats: {net!r}")
    if sum(net.values()) != 0:
        raise NotationError(f"settlement does not balance: {net!r}")
    return made


_DECODERS: Final[Mapping[str, Callable[[Mapping[str, Any]], Event]]] = {
    "roll": lambda d: Dice.of(_ints(_get(d, "dice", list), "dice")),
    "deal": _read_deal,
    "bet": _read_bet,
    "set": lambda d: HandSet(_get(d, "position", int), _need_setting(d, "setting"),
                             SetBy(_get(d, "by", str))),
    "compare": _read_comparison,
    "settle": _read_settlement,
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
