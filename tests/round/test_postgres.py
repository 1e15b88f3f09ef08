"""The round engine on a PostgreSQL journal, against the real server.

Whole rounds of both games, replay equality, crash and restart at each state of a round, and
tampering behind the journal's back (the server's append-only trigger, then a hash chain that
names the edited record and a replay that reaches another settlement).  Each test gets its own
schema, dropped after.  Skipped, with the reason, only when the server cannot be reached
(``PAIGOW_TEST_PG`` overrides ``postgresql://postgres@127.0.0.1:5432/test``).

Run as ``python -m tests.round.test_postgres URL GAME STEP`` it is the child the crash tests
kill: it plays to STEP on the journal at URL, prints ``READY <last seq>`` and waits.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psycopg
import pytest

from controller.journal import Journal, StepClock, open_journal
from controller.replay.journal import replay_journal
from controller.round import FakeShuffler, Phase, PokerRound, TileRound
from controller.round.recovery import RESTART_VOIDS, recover
from controller.rules.records import from_json
from controller.rules.seat import HandSet
from tests.journal.helpers import PG_URL, pg_schema

from .crash_player import POKER_STEPS, TILE_STEPS
from .helpers import (
    DEALER,
    SUPERVISOR,
    SYSTEM,
    poker,
    poker_to_exposed,
    read_all,
    tiles,
    tiles_set_all,
    tiles_to_setting,
    void_during_fault,
)

ROOT = Path(__file__).resolve().parents[2]
LIMIT_S = 60.0


@dataclass
class PgJournal:
    """One test's schema on the server: its journal URL, and raw SQL behind the journal's back."""

    url: str
    schema: str

    def open(self) -> Journal:
        """A new connection to the journal, with a step clock."""
        return open_journal(self.url, clock=StepClock())

    def raw(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        """Run SQL on the schema's tables directly (autocommit)."""
        with psycopg.connect(PG_URL, autocommit=True) as conn:
            conn.execute(f'SET search_path TO "{self.schema}"')
            cur = conn.execute(sql, params)
            return cur.fetchall() if cur.description else []


@pytest.fixture
def pg() -> Iterator[PgJournal]:
    """A fresh schema on the test server, dropped after the test."""
    with pg_schema("round_test") as schema:
        yield PgJournal(f"{PG_URL}?schema={schema}", schema)


def _direct(engine: PokerRound | TileRound) -> Any:
    """The rules core's settlement of the engine's round, computed without the journal."""
    state: Any = engine.round
    assert state is not None and state.exposure is not None
    hands: list[HandSet[Any]] = [HandSet(1, state.exposure.setting)] + [
        HandSet(p, e.setting, e.by) for p, e in sorted(state.settings.items())]
    bets = [bet for bet, _ in state.bets.values()]
    return engine.game.settle(hands, bets, state.banker, state.bank)


def _play_both(journal: Journal, seed: int) -> tuple[str, str]:
    """A poker round with the camera and a tile round, settled; their round ids."""
    engine = poker(journal, seed=seed)
    poker_to_exposed(engine)
    read_all(engine)
    settled = engine.settle(DEALER)
    assert from_json(settled.payload()) == _direct(engine)
    tile = tiles(journal, seed=seed)
    tiles_to_setting(tile)
    tiles_set_all(tile)
    tile_settled = tile.settle(DEALER)
    assert from_json(tile_settled.payload()) == _direct(tile)
    return settled.round_id or "", tile_settled.round_id or ""


# --- whole rounds and replay ----------------------------------------------------------------

def test_whole_rounds_of_both_games_on_postgres(pg: PgJournal) -> None:
    with pg.open() as journal:
        poker_id, tile_id = _play_both(journal, seed=11)
        assert journal.open_rounds() == [] and journal.verify().ok
        recalled = journal.last_rounds(2)
        assert [r.round_id for r in recalled] == [poker_id, tile_id]
        kinds = [r.kind for r in journal.round(poker_id)]
        assert kinds.count("packet") == 7 and kinds.count("camera_read") == 4
        assert {r.actor for r in journal.round(poker_id) if r.kind == "bet"} == {DEALER.actor}
    with pg.open() as again:  # a second connection reads what the first committed
        assert [r.round_id for r in again.last_rounds(2)] == [poker_id, tile_id]
        assert again.last_rounds(1)[0].settlement().net_by_position() == \
            recalled[1].settlement().net_by_position()


def test_replay_of_postgres_rounds_reaches_the_same_settlements(pg: PgJournal) -> None:
    with pg.open() as journal:
        _play_both(journal, seed=12)
        engine = poker(journal, seed=4)  # a correction, a bad count cleared, then a void
        engine.open_round(DEALER)
        bet = engine.take_bet(DEALER, 3, 2500)
        engine.correct(DEALER, bet.seq, wager=7500)
        engine.close_bets(DEALER)
        assert isinstance(engine.shuffler, FakeShuffler)
        engine.shuffler.inject("short_count")
        engine.shuffle(SYSTEM)
        engine.clear_fault(SUPERVISOR, journal.active_faults()[0].payload()["fault"])
        engine.void(SUPERVISOR, "deck short")
        report = replay_journal(journal)
        assert report.ok, [r.difference for r in report.rounds]
        assert [r.ended for r in report.rounds] == ["settle", "settle", "round_voided"]
        into = replay_journal(journal, report.rounds[0].round_id, into=journal)
        assert into.ok
        replayed = journal.round(into.rounds[0].replay_id)
        assert replayed and all(r.replay for r in replayed)
        assert journal.verify().ok


def test_replay_of_a_round_voided_during_a_fault(pg: PgJournal) -> None:
    with pg.open() as journal:
        void_during_fault(poker(journal, seed=4))
        report = replay_journal(journal)
        assert report.ok, [r.difference for r in report.rounds]


# --- crash and restart ----------------------------------------------------------------------

@pytest.mark.parametrize(("game", "step"), [*(("poker", s) for s in POKER_STEPS),
                                            *(("tiles", s) for s in TILE_STEPS)])
def test_kill_at_each_state_then_restart_on_postgres(pg: PgJournal, game: str,
                                                     step: str) -> None:
    from .test_crash import finish, run_and_kill

    last = run_and_kill(pg.url, game, step)
    with pg.open() as journal:
        assert journal.head()[0] == last  # nothing committed is lost
        assert journal.verify().ok
        before = journal.records()
        faults_before = sorted(f.payload()["fault"] for f in journal.active_faults())
        engine: PokerRound | TileRound = (poker(journal, seed=9) if game == "poker"
                                          else tiles(journal))
        recovery = recover(engine)
        assert journal.records()[:len(before)] == before
        if step == "settled":
            assert recovery.resumed is None and recovery.voided == () and engine.round is None
            return
        rid = before[0].round_id
        if step in ("shuffled", "dealing"):
            assert recovery.voided[0][0] == rid and recovery.resumed is None
            assert journal.open_rounds() == [] and journal.active_faults() == []
            assert journal.records()[-1].kind == "round_voided"
            return
        assert recovery.resumed == rid and recovery.phase not in RESTART_VOIDS
        assert engine.round is not None and sorted(engine.round.faults) == faults_before
        if step == "mismatch":
            assert faults_before and not engine.can_settle(DEALER)
        finish(engine)
        assert engine.phase is Phase.SETTLED and journal.open_rounds() == []
        assert journal.verify().ok and replay_journal(journal).ok


# --- tampering ------------------------------------------------------------------------------

def test_the_server_refuses_edits_and_deletes(pg: PgJournal) -> None:
    with pg.open() as journal:
        _play_both(journal, seed=13)
        head = journal.head()
    for sql in ("UPDATE journal_records SET actor = 'mallory' WHERE kind = 'bet'",
                "DELETE FROM journal_records WHERE kind = 'settle'",
                "TRUNCATE journal_records"):
        with pytest.raises(psycopg.errors.RaiseException, match="append-only"):
            pg.raw(sql)
    with pg.open() as journal:
        assert journal.head() == head and journal.verify().ok


def test_an_edited_wager_is_named_and_changes_the_replay(pg: PgJournal) -> None:
    with pg.open() as journal:
        poker_id, _ = _play_both(journal, seed=14)
        assert replay_journal(journal).ok
    pg.raw("DROP TRIGGER journal_records_append_only ON journal_records")
    [(seq, text)] = pg.raw("SELECT seq, event FROM journal_records WHERE kind = 'bet' "
                           "ORDER BY seq LIMIT 1")
    assert '"wager":2500' in text
    pg.raw("UPDATE journal_records SET event = %s WHERE seq = %s",
           (text.replace('"wager":2500', '"wager":7500'), seq))
    with pg.open() as journal:
        report = journal.verify()
        assert not report.ok and report.first_bad == seq
        assert report.reason == "contents do not match its hash (edited, moved or inserted)"
        replay = replay_journal(journal, poker_id)
        assert not replay.ok
        assert (replay.rounds[0].difference or "").startswith("settlement differs")


def test_a_deleted_record_is_named(pg: PgJournal) -> None:
    with pg.open() as journal:
        _play_both(journal, seed=15)
    pg.raw("DROP TRIGGER journal_records_append_only ON journal_records")
    [(seq,)] = pg.raw("SELECT seq FROM journal_records WHERE kind = 'roll' ORDER BY seq LIMIT 1")
    pg.raw("DELETE FROM journal_records WHERE seq = %s", (seq,))
    with pg.open() as journal:
        report = journal.verify()
        assert (report.first_bad, report.reason) == (
            seq, f"missing (deleted?): the record after {seq - 1} is {seq + 1}")
        assert not replay_journal(journal).ok  # the round lost its roll: the replay refuses
