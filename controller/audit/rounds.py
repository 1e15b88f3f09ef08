"""One round of the journal as the dealer audit sees it: deviation, overrides, fouls,
corrections (those made after the hands were exposed marked so), void.

A round is rebuilt by folding its records through the round engine's own ``state.fold``, so
the audit reads the journal exactly as the table wrote it.  The dealer's *actual* setting is
the camera's last readable reading of position 1 when it holds the same pieces, else the
setting entered (with its corrections); it deviates when it differs from the house way's
setting of the same pieces, which the ``dealer_exposed`` record holds.  The realized cost
compares the money the settle record moved at position 1 with a settlement of the same round
with the house way's setting in the dealer's place; the expected cost is
``costs.expected_cost``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import cache
from typing import Any

from ..errors import ControllerError
from ..journal import Record
from ..journal.clock import parse_ts
from ..profiles.poker import load_profile
from ..profiles.tiles import load_tile_profile
from ..round.games import GameRules, PokerGame, TileGame
from ..round.state import Phase, RoundState, fold
from ..rules.errors import RulesError
from ..rules.poker.dealing import HOUSE
from ..rules.seat import HandSet, SetBy
from .costs import DEFAULT_SAMPLES, ExpectedCost, Stake, expected_cost, table_rules
from .errors import AuditDataError
from .scope import Scope


@dataclass(frozen=True, slots=True)
class Deviation:
    """The dealer's setting that differs from the house way, and what it cost the house."""

    hand: tuple[str, ...]
    actual: str
    house_way: str
    rule: str  # the house-way rule the dealer did not follow
    source: str  # "camera" or "entered"
    flagged: bool  # the engine journaled a ``deviation`` record
    realized_cents: int | None  # None when the round did not settle
    expected: ExpectedCost | None


@dataclass(frozen=True, slots=True)
class Override:
    """A player who asked for the house way and whose hand was set otherwise."""

    position: int
    house_way: str
    actual: str
    source: str
    requested: bool = False  # the player asked in so many words (``"request": "player"``)


@dataclass(frozen=True, slots=True)
class Foul:
    """A foul setting at the showdown and what the foul policy did with it."""

    position: int
    setting: str
    result: str  # "lost" or "re-set by the house way"


@dataclass(frozen=True, slots=True)
class Correction:
    """A correction record: what it changed, who made it and why; ``exposed`` marks a setting
    changed after the dealer's hand was exposed, when every hand lay face up."""

    seq: int
    ref: int
    target: str
    position: int | None
    before: str
    after: str
    actor: str
    role: str = "dealer"
    exposed: bool = False
    reason: str | None = None


@dataclass(frozen=True, slots=True)
class RoundAudit:
    """Everything the dealer audit reports about one round."""

    round_id: str
    table: str
    game: str
    profile: str
    way: str
    dealer: str
    opened: datetime
    shift: str
    status: str  # settled, voided or open
    staked: int  # main wagers in cents
    exposed: bool = False  # the dealer's hand was exposed (the deviation rate's base)
    void_reason: str | None = None
    void_auto: bool = False
    deviation: Deviation | None = None
    overrides: tuple[Override, ...] = ()
    fouls: tuple[Foul, ...] = ()
    corrections: tuple[Correction, ...] = field(default_factory=tuple)


@cache
def game_for(game: str, profile: str) -> GameRules[Any]:
    """The round engine's game object for a recorded profile."""
    try:
        if game == "poker":
            return PokerGame(load_profile(profile))
        if game == "tiles":
            return TileGame(load_tile_profile(profile))
    except (ControllerError, RulesError, OSError) as err:
        raise AuditDataError(f"profile {profile!r} of a recorded {game} round cannot be "
                             f"loaded: {err}") from err
    raise AuditDataError(f"recorded game {game!r} is not 'poker' or 'tiles'")


def _setting_text(data: Mapping[str, Sequence[str]] | None) -> str:
    if not data:
        return ""
    return f"{' '.join(data['low'])} / {' '.join(data['high'])}"


def _parse(game: GameRules[Any], text: str | None) -> Any:
    if text is None:
        return None
    try:
        return game.parse(text)
    except (RulesError, ValueError):
        return None


def audit_round(records: Sequence[Record], table: str, scope: Scope, *,
                costs: bool = True, samples: int = DEFAULT_SAMPLES) -> RoundAudit | None:
    """The audit of one round's records (None when out of scope or not a round the engine
    opened)."""
    first = records[0]
    if first.kind != "round_opened":
        return None
    opened = first.payload()
    where = opened.get("table")
    table = where if isinstance(where, str) and where else table
    game_name, profile = opened.get("game"), opened.get("profile")
    if not isinstance(game_name, str) or not isinstance(profile, str):
        raise AuditDataError(f"record {first.seq}: round_opened names no game and profile")
    exposed = next((r for r in records if r.kind == "dealer_exposed"), None)
    dealer = exposed.actor if exposed is not None else first.actor
    moment = parse_ts(first.ts)
    if not scope.admits(moment, table, dealer, first.replay):
        return None
    game = game_for(game_name, profile)
    state: RoundState[Any] = RoundState(first.round_id or "", first.replay)
    try:
        for record in records:
            fold(state, record, game)
    except (RulesError, KeyError, TypeError, ValueError) as err:
        raise AuditDataError(f"round {state.round_id}: a record cannot be read: {err}") from err
    status = ("settled" if state.phase is Phase.SETTLED
              else "voided" if state.phase is Phase.VOIDED else "open")
    void = next((r for r in records if r.kind == "round_voided"), None)
    return RoundAudit(
        round_id=state.round_id, table=table, game=game_name, profile=profile,
        way=str(opened.get("house_way", "")), dealer=dealer, opened=moment,
        shift=scope.shift(moment), status=status,
        staked=sum(bet.wager for bet, _ in state.bets.values()),
        exposed=state.exposure is not None, void_reason=state.void_reason,
        void_auto=bool(void.payload().get("auto")) if void is not None else False,
        deviation=_deviation(state, game, records, costs, samples),
        overrides=tuple(_overrides(state, game, records)), fouls=tuple(_fouls(state.settlement)),
        corrections=tuple(_corrections(records)))


def _actual(state: RoundState[Any], game: GameRules[Any], position: int,
            entered: Any) -> tuple[Any, str]:
    seen = _parse(game, state.camera.get(position))
    if seen is None or game.pieces(seen) != game.pieces(entered):
        return entered, "entered"  # unreadable, or other pieces: a misread, not a setting
    return seen, "camera"


def _deviation(state: RoundState[Any], game: GameRules[Any], records: Sequence[Record],
               costs: bool, samples: int) -> Deviation | None:
    exposure = state.exposure
    if exposure is None:
        return None
    actual, source = _actual(state, game, HOUSE, exposure.setting)
    if actual == exposure.house_way:
        return None
    pieces = game.pieces(exposure.setting)
    realized = _realized(state, game) if state.phase is Phase.SETTLED else None
    expected = None
    if costs:
        stakes = [Stake(bet.wager, state.banker == HOUSE) for bet, _ in state.bets.values()
                  if (bet.position != HOUSE) == (state.banker == HOUSE)]
        seed = int(records[0].hash[:16], 16) ^ exposure.seq
        expected = expected_cost(table_rules(game.name, game.profile), pieces, actual,
                                 exposure.house_way, stakes, samples=samples, seed=seed)
    return Deviation(pieces, str(actual), str(exposure.house_way), exposure.rule, source,
                     bool(state.deviations), realized, expected)


def _realized(state: RoundState[Any], game: GameRules[Any]) -> int | None:
    """Money at position 1 had the house way been played, minus what the settlement moved."""
    assert state.exposure is not None and state.settlement is not None
    recorded = state.settlement.get("net", {}).get(str(HOUSE))
    if not isinstance(recorded, int):
        return None
    hands = [HandSet(HOUSE, state.exposure.house_way, SetBy.HOUSE_WAY),
             *(HandSet(p, e.setting, e.by) for p, e in sorted(state.settings.items()))]
    bets = [bet for bet, _ in state.bets.values()]
    try:
        result = game.settle(hands, bets, state.banker, state.bank)
    except RulesError:
        return None
    return result.net_by_position().get(HOUSE, 0) - recorded


def _overrides(state: RoundState[Any], game: GameRules[Any],
               records: Sequence[Record]) -> Iterable[Override]:
    asked = {r.payload().get("position") for r in records
             if r.kind == "set" and r.payload().get("request") == "player"}
    for position, entry in sorted(state.settings.items()):
        if entry.by is not SetBy.HOUSE_WAY:
            continue
        house_way = game.house_way(game.pieces(entry.setting))[0]
        actual, source = _actual(state, game, position, entry.setting)
        if actual != house_way:
            yield Override(position, str(house_way), str(actual), source, position in asked)


def _fouls(settlement: Mapping[str, Any] | None) -> Iterable[Foul]:
    if not settlement:
        return
    banker = settlement.get("banker", HOUSE)
    if settlement.get("banker_fouled"):
        yield Foul(banker, _setting_text(settlement.get("banker_setting")), "lost")
    elif settlement.get("banker_reset_from"):
        yield Foul(banker, _setting_text(settlement["banker_reset_from"]),
                   "re-set by the house way")
    for seat in settlement.get("seats", []):
        comparison = seat.get("comparison") or {}
        if comparison.get("reason") == "foul":
            yield Foul(comparison["position"], _setting_text(comparison.get("setting")), "lost")
        elif comparison.get("reset_from"):
            yield Foul(comparison["position"], _setting_text(comparison["reset_from"]),
                       "re-set by the house way")


def _describe(record: Record | None) -> str:
    if record is None:
        return "?"
    data = record.payload()
    if record.kind == "bet" or (record.kind == "correction" and data.get("target") == "bet"):
        return f"wager {data.get('wager')} fortune {data.get('fortune', 0)}"
    setting = data.get("setting")
    return _setting_text(setting) if isinstance(setting, dict) else str(setting)


def _corrections(records: Sequence[Record]) -> Iterable[Correction]:
    by_seq = {r.seq: r for r in records}
    exposed_at = next((r.seq for r in records if r.kind == "dealer_exposed"), None)
    for record in records:
        if record.kind != "correction":
            continue
        data = record.payload()
        # Read from the order of the records, not the record's own flag, so a journal
        # written before the engine refused such acts (a dealer's late change) shows them too.
        late = (data["target"] != "bet" and exposed_at is not None and record.seq > exposed_at)
        reason = data.get("reason")
        yield Correction(record.seq, data["ref"], data["target"], data.get("position"),
                         _describe(by_seq.get(data["ref"])), _describe(record), record.actor,
                         record.role.value, late, reason if isinstance(reason, str) else None)
