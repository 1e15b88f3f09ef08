"""Issue 30 item 3: no record for a round after it closed.  A second controller took up a round
from a stale copy and appended its void after the round had settled, so the round was both paid
and voided.  The journal now refuses, inside the append transaction, any record for a round
already settled or voided, whichever connection or process appends it."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from controller.journal import RecordError, Role, RoundClosedError
from controller.journal.kinds import round_voided
from tests.journal.helpers import BACKENDS, Store, append_round, demo_events, make_store, note

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(params=BACKENDS)
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    """An empty journal location: an SQLite file, then a fresh PostgreSQL schema."""
    yield from make_store(request.param, tmp_path)


def test_a_void_after_the_settlement_is_refused(store: Store) -> None:
    live, stale = store.open(), store.open()  # two controllers' connections
    stale.append(note(0, "r1"), actor="table", role=Role.SYSTEM, round_id="r1")
    append_round(live, "r1", seed=4)
    settled = live.last_of_kind("settle")
    assert settled is not None
    with pytest.raises(RoundClosedError) as refused:
        stale.append(round_voided("taken up from a stale copy"), actor="supervisor-1",
                     role=Role.SUPERVISOR, round_id="r1")
    assert str(refused.value) == (f"round 'r1' was closed by record {settled.seq} (settle); "
                                  f"refusing a 'round_voided' record for it")
    assert isinstance(refused.value, RecordError)
    assert live.head()[0] == settled.seq  # nothing was stored
    assert live.verify().ok


def test_nothing_follows_a_void_either(store: Store) -> None:
    journal = store.open()
    journal.append(note(0, "r2"), actor="dealer-1", role=Role.DEALER, round_id="r2")
    void = journal.append(round_voided("misdeal"), actor="supervisor-1", role=Role.SUPERVISOR,
                          round_id="r2")
    for event in (round_voided("again"), demo_events(3)[-1], note(1, "r2")):
        with pytest.raises(RoundClosedError, match=f"closed by record {void.seq} "
                                                   f"\\(round_voided\\)"):
            journal.append(event, actor="supervisor-1", role=Role.SUPERVISOR, round_id="r2")
    journal.append(note(2), actor="table", role=Role.SYSTEM)  # table-level records go on
    journal.append(note(3, "r3"), actor="table", role=Role.SYSTEM, round_id="r3")
    assert journal.verify().ok


def test_another_process_is_refused_too(tmp_path: Path) -> None:
    where = tmp_path / "table.db"
    store = Store("sqlite", str(where))
    append_round(store.open(), "r1", seed=4)
    store.close()
    code = ("import sys\n"
            "from controller.journal import open_journal, Role\n"
            "from controller.journal.kinds import round_voided\n"
            "with open_journal(sys.argv[1]) as journal:\n"
            "    journal.append(round_voided('stale'), actor='s', role=Role.SUPERVISOR,\n"
            "                   round_id='r1')\n")
    done = subprocess.run([sys.executable, "-c", code, str(where)], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert "RoundClosedError: round 'r1' was closed by record" in done.stderr
