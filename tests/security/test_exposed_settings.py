"""Issue 30 item 6: once the hands are exposed, a dealer cannot change a setting.

After ``expose_dealer`` every hand lies face up, so a changed setting could pick a winner.
Only a supervisor corrects then, giving a reason; the correction record says so, the
settlement uses it, and the dealer audit lists it as a correction after exposure, made by the
supervisor, with the reason.  Both games; also over the display's HTTP API and in the table
loop's camera-mismatch path (the supervisor corrects to what lies on the layout).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from controller.audit import Scope
from controller.audit.dealers import audit_journal, summarize
from controller.audit.tabular import findings
from controller.display import Table, create_app
from controller.round import IllegalActError, PokerRound, RoleError, TileRound
from controller.round.oversight import REASON_MAX
from tests.display import conftest as display
from tests.round.helpers import (
    DEALER,
    SUPERVISOR,
    SYSTEM,
    TILE_HANDS,
    journal_at,
    poker,
    poker_to_dealt,
    poker_to_exposed,
    tiles,
    tiles_set_all,
    tiles_to_setting,
)

REASON = "the layout shows the hand set otherwise"


def _other(engine: PokerRound | TileRound, position: int) -> str:
    """Another setting of the same pieces as ``position``'s entered setting."""
    entered = engine.entered(position)
    pieces = list(engine.game.pieces(entered))
    for i in range(len(pieces)):
        for j in range(i + 1, len(pieces)):
            rest = [p for k, p in enumerate(pieces) if k not in (i, j)]
            text = f"{pieces[i]} {pieces[j]} / {' '.join(rest)}"
            if engine.game.parse(text) != entered:
                return text
    raise AssertionError(f"no other setting of {pieces}")


def _exposed_poker(tmp_path: Path) -> PokerRound:
    engine = poker(journal_at(tmp_path / "poker.db"), camera=False)
    poker_to_exposed(engine)
    return engine


def _exposed_tiles(tmp_path: Path) -> TileRound:
    engine = tiles(journal_at(tmp_path / "tiles.db"))
    tiles_to_setting(engine)
    tiles_set_all(engine)
    return engine


ENGINES = {"poker": _exposed_poker, "tiles": _exposed_tiles}


@pytest.mark.parametrize("game", sorted(ENGINES))
def test_a_dealer_cannot_change_any_setting_once_exposed(game: str, tmp_path: Path) -> None:
    engine = ENGINES[game](tmp_path)
    state = engine.round
    assert state is not None and state.exposure is not None
    player = next(p for p in state.playing() if p != 1)
    targets = {player: state.settings[player].seq, 1: state.exposure.seq}
    for position, ref in targets.items():
        other = _other(engine, position)
        assert not engine.can_correct(DEALER, ref, setting=other, reason=REASON)
        with pytest.raises(RoleError, match="only a supervisor"):
            engine.correct(DEALER, ref, setting=other, reason=REASON)
        with pytest.raises(IllegalActError, match="needs a reason"):
            engine.correct(SUPERVISOR, ref, setting=other)
        with pytest.raises(IllegalActError, match="needs a reason"):
            engine.correct(SUPERVISOR, ref, setting=other, reason="   ")
        with pytest.raises(IllegalActError, match="at most"):
            engine.correct(SUPERVISOR, ref, setting=other, reason="x" * (REASON_MAX + 1))
    assert not [r for r in state.records if r.kind == "correction"]
    engine.settle(DEALER)
    journal = engine.journal
    (audit,) = audit_journal(journal, str(tmp_path / f"{game}.db"), Scope(), costs=False)
    assert audit.corrections == ()


@pytest.mark.parametrize("game", sorted(ENGINES))
def test_a_supervisor_corrects_with_a_reason_and_the_audit_flags_it(game: str,
                                                                     tmp_path: Path) -> None:
    engine = ENGINES[game](tmp_path)
    state = engine.round
    assert state is not None and state.exposure is not None
    player = next(p for p in state.playing() if p != 1)
    other = _other(engine, player)
    fixed = engine.correct(SUPERVISOR, state.settings[player].seq, setting=other,
                           reason=REASON)
    data = fixed.payload()
    assert fixed.actor == SUPERVISOR.actor and data["exposed"] is True
    assert data["reason"] == REASON
    settled = engine.settle(DEALER).payload()
    seat = next(s for s in settled["seats"] if s["bet"]["position"] == player)
    played = seat["comparison"].get("reset_from") or seat["comparison"]["setting"]
    assert engine.game.parse(f"{' '.join(played['low'])} / {' '.join(played['high'])}") \
        == engine.game.parse(other)  # the settlement used the correction
    (audit,) = audit_journal(engine.journal, str(tmp_path / f"{game}.db"), Scope(),
                             costs=False)
    (correction,) = audit.corrections
    assert correction.exposed and correction.reason == REASON
    assert (correction.actor, correction.role) == (SUPERVISOR.actor, "supervisor")
    (row,) = [f for f in findings([audit]) if f["kind"] == "correction"]
    assert row["detail"].startswith("AFTER EXPOSURE")
    assert REASON in row["detail"] and "(supervisor)" in row["detail"]
    (group,) = summarize([audit])
    assert (group.corrections, group.exposed_corrections) == (1, 1)


@pytest.mark.parametrize("game", sorted(ENGINES))
def test_a_correction_before_exposure_is_still_the_dealers(game: str, tmp_path: Path) -> None:
    """Face down, a keying slip is the dealer's to fix, and is no late correction."""
    engine: PokerRound | TileRound
    if game == "poker":
        engine = poker(journal_at(tmp_path / "early.db"), camera=False)
        poker_to_dealt(engine)
        engine.roll(SYSTEM)
    else:
        engine = tiles(journal_at(tmp_path / "early.db"))
        tiles_to_setting(engine)
    state = engine.round
    assert state is not None
    player = next(p for p in state.playing() if p != 1)
    engine.set_hand(DEALER, player, hand=None if game == "poker" else TILE_HANDS[0])
    early = engine.correct(DEALER, state.settings[player].seq,
                           setting=_other(engine, player))
    assert "exposed" not in early.payload()
    engine.void(SUPERVISOR, "test over")
    (audit,) = audit_journal(engine.journal, str(tmp_path / "early.db"), Scope(), costs=False)
    (correction,) = audit.corrections
    assert not correction.exposed and correction.role == "dealer"


def _client(tmp_path: Path) -> tuple[TestClient, PokerRound]:
    """The display's app over a poker engine the test drives up to the exposure."""
    engine = poker(journal_at(tmp_path / "http.db"), camera=False)
    return TestClient(create_app(Table(engine), display.SETTINGS)), engine


def test_over_http_a_dealer_token_is_refused_and_a_supervisor_needs_a_reason(
        tmp_path: Path) -> None:
    client, engine = _client(tmp_path)
    dealer, supervisor = display.DEALER, display.SUPERVISOR
    poker_to_exposed(engine)
    state = engine.round
    assert state is not None and state.exposure is not None
    player = next(p for p in state.playing() if p != 1)
    for position, ref in ((player, state.settings[player].seq), (1, state.exposure.seq)):
        body: dict[str, Any] = {"ref": ref, "setting": _other(engine, position)}
        refused = client.post("/api/round/correct", headers=dealer,
                              json={**body, "reason": REASON})
        assert refused.status_code == 403, refused.text
        assert "only a supervisor" in refused.json()["detail"]
        bare = client.post("/api/round/correct", headers=supervisor, json=body)
        assert bare.status_code == 409 and "needs a reason" in bare.json()["detail"]
        long = client.post("/api/round/correct", headers=supervisor,
                           json={**body, "reason": "x" * (REASON_MAX + 1)})
        assert long.status_code == 422
    done = client.post("/api/round/correct", headers=supervisor,
                       json={"ref": state.exposure.seq, "setting": _other(engine, 1),
                             "reason": REASON})
    assert done.status_code == 200, done.text
    (record,) = done.json()["records"]
    assert record["role"] == "supervisor" and record["event"]["reason"] == REASON
