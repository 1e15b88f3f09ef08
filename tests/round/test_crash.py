"""Crash and restart at each state of a round: SIGKILL the player, resume or void on start-up."""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from controller.round import FakeCamera, Phase, PokerRound, TileRound
from controller.round.recovery import RESTART_VOIDS, recover

from .crash_player import POKER_STEPS, TILE_STEPS
from .helpers import DEALER, SUPERVISOR, SYSTEM, TILE_HANDS, journal_at, poker, tiles

ROOT = Path(__file__).resolve().parents[2]
LIMIT_S = 60.0


def run_and_kill(where: Path | str, game: str, step: str) -> int:
    """Start the player on the journal ``where`` (SQLite path or PostgreSQL URL), wait
    (bounded) for READY, SIGKILL it; the last seq it committed."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-m", "tests.round.crash_player", str(where), game,
                             step], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            stdin=subprocess.DEVNULL, cwd=ROOT, env=env)
    try:
        assert proc.stdout is not None
        ready, _, _ = select.select([proc.stdout], [], [], LIMIT_S)  # bounded wait
        assert ready, f"no READY within {LIMIT_S} s"
        line = proc.stdout.readline().decode()  # the child prints one line, then sleeps
        assert line.startswith("READY "), (line, proc.stderr.read().decode()
                                           if proc.stderr else "")
        os.kill(proc.pid, signal.SIGKILL)
        assert proc.wait(timeout=LIMIT_S) == -signal.SIGKILL
        return int(line.split()[1])
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=LIMIT_S)
        for stream in (proc.stdout, proc.stderr):
            if stream is not None:
                stream.close()


def finish(engine: PokerRound | TileRound) -> None:
    """Play a resumed round to its settlement with fresh fakes."""
    state = engine.round
    assert state is not None
    for fault in list(state.faults):
        engine.clear_fault(SUPERVISOR, fault, "checked after restart")
    while not state.closed:
        hands = iter(TILE_HANDS[len(state.settings):])
        phase = state.phase
        if phase is Phase.BETTING:
            if not state.bets:
                engine.take_bet(DEALER, 3, 2500)
            engine.close_bets(DEALER)
        elif phase is Phase.CLOSED:
            if isinstance(engine, PokerRound):
                engine.shuffle(SYSTEM)
            else:
                engine.build_woodpile(DEALER)
        elif phase in (Phase.SHUFFLED, Phase.DEALING) and isinstance(engine, PokerRound):
            engine.deal_packet(SYSTEM)
        elif phase is Phase.DEALT:
            engine.roll(SYSTEM)
        elif phase is Phase.SETTING:
            for position in state.playing():
                if position != 1 and position not in state.settings:
                    engine.set_hand(DEALER, position, hand=next(hands))
            engine.expose_dealer(DEALER, hand=next(hands))
        elif phase is Phase.EXPOSED:
            if engine.camera is not None:
                for position in state.playing():
                    if position not in state.camera:
                        engine.read_camera(SYSTEM, position)
            engine.settle(DEALER)


@pytest.mark.parametrize(("game", "step"), [*(("poker", s) for s in POKER_STEPS),
                                            *(("tiles", s) for s in TILE_STEPS)])
def test_kill_at_each_state_then_restart(tmp_path: Path, game: str, step: str) -> None:
    path = tmp_path / "table.db"
    last = run_and_kill(path, game, step)
    journal = journal_at(path)
    assert journal.head()[0] == last  # nothing committed is lost
    assert journal.verify().ok
    before = journal.records()
    faults_before = [f.payload()["fault"] for f in journal.active_faults()]
    engine: PokerRound | TileRound = poker(journal, seed=9) if game == "poker" else tiles(journal)
    if game == "poker":
        assert isinstance(engine, PokerRound) and isinstance(engine.camera, FakeCamera)
    recovery = recover(engine)
    assert journal.records()[:len(before)] == before
    if step == "settled":
        assert recovery.resumed is None and recovery.voided == () and engine.round is None
        return
    rid = before[0].round_id
    if recovery.voided:
        assert recovery.voided[0][0] == rid and recovery.resumed is None
        assert journal.open_rounds() == [] and journal.active_faults() == []
        assert step in ("shuffled", "dealing") and journal.records()[-1].kind == "round_voided"
        return
    assert recovery.resumed == rid and recovery.phase not in RESTART_VOIDS
    assert engine.round is not None
    assert sorted(engine.round.faults) == sorted(faults_before)
    if step == "mismatch":
        assert faults_before and not engine.can_settle(DEALER)
    finish(engine)
    assert engine.phase is Phase.SETTLED and journal.open_rounds() == []
    assert journal.verify().ok
