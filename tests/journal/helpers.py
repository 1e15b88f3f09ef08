"""Helpers of the journal tests: a store on each back end, raw SQL behind the journal's back,
and events to append."""

from __future__ import annotations

import os
import sqlite3
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psycopg
import pytest

from controller.journal import Journal, JournalKey, Randomness, Role, StepClock, open_journal
from controller.profiles.poker import DEFAULT_PROFILE, load_profile
from controller.round import FakeDice, FakeShuffler, PokerRound, Who
from controller.rules.poker.dealing import HOUSE
from controller.simulation.demo import play_round

PG_URL = os.environ.get("PAIGOW_TEST_PG", "postgresql://postgres@127.0.0.1:5432/test")
BACKENDS = ["sqlite", "postgres"]
RUN_ID = uuid.uuid4().hex[:8]
_pg_problem: list[str] = []
TEST_KEY = JournalKey(bytes(range(32)))
"""The suite's journal key (``tests/conftest.py`` puts it in the environment)."""


def pg_unreachable() -> str | None:
    """Why the test server cannot be used, or None (asked once per run)."""
    if not _pg_problem:
        try:
            with psycopg.connect(PG_URL, connect_timeout=3) as conn:
                conn.execute("SELECT 1")
            _pg_problem.append("")
        except psycopg.Error as err:
            _pg_problem.append(f"PostgreSQL at {PG_URL} is unreachable: "
                               f"{str(err).strip().splitlines()[0]}")
    return _pg_problem[0] or None


@dataclass
class Store:
    """Where one test's journal lives, and a raw connection to change it behind its back."""

    kind: str
    url: str
    schema: str | None = None
    opened: list[Journal] = field(default_factory=list)

    def open(self, **options: Any) -> Journal:
        """The journal (a new connection each call); a step clock unless one is given."""
        options.setdefault("clock", StepClock())
        journal = open_journal(self.url, **options)
        self.opened.append(journal)
        return journal

    def raw(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        """Run SQL (``?`` marks) on the journal's tables directly and commit."""
        if self.kind == "sqlite":
            lite = sqlite3.connect(self.url)
            try:
                with lite:
                    return lite.execute(sql, params).fetchall()
            finally:
                lite.close()
        with psycopg.connect(PG_URL, autocommit=True) as conn:
            conn.execute(f'SET search_path TO "{self.schema}"')
            cur = conn.execute(sql.replace("?", "%s"), params)
            return cur.fetchall() if cur.description else []

    def drop_guards(self) -> None:
        """Remove the append-only triggers, as someone with the database's password could."""
        if self.kind == "sqlite":
            self.raw("DROP TRIGGER journal_records_no_update")
            self.raw("DROP TRIGGER journal_records_no_delete")
        else:
            self.raw("DROP TRIGGER journal_records_append_only ON journal_records")

    def close(self) -> None:
        """Close every journal opened through ``open``."""
        for journal in self.opened:
            journal.close()


@contextmanager
def pg_schema(prefix: str) -> Iterator[str]:
    """A fresh schema's name on the test server, dropped after; the test is skipped, with the
    reason, when the server cannot be reached."""
    problem = pg_unreachable()
    if problem:
        pytest.skip(problem)
    schema = f"{prefix}_{RUN_ID}_{uuid.uuid4().hex[:8]}"
    try:
        yield schema
    finally:
        with psycopg.connect(PG_URL, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


def make_store(kind: str, tmp_path: Path) -> Iterator[Store]:
    """A fresh, empty journal location on a back end; a PostgreSQL schema is dropped after."""
    if kind == "sqlite":
        store = Store("sqlite", str(tmp_path / "journal.db"))
        yield store
        store.close()
        return
    with pg_schema("journal_test") as schema:
        store = Store("postgres", f"{PG_URL}?schema={schema}", schema)
        try:
            yield store
        finally:
            store.close()


def demo_events(seed: int) -> list[Any]:
    """A whole Pai Gow Poker round's rules events, drawn from a seed."""
    return play_round(load_profile(DEFAULT_PROFILE), seed=seed).events()


def append_round(journal: Journal, round_id: str, seed: int, *, replay: bool = False) -> None:
    """Append a demo round's events under a round id, as the dealer, seeded."""
    for event in demo_events(seed):
        journal.append(event, actor="dealer-7", role=Role.DEALER, round_id=round_id,
                       randomness=Randomness.seeded(seed), replay=replay)


def note(i: int, round_id: str | None = None) -> dict[str, Any]:
    """A small event of the engine's own kind."""
    return {"type": "note", "v": 1, "i": i, "round": round_id}


def profile_round(journal: Journal, profile: str, seed: int) -> PokerRound:
    """A poker round engine of table profile ``profile`` on the seeded fakes."""
    return PokerRound(journal, load_profile(profile), FakeShuffler(seed), FakeDice(seed))


def deal_and_set(engine: PokerRound) -> None:
    """Close the bets, shuffle, deal, roll, and set every playing hand but the house's."""
    dealer, system = Who.dealer(), Who.system()
    engine.close_bets(dealer)
    engine.shuffle(system)
    for _ in range(engine.game.positions):
        engine.deal_packet(system)
    engine.roll(system)
    assert engine.round is not None
    for position in engine.round.playing():
        if position != HOUSE:
            engine.set_hand(dealer, position)
