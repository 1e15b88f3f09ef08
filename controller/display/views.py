"""View models: the round engine's state as the plain JSON the page and the API show.

Nothing here decides a rule: results come from the settle record, the house way from the
``dealer_exposed`` record, and the buttons the page may enable from the engine's ``can_x``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from typing_extensions import TypedDict  # pydantic needs it on Python < 3.12

from ..journal import Record
from ..round import Phase, Who
from ..round.base import RoundEngine
from ..rules.dealing import HOUSE

_PLAIN_ACTS = ("open_round", "close_bets", "shuffle", "deal_packet", "build_woodpile", "roll",
               "expose_dealer", "settle")
"""Acts that need no arguments: the page can offer them as buttons when ``can_x`` allows."""


class SettingView(TypedDict):
    """A setting as its low and high hands (card codes or tiles such as ``6-6``)."""

    low: list[str]
    high: list[str]
    text: str


class ResultView(TypedDict):
    """A seat's result from the settlement, in cents; ``text`` is what the screen shows."""

    outcome: str
    commission: int
    net: int
    text: str


class SeatView(TypedDict):
    """One position: its bet, hand, setting, camera reading and result."""

    position: int
    banker: bool
    wager: int | None
    fortune: int | None
    hand: list[str]
    setting: SettingView | None
    set_by: str | None
    camera: str | None
    read: bool
    result: ResultView | None


class DealerView(TypedDict):
    """The banker's hand as set, the house way's setting of it and whether they differ."""

    position: int
    setting: SettingView | None
    house_way: SettingView | None
    rule: str | None
    deviates: bool


class AlertView(TypedDict):
    """Something the dealer must see: a fault, a deviation, an unknown read, a misdeal."""

    kind: str
    text: str
    seq: int | None
    critical: bool
    fault: str | None


class TableView(TypedDict):
    """The whole dealer screen."""

    game: str
    profile: str
    house_way: str
    round_id: str | None
    phase: str | None
    replay: bool
    positions: int
    dice: list[int] | None
    seats: list[SeatView]
    dealer: DealerView
    alerts: list[AlertView]
    can: dict[str, list[str]]
    last_seq: int | None


def setting_view(text: str | None) -> SettingView | None:
    """``LOW / HIGH`` text as lists of pieces."""
    if not text:
        return None
    low, _, high = text.partition(" / ")
    return {"low": low.split(), "high": high.split(), "text": text}


def money(cents: int) -> str:
    """Cents as signed dollars: ``+47.50``, ``-142.50``, ``0.00``."""
    sign = "+" if cents > 0 else "-" if cents < 0 else ""
    return f"{sign}{abs(cents) // 100}.{abs(cents) % 100:02d}"


def _results(settlement: dict[str, Any] | None) -> dict[int, ResultView]:
    if not settlement:
        return {}
    net = settlement.get("net", {})
    out: dict[int, ResultView] = {}
    for seat in settlement.get("seats", []):
        position = seat["bet"]["position"]
        outcome = (seat.get("comparison") or {}).get("outcome", "")
        cents, commission = net.get(str(position), 0), seat.get("commission", 0)
        text = f"{outcome.upper()} {money(cents)}"
        if commission:
            text += f" (commission {money(commission).lstrip('+')})"
        out[position] = {"outcome": outcome, "commission": commission, "net": cents,
                         "text": text}
    banker = settlement.get("banker")
    if banker is not None:
        cents = net.get(str(banker), 0)
        commission = settlement.get("banker_commission", 0)
        out[banker] = {"outcome": "bank", "commission": commission, "net": cents,
                       "text": f"BANK {money(cents)}"}
    return out


def _alerts(engine: RoundEngine[Any], faults: Sequence[Record]) -> list[AlertView]:
    state = engine.round
    alerts: list[AlertView] = []
    seen: set[str] = set()
    for record in faults:
        data = record.payload()
        seen.add(data["fault"])
        alerts.append({"kind": "fault", "text": f"{data.get('code')}: {data.get('text')}",
                       "seq": record.seq, "critical": bool(data.get("critical")),
                       "fault": data["fault"]})
    if state is None:
        return alerts
    for fault, data in state.faults.items():
        if fault not in seen:
            alerts.append({"kind": "fault", "text": f"{data.get('code')}: {data.get('text')}",
                           "seq": None, "critical": bool(data.get("critical")), "fault": fault})
    exposure = state.exposure
    if exposure is not None and exposure.setting != exposure.house_way:
        alerts.append({"kind": "deviation", "text": f"dealer set {exposure.setting}; the house "
                       f"way ({exposure.rule}) sets {exposure.house_way}",
                       "seq": exposure.seq, "critical": False, "fault": None})
    for position, reading in sorted(state.camera.items()):
        if reading is None:
            alerts.append({"kind": "unknown_read", "text": f"position {position}: the camera "
                           f"could not read the hand; the entered setting stands",
                           "seq": None, "critical": False, "fault": None})
    if state.phase is Phase.VOIDED:
        reason = state.void_reason or ""
        kind = "misdeal" if reason.startswith("misdeal") else "void"
        alerts.append({"kind": kind, "text": f"round {state.round_id} voided: {reason}",
                       "seq": state.records[-1].seq, "critical": False, "fault": None})
    return alerts


def _can(engine: RoundEngine[Any], who: Who) -> list[str]:
    allowed = []
    for act in _PLAIN_ACTS:
        check: Callable[[Who], bool] | None = getattr(engine, f"can_{act}", None)
        if check is not None and check(who):
            allowed.append(act)
    return allowed


def table_view(engine: RoundEngine[Any], faults: Sequence[Record]) -> TableView:
    """The dealer screen for the engine's current round (empty seats before the first)."""
    game, state = engine.game, engine.round
    results = _results(state.settlement if state else None)
    banker = state.banker if state else HOUSE
    seats: list[SeatView] = []
    for position in range(1, game.positions + 1):
        bet = state.bets[position][0] if state and position in state.bets else None
        entry = state.settings.get(position) if state else None
        setting = None
        if entry is not None:
            setting = str(entry.setting)
        elif position == banker and state and state.exposure is not None:
            setting = str(state.exposure.setting)
        if setting is not None:
            hand = list(game.pieces(game.parse(setting)))
        else:
            hand = list(engine.known_hand(position) or ())
        seats.append({
            "position": position, "banker": position == banker,
            "wager": bet.wager if bet else None, "fortune": bet.fortune if bet else None,
            "hand": hand, "setting": setting_view(setting),
            "set_by": entry.by.value if entry else None,
            "camera": state.camera.get(position) if state else None,
            "read": bool(state and position in state.camera),
            "result": results.get(position),
        })
    exposure = state.exposure if state else None
    dealer: DealerView = {
        "position": banker,
        "setting": setting_view(str(exposure.setting)) if exposure else None,
        "house_way": setting_view(str(exposure.house_way)) if exposure else None,
        "rule": exposure.rule if exposure else None,
        "deviates": bool(exposure and exposure.setting != exposure.house_way),
    }
    return {
        "game": game.name, "profile": game.profile, "house_way": game.way,
        "round_id": state.round_id if state else None,
        "phase": state.phase.value if state else None,
        "replay": state.replay if state else engine.replay,
        "positions": game.positions,
        "dice": list(state.dice.faces) if state and state.dice else None,
        "seats": seats, "dealer": dealer, "alerts": _alerts(engine, faults),
        "can": {"dealer": _can(engine, Who.dealer()),
                "supervisor": _can(engine, Who.supervisor())},
        "last_seq": state.records[-1].seq if state and state.records else None,
    }
