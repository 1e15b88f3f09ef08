"""Replay: recorded rounds re-run through the engine reach the same records and settlement."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.commands import replay as replay_command
from controller.journal import open_journal
from controller.replay.journal import ReplayError, replay_journal
from controller.round import FakeShuffler
from controller.round.recovery import recover
from controller.rules.records import from_json

from .helpers import (
    DEALER,
    SUPERVISOR,
    SYSTEM,
    journal_at,
    poker,
    poker_to_exposed,
    read_all,
    tiles,
    tiles_set_all,
    tiles_to_setting,
    void_during_fault,
)


def _record_rounds(path: Path) -> None:
    journal = journal_at(path)
    engine = poker(journal, seed=3)
    poker_to_exposed(engine)
    read_all(engine)
    engine.settle(DEALER)
    # a round with a bad count, a lost device, a correction and a camera mismatch
    engine.open_round(DEALER)
    bet = engine.take_bet(DEALER, 2, 2500)
    engine.correct(DEALER, bet.seq, wager=5000)
    engine.take_bet(DEALER, 4, 2500)
    engine.close_bets(DEALER)
    assert isinstance(engine.shuffler, FakeShuffler)
    engine.shuffler.inject("short_count")
    engine.shuffle(SYSTEM)
    fault = journal.active_faults()[0].payload()["fault"]
    engine.clear_fault(SUPERVISOR, fault)
    engine.shuffle(SYSTEM)
    engine.shuffler.inject("lost")
    with pytest.raises(ConnectionError):
        engine.deal_packet(SYSTEM)
    engine.clear_fault(SUPERVISOR, journal.active_faults()[0].payload()["fault"])
    for _ in range(7):
        engine.deal_packet(SYSTEM)
    engine.roll(SYSTEM)
    assert engine.round is not None
    for position in engine.round.playing():
        if position != 1:
            engine.set_hand(DEALER, position)
    engine.expose_dealer(DEALER)
    read_all(engine)
    engine.settle(DEALER)
    # a voided round and a tile round
    engine.open_round(DEALER)
    engine.take_bet(DEALER, 3, 2500)
    engine.void(SUPERVISOR, "dealer change")
    tile = tiles(journal)
    tiles_to_setting(tile)
    tiles_set_all(tile)
    tile.settle(DEALER)
    journal.close()


def test_replay_reaches_the_recorded_settlements(tmp_path: Path) -> None:
    path = tmp_path / "t.db"
    _record_rounds(path)
    journal = open_journal(path)
    report = replay_journal(journal)
    assert [r.ended for r in report.rounds] == ["settle", "settle", "round_voided", "settle"]
    assert report.ok, [r.difference for r in report.rounds]
    assert {r.game for r in report.rounds} == {"poker", "tiles"}


def test_replay_into_a_journal_marks_records_replay(tmp_path: Path) -> None:
    path = tmp_path / "t.db"
    _record_rounds(path)
    journal = open_journal(path)
    first = journal.records(limit=1)[0].round_id
    assert first is not None
    report = replay_journal(journal, first, into=journal)
    assert report.ok
    replayed = journal.round(report.rounds[0].replay_id)
    assert replayed and all(r.replay for r in replayed)
    assert report.rounds[0].replay_id not in [r.round_id for r in
                                              journal.last_rounds(10, replays=False)]
    assert replay_journal(journal, first, into=journal).rounds[0].replay_id.endswith("replay2")
    with pytest.raises(ReplayError, match="no round"):
        replay_journal(journal, "nope")


def test_tampered_recording_is_reported(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                        ) -> None:
    path = tmp_path / "t.db"
    _record_rounds(path)
    assert replay_command.main(["replay", str(path)]) == 0
    db = sqlite3.connect(path)
    db.execute("DROP TRIGGER IF EXISTS journal_records_no_update")
    for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'").fetchall():
        db.execute(f"DROP TRIGGER {name}")
    seq, text = db.execute("SELECT seq, event FROM journal_records WHERE kind = 'bet' "
                           "ORDER BY seq LIMIT 1").fetchone()
    db.execute("UPDATE journal_records SET event = ? WHERE seq = ?",
               (text.replace('"wager":2500', '"wager":7500'), seq))
    db.commit()
    db.close()
    capsys.readouterr()
    assert replay_command.main(["replay", str(path)]) == 1  # the chain fails first
    out, err = capsys.readouterr()
    assert f"record {seq}: contents do not match its hash" in err and not out
    assert replay_command.main(["replay", str(path), "--unverified"]) == 1
    out, err = capsys.readouterr()
    assert out.startswith("UNVERIFIED: ")
    assert "DIFFERENT: settlement differs" in err and out.count("same") == 3
    assert replay_command.main(["replay", str(path), "--json", "--round", "nope",
                                "--unverified"]) == 2


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10**6), bets=st.dictionaries(st.integers(2, 7),
                                                          st.integers(1000, 500000), min_size=1))
def test_engine_settlement_equals_settle_computed_directly(tmp_path_factory: pytest.TempPathFactory,
                                                           seed: int, bets: dict[int, int]) -> None:
    journal = journal_at(tmp_path_factory.mktemp("h") / "t.db")
    engine = poker(journal, seed=seed, camera=False)
    poker_to_exposed(engine, bets)
    record = engine.settle(DEALER)
    state = engine.round
    assert state is not None and state.plan is not None
    from controller.rules.seat import HandSet
    hands = [HandSet(p, engine.game.house_way(engine.known_hand(p) or ())[0])
             for p in sorted(state.plan.playing)]
    direct = engine.game.settle(hands, [b for b, _ in state.bets.values()], 1, None)
    assert from_json(record.payload()) == direct
    assert replay_journal(journal).ok


def _void_during_fault(path: Path, round_id: str | None = None) -> None:
    journal = journal_at(path)
    void_during_fault(poker(journal, seed=4), round_id)
    journal.close()


def test_replay_of_a_round_voided_during_a_fault(tmp_path: Path) -> None:
    path = tmp_path / "t.db"
    _void_during_fault(path)
    journal = open_journal(path)
    cleared = [r for r in journal.records() if r.kind == "fault_cleared"]
    assert [r.payload()["text"] for r in cleared] == [f"round {cleared[0].round_id} voided"]
    report = replay_journal(journal, into=journal)
    assert report.ok, [r.difference for r in report.rounds]
    [done] = report.rounds
    assert done.ended == "round_voided"
    # the replay wrote its own id where the engine names the round; compared as the recording's
    [again] = [r for r in journal.round(done.replay_id) if r.kind == "fault_cleared"]
    assert again.payload()["text"] == f"round {done.replay_id} voided"
    assert again.payload()["fault"].startswith(done.replay_id + "/")


def test_a_void_text_naming_another_round_is_still_a_difference(tmp_path: Path) -> None:
    path = tmp_path / "t.db"
    _void_during_fault(path, "r7")
    db = sqlite3.connect(path)
    for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'").fetchall():
        db.execute(f"DROP TRIGGER {name}")
    seq, text = db.execute("SELECT seq, event FROM journal_records WHERE kind = 'fault_cleared'"
                           ).fetchone()
    assert '"round r7 voided"' in text
    db.execute("UPDATE journal_records SET event = ? WHERE seq = ?",
               (text.replace('"round r7 voided"', '"round r77 voided"'), seq))
    db.commit()
    db.close()
    [done] = replay_journal(open_journal(path)).rounds
    assert done.difference is not None
    assert done.difference.startswith(f"record {seq} (fault_cleared)")
    assert "round r77 voided" in done.difference
    assert f"round {done.replay_id} voided" in done.difference


def test_replay_of_a_round_voided_at_restart_with_a_fault_active(tmp_path: Path) -> None:
    path = tmp_path / "t.db"
    journal = journal_at(path)
    engine = poker(journal, seed=2)
    engine.open_round(DEALER)
    engine.take_bet(DEALER, 3, 2500)
    engine.close_bets(DEALER)
    engine.shuffle(SYSTEM)
    assert isinstance(engine.shuffler, FakeShuffler)
    engine.shuffler.inject("lost")
    with pytest.raises(ConnectionError):
        engine.deal_packet(SYSTEM)  # a fault stays active; then the table restarts
    journal.close()
    journal = journal_at(path)
    done = recover(poker(journal, seed=2))
    assert [rid for rid, _ in done.voided] == ["r000001"]
    kinds = [(r.kind, r.actor) for r in journal.records()]
    assert kinds[-2:] == [("fault_cleared", "table"), ("round_voided", "table")]
    report = replay_journal(journal)
    assert report.ok, [r.difference for r in report.rounds]
    assert [r.ended for r in report.rounds] == ["round_voided"]
