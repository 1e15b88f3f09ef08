"""Replay: re-run recorded rounds through the same engine, devices replaced by the recording.

``replay_journal(journal, round_id=None)`` takes every closed, real round (or one), drives a
fresh engine with the recorded acts (same actors and roles), its shuffler, dice and camera
answering what was recorded, and compares every record the engine writes with the recorded
one, the settlement above all.  Replayed records go to a scratch journal (unkeyed: it is thrown
away) or ``into``, marked ``replay``: they can never settle real wagers.  ``paigow replay``
verifies the journal before it replays anything (``commands/replay.py``).
"""

from __future__ import annotations

import re
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import ControllerError
from ..journal import UNKEYED, Journal, Record, Role, StepClock, open_journal
from ..profiles.poker import load_profile
from ..profiles.tiles import load_tile_profile
from ..round.acts import Who
from ..round.errors import IllegalActError, PortError
from ..round.games import GameRules
from ..round.oversight import OversightEngine
from ..round.poker import PokerRound
from ..round.state import RoundState, fold
from ..round.tiles import TileRound
from ..rules.poker.dealing import HOUSE
from .ports import RecordedCamera, recorded_ports


class ReplayError(ControllerError):
    """A replay that cannot start: no such round, or nothing to replay."""


@dataclass(frozen=True, slots=True)
class RoundReplay:
    """One round replayed: equal to its recording, or the first difference."""

    round_id: str
    replay_id: str
    game: str
    ended: str  # "settle", "round_voided" or "open"
    difference: str | None

    @property
    def ok(self) -> bool:
        """True when the replay wrote what was recorded."""
        return self.difference is None

    def line(self) -> str:
        """One line for the CLI."""
        verdict = "same" if self.ok else f"DIFFERENT: {self.difference}"
        return f"{self.round_id} ({self.game}, {self.ended}): {verdict}"

    def to_json(self) -> dict[str, Any]:
        """The result as a JSON object."""
        return {"round_id": self.round_id, "replay_id": self.replay_id, "game": self.game,
                "ended": self.ended, "ok": self.ok, "difference": self.difference}


@dataclass(frozen=True, slots=True)
class ReplayReport:
    """Every round replayed."""

    rounds: tuple[RoundReplay, ...]

    @property
    def ok(self) -> bool:
        """True when no round differed."""
        return all(r.ok for r in self.rounds)


def _rounds(journal: Journal, round_id: str | None) -> Iterator[list[Record]]:
    if round_id is not None:
        records = journal.round(round_id)
        if not records:
            raise ReplayError(f"no round {round_id!r} in {journal.where}")
        yield records
        return
    grouped: dict[str, list[Record]] = {}
    for record in journal.iter_records():
        if record.round_id is not None and not record.replay:
            grouped.setdefault(record.round_id, []).append(record)
    for records in grouped.values():
        if records[0].kind == "round_opened" and records[-1].kind in ("settle", "round_voided"):
            yield records


def _engine(records: list[Record], into: Journal) -> OversightEngine[Any]:
    opened = records[0].payload()
    shuffler, dice, camera = recorded_ports(records)
    engine: OversightEngine[Any]
    if opened.get("game") == "tiles":
        engine = TileRound(into, load_tile_profile(opened["profile"]), dice, camera, replay=True)
    else:
        engine = PokerRound(into, load_profile(opened["profile"]), shuffler, dice, camera,
                            replay=True)
    if camera is None and _exposed_unset(records, engine.game):
        engine.camera = RecordedCamera("camera", None)  # it had one, though it never read
    return engine


def _exposed_unset(records: list[Record], game: GameRules[Any]) -> bool:
    """Whether the dealer's hand was exposed with positions unset, which only a table with a
    camera allows (a round voided before its camera read anything)."""
    state: RoundState[Any] = RoundState(records[0].round_id or "", records[0].replay)
    for record in records:
        if record.kind == "dealer_exposed":
            return any(p != HOUSE and p not in state.settings for p in state.playing())
        fold(state, record, game)
    return False


def _drive(engine: OversightEngine[Any], record: Record, new_id: str,
           seqs: dict[int, int]) -> None:
    """Ask the engine for the act that wrote ``record`` (acts' own outputs are skipped)."""
    data, kind = record.payload(), record.kind
    who, machine = Who(record.actor, record.role), Who.system()
    game: Any = engine
    if kind == "round_opened":
        engine.open_round(who, new_id)
    elif kind == "bet":
        engine.take_bet(who, data["position"], data["wager"], data["fortune"])
    elif kind == "bank":
        engine.bank(who, data["position"], data["amount"])
    elif kind == "bank_offered":
        engine.offer_bank(who, data["position"])
    elif kind == "bank_declined":
        engine.decline_bank(who)
    elif kind == "bets_closed":
        engine.close_bets(who)
    elif kind == "shuffled":
        game.shuffle(machine)
    elif kind == "packet":
        game.deal_packet(machine)
    elif kind == "woodpile_built":
        game.build_woodpile(who)
    elif kind == "cut":
        game.cut(who, data["cut"], data["options"])
    elif kind in ("roll", "dice_no_game"):
        engine.roll(machine)
    elif kind == "set" and data.get("source") == "camera":
        return  # read_camera wrote it, just after the camera_read it replays
    elif kind == "set":
        setting = data["setting"]
        text = f"{' '.join(setting['low'])} / {' '.join(setting['high'])}"
        if data.get("request") == "player":
            engine.play_house_way(who, data["position"], hand=engine.game.pieces(
                engine.game.parse(text)))
        elif data["by"] == "house_way":
            engine.set_hand(who, data["position"], hand=engine.game.pieces(
                engine.game.parse(text)))
        else:
            engine.set_hand(who, data["position"], text)
    elif kind == "dealer_exposed":
        engine.expose_dealer(who, data["setting"])
    elif kind == "camera_read":
        engine.read_camera(machine, data["position"])
    elif kind == "camera_dice":
        engine.read_dice(machine)
    elif kind == "correction":
        engine.correct(who, seqs[data["ref"]], wager=data.get("wager"),
                       fortune=data.get("fortune", 0), setting=data.get("setting"),
                       reason=data.get("reason"))
    elif kind == "fault_raised" and data.get("code") == "device_lost":
        act, position = data.get("act"), data.get("position")
        try:
            getattr(engine, str(act))(machine, *(() if position is None else (position,)))
        except PortError:
            return
        raise PortError(f"the recording lost a device at {act}; the replay did not")
    elif kind == "fault_cleared" and record.role is not Role.SYSTEM:
        old_round = record.round_id or ""
        engine.clear_fault(who, new_id + data["fault"][len(old_round):], data.get("text", ""))
    elif kind == "settle":
        engine.settle(who)
    elif kind == "round_voided" and data.get("auto"):
        engine.void_on_restart(data["reason"])  # start-up voided it (recovery)
    elif kind == "round_voided":
        engine.void(who, data["reason"])


_OPERATORS = frozenset({Role.DEALER, Role.SUPERVISOR})
"""Roles whose texts (void reasons, notes) the replay passes through as they were recorded."""


def _normal(record: Record, round_id: str, seqs: dict[int, int]) -> dict[str, Any]:
    """A payload with the round's own numbers put back to the recording's: refs, fault ids,
    and the round id in texts the table wrote itself (``round <id> voided`` when a void clears
    a fault).  An operator's text was replayed verbatim, so it is compared as it is."""
    data = record.payload()
    if "ref" in data:
        data["ref"] = seqs.get(data["ref"], data["ref"])
    replayed = record.round_id
    if not replayed:
        return data
    if isinstance(data.get("fault"), str) and data["fault"].startswith(replayed + "/"):
        data["fault"] = round_id + data["fault"][len(replayed):]
    if record.role not in _OPERATORS:
        named = re.compile(rf"(?<![\w.-]){re.escape(replayed)}(?![\w.-])")
        for key, value in data.items():
            if key != "fault" and isinstance(value, str):
                data[key] = named.sub(lambda _: round_id, value)
    return data


def replay_round(records: list[Record], into: Journal) -> RoundReplay:
    """Replay one recorded round into ``into``."""
    round_id = records[0].round_id or ""
    game = str(records[0].payload().get("game", "poker"))
    n = 1
    while into.round(new_id := f"{round_id[:50]}.replay{n}"):
        n += 1
    ended = records[-1].kind if records[-1].kind in ("settle", "round_voided") else "open"
    forward: dict[int, int] = {}  # recorded seq -> replayed seq

    def result(difference: str | None) -> RoundReplay:
        return RoundReplay(round_id, new_id, game, ended, difference)

    try:
        engine = _engine(records, into)
    except ControllerError as err:
        return result(f"cannot build the engine: {err}")
    except ValueError as err:
        return result(f"cannot build the engine: {err}")
    for record in records:
        written = len(engine.round.records) if engine.round is not None else 0
        if written and len(forward) < written:
            mine = engine.round.records if engine.round is not None else []
            for old, new in zip(records, mine, strict=False):
                forward[old.seq] = new.seq
        try:
            _drive(engine, record, new_id, forward)
        except (IllegalActError, PortError) as err:
            return result(f"record {record.seq} ({record.kind}): the replay refused: {err}")
    mine = engine.round.records if engine.round is not None else []
    back = {new.seq: old.seq for old, new in zip(records, mine, strict=False)}
    return result(_difference(records, mine, round_id, back))


def _difference(recorded: list[Record], replayed: list[Record], round_id: str,
                back: dict[int, int]) -> str | None:
    settled = [r for r in recorded if r.kind == "settle"]
    again = [r for r in replayed if r.kind == "settle"]
    if settled and again and settled[-1].payload() != again[-1].payload():
        return (f"settlement differs: recorded nets {settled[-1].payload().get('net')}, "
                f"replayed {again[-1].payload().get('net')}")
    for old, new in zip(recorded, replayed, strict=False):
        mine = _normal(new, round_id, back)
        if old.kind != new.kind or old.payload() != mine:
            return f"record {old.seq} ({old.kind}): recorded {old.event}, replayed {new.event}"
    if len(recorded) != len(replayed):
        return f"the recording has {len(recorded)} records, the replay wrote {len(replayed)}"
    return None


def replay_journal(journal: Journal, round_id: str | None = None, *,
                   into: Journal | None = None) -> ReplayReport:
    """Replay every closed real round (or one) of ``journal``; see the module's docstring."""
    rounds = list(_rounds(journal, round_id))
    if into is not None:
        return ReplayReport(tuple(replay_round(r, into) for r in rounds))
    with (tempfile.TemporaryDirectory(prefix="paigow-replay-") as scratch,
          open_journal(Path(scratch) / "replay.db", clock=StepClock(), key=UNKEYED) as target):
        return ReplayReport(tuple(replay_round(r, target) for r in rounds))
