"""View models: the round engine's state as the plain JSON the page and the API show.

Nothing here decides a rule: results come from the settle record, the house way from the
``dealer_exposed`` record, and the buttons the page may enable from the engine's ``can_x``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from typing_extensions import TypedDict  # pydantic needs it on Python < 3.12

from ..journal import Record
from ..live.device_events import DEVICE_EVENT, alert_text
from ..live.visibility import Sight
from ..round import Phase, Who
from ..round.oversight import OversightEngine
from ..rules.poker.dealing import HOUSE
from .offers import role_acts, seat_acts, setting_seq
from .play_views import (
    BankView,
    CutView,
    PlayView,
    PotView,
    ante_due,
    bank_view,
    cut_view,
    last_wager,
    play_view,
    pot_view,
)


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
    """One position: its bet, hand, setting, camera reading and result; ``face_down`` when it
    holds a hand this viewer may not see yet."""

    position: int
    banker: bool
    wager: int | None
    fortune: int | None
    hand: list[str]
    face_down: bool
    setting: SettingView | None
    set_by: str | None
    camera: str | None
    read: bool
    result: ResultView | None
    bet_seq: int | None
    setting_seq: int | None
    acts: list[str]
    offered: bool
    ante_due: int | None
    last_wager: int | None


class DealerView(TypedDict):
    """The dealer's hand (position 1, the house's also when a player banks) as set, the house
    way's setting of it and whether they differ."""

    position: int
    plays: bool  # False at home play: the dealer's packet is dealt but plays no hand
    setting: SettingView | None
    house_way: SettingView | None
    rule: str | None
    deviates: bool


class AlertView(TypedDict):
    """Something the dealer must see: a fault, a deviation, an unknown read, a misdeal, a
    device's event (``device_event``: a door opened, a line lost)."""

    kind: str
    text: str
    seq: int | None
    critical: bool
    fault: str | None


class LimitsView(TypedDict):
    """The table limits the bet entry checks against, in cents."""

    min_bet: int
    max_bet: int
    fortune_min: int
    fortune_max: int


class TableView(TypedDict):
    """The whole dealer screen, as one sight may see it (``sight``); ``seeded`` when a device
    draws from a seed (test and replay only: the page shows a banner, never the seed)."""

    sight: str
    seeded: bool
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
    limits: LimitsView
    fortune: bool
    camera: bool
    play: PlayView
    bank: BankView | None
    pot: PotView | None
    cut: CutView | None


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


def _pot_results(settlement: dict[str, Any]) -> dict[int, ResultView]:
    """A pot deal: the winner takes the pot, every other player's ante stays in it."""
    pot, net = settlement["pot"], settlement.get("net", {})
    out: dict[int, ResultView] = {}
    for hand in pot.get("hands", []):
        position = hand["position"]
        cents = net.get(str(position), 0)
        outcome = ("pot" if position == pot.get("winner") else
                   "foul" if hand.get("fouled") else "ante")
        out[position] = {"outcome": outcome, "commission": 0, "net": cents,
                         "text": f"{outcome.upper()} {money(cents)}"}
    return out


def _results(settlement: dict[str, Any] | None) -> dict[int, ResultView]:
    if not settlement:
        return {}
    if isinstance(settlement.get("pot"), dict):
        return _pot_results(settlement)
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


def _alerts(engine: OversightEngine[Any], faults: Sequence[Record]) -> list[AlertView]:
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
            unset = position != HOUSE and position not in state.settings
            alerts.append({"kind": "unknown_read", "text": f"position {position}: the camera "
                           f"could not read the hand; " + ("the dealer keys it" if unset
                                                          else "the entered setting stands"),
                           "seq": None, "critical": False, "fault": None})
    if state.phase is Phase.VOIDED:
        reason = state.void_reason or ""
        kind = "misdeal" if reason.startswith("misdeal") else "void"
        alerts.append({"kind": kind, "text": f"round {state.round_id} voided: {reason}",
                       "seq": state.records[-1].seq, "critical": False, "fault": None})
    return alerts


def seeded(engine: OversightEngine[Any]) -> bool:
    """Whether a device of the table draws from a seed (a fake or a seeded simulator)."""
    for port in (getattr(engine, "shuffler", None), getattr(engine, "dice", None)):
        try:
            randomness = None if port is None else port.randomness
        except (AttributeError, ValueError):  # a device not yet heard from
            continue
        if randomness is not None and randomness.source == "seeded":
            return True
    return False


def _shown(state: Any) -> bool:
    """Whether the round's hands were turned up (the dealer's exposure, or the settlement)."""
    return state is not None and (state.exposure is not None or state.settlement is not None)


def _may_see(sight: Sight, state: Any, position: int, banker: int, is_set: bool) -> bool:
    """Whether ``sight`` may see the pieces at ``position`` now: the public once the hands are
    turned up; the dealer every setting keyed in and the players' dealt hands, but not the
    house's or a player-banker's before exposure; the supervisor always.  A hand still unset
    after the exposure lies face down in its box (at a table with a camera): the public sees it
    once set or settled."""
    if sight is Sight.SUPERVISOR:
        return True
    if _shown(state) and (sight is not Sight.PUBLIC or is_set or state.settlement is not None):
        return True
    if sight is Sight.PUBLIC:
        return False
    return is_set or position not in (HOUSE, banker)


def _device_alerts(events: Sequence[Record]) -> list[AlertView]:
    """The devices' recent ``device_event`` notes (a door opened, a line lost), newest first:
    for the dealer and the supervisor, never the public (``_public_alerts`` drops them)."""
    return [{"kind": DEVICE_EVENT, "text": alert_text(record.payload()), "seq": record.seq,
             "critical": False, "fault": None} for record in reversed(events)]


def _public_alerts(alerts: list[AlertView]) -> list[AlertView]:
    """The alerts the public may see: voids and misdeals, and faults by their code only
    (never a device's event)."""
    out: list[AlertView] = []
    for alert in alerts:
        if alert["kind"] in ("void", "misdeal"):
            out.append(alert)
        elif alert["kind"] == "fault":
            code = alert["text"].partition(":")[0]
            out.append({**alert, "text": f"{code}: play is paused" if alert["critical"]
                        else code})
    return out


def table_view(engine: OversightEngine[Any], faults: Sequence[Record],
               sight: Sight = Sight.SUPERVISOR, *,
               machine: frozenset[str] = frozenset(),
               device_events: Sequence[Record] = ()) -> TableView:
    """The dealer screen for the engine's current round (empty seats before the first), as
    ``sight`` may see it: the hands it may not see yet are face down (``docs/security.md``);
    ``device_events`` are the recent ``device_event`` notes, oldest first, shown as alerts."""
    game, state = engine.game, engine.round
    results = _results(state.settlement if state else None)
    pot_table = game.play.pot is not None
    banker = state.banker if state else HOUSE
    offered = state.bank_offer if state and not state.bank_declined else None
    public = sight is Sight.PUBLIC
    seats: list[SeatView] = []
    for position in range(1, game.positions + 1):
        bet = state.bets[position][0] if state and position in state.bets else None
        entry = state.settings.get(position) if state else None
        setting = None
        if entry is not None:
            setting = str(entry.setting)
        elif position == HOUSE and state and state.exposure is not None:
            setting = str(state.exposure.setting)
        hand: list[str] = []
        if setting is not None:
            hand = list(game.pieces(game.parse(setting)))
        elif state and position in state.playing():  # a vacant hand is collected unseen
            hand = list(engine.known_hand(position) or ())
        holds = setting is not None or bool(state and position in state.playing())
        visible = _may_see(sight, state, position, banker, setting is not None)
        if not visible:
            setting, hand = None, []
        seats.append({
            "position": position, "banker": position == banker and not pot_table,
            "wager": bet.wager if bet else None, "fortune": bet.fortune if bet else None,
            "hand": hand, "face_down": holds and not visible, "setting": setting_view(setting),
            "set_by": entry.by.value if entry and visible else None,
            "camera": state.camera.get(position) if state and visible else None,
            "read": bool(state and position in state.camera and visible),
            "result": results.get(position),
            "bet_seq": state.bets[position][1] if bet and state else None,
            "setting_seq": setting_seq(state, position),
            "acts": seat_acts(engine, position, sight),
            "offered": position == offered and position != banker,
            "ante_due": ante_due(engine, position),
            "last_wager": last_wager(engine, position),
        })
    exposure = state.exposure if state else None
    limits = game.limits
    alerts = _alerts(engine, faults) + _device_alerts(device_events)
    fault_ids = [a["fault"] for a in alerts if a["fault"]]
    house = exposure if exposure and not public else None  # the house way is the house's
    dealer: DealerView = {
        "position": HOUSE, "plays": not pot_table,
        "setting": setting_view(str(exposure.setting)) if exposure else None,
        "house_way": setting_view(str(house.house_way)) if house else None,
        "rule": house.rule if house else None,
        "deviates": bool(house and house.setting != house.house_way),
    }
    return {
        "sight": sight.value, "seeded": seeded(engine),
        "game": game.name, "profile": game.profile, "house_way": game.way,
        "round_id": state.round_id if state else None,
        "phase": state.phase.value if state else None,
        "replay": state.replay if state else engine.replay,
        "positions": game.positions,
        "dice": list(state.dice.faces) if state and state.dice else None,
        "seats": seats, "dealer": dealer,
        "alerts": _public_alerts(alerts) if public else alerts,
        "can": {"dealer": role_acts(engine, Who.dealer(), fault_ids, machine),
                "supervisor": role_acts(engine, Who.supervisor(), fault_ids, machine)},
        "last_seq": state.records[-1].seq if state and state.records else None,
        "limits": {"min_bet": limits.min_bet, "max_bet": limits.max_bet,
                   "fortune_min": limits.fortune_min, "fortune_max": limits.fortune_max},
        "fortune": game.fortune and not pot_table,
        "camera": engine.camera is not None,
        "play": play_view(engine), "bank": bank_view(engine), "pot": pot_view(engine),
        "cut": cut_view(engine),
    }
