"""One writer per journal.  A second controller on a journal another one is
writing refuses to start, with one line naming the holder (pid, host, command, since when),
across real processes, on SQLite and on the real PostgreSQL server; readers still read."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from controller.journal import JournalLockedError, Role, StepClock, open_journal
from tests.journal.helpers import append_round, note

ROOT = Path(__file__).resolve().parents[2]
HOLD = ("import sys\n"
        "from controller.journal import open_journal\n"
        "journal = open_journal(sys.argv[1], writer='paigow display')\n"
        "print('held', flush=True)\n"
        "sys.stdin.read()\n")


@contextmanager
def holder(location: str) -> Iterator[subprocess.Popen[str]]:
    """Another process holding the journal's writer lock until the block ends."""
    proc = subprocess.Popen([sys.executable, "-c", HOLD, location], cwd=ROOT, text=True,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    try:
        assert proc.stdout is not None and proc.stdout.readline() == "held\n"
        yield proc
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(timeout=30)


def filled(location: str) -> None:
    with open_journal(location, clock=StepClock()) as journal:
        append_round(journal, "r1", seed=3)


@pytest.fixture(params=["sqlite", "postgres"])
def location(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A journal with one round, in an SQLite file or a fresh PostgreSQL schema."""
    if request.param == "sqlite":
        where = str(tmp_path / "table.db")
        filled(where)
        yield where
    else:
        url = request.getfixturevalue("pg_url")
        filled(url)
        yield url


def test_a_second_writer_is_refused_naming_the_holder(location: str) -> None:
    with holder(location) as proc:
        with pytest.raises(JournalLockedError) as refused:
            open_journal(location, writer="paigow demo")
        line = str(refused.value)
        assert "\n" not in line
        assert f"pid {proc.pid} on {socket.gethostname()} (paigow display) since 20" in line
        assert "already has a writer" in line
        # readers (verify, show, audit) still work while the controller runs
        with open_journal(location, create=False) as reader:
            assert reader.verify().ok and len(reader.round("r1")) > 10


def test_the_lock_goes_with_its_holder_however_it_ends(location: str) -> None:
    with holder(location) as proc:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
    with open_journal(location, writer="paigow demo") as journal:
        journal.append(note(1), actor="table", role=Role.SYSTEM)
        with pytest.raises(JournalLockedError, match=f"pid {os.getpid()} "):
            open_journal(location, writer="paigow display")  # even in the same process
    with open_journal(location, writer="paigow display"):
        pass


def test_a_second_paigow_display_refuses_to_start(tmp_path: Path) -> None:
    where = str(tmp_path / "demo.db")
    filled(where)
    with socket.socket() as probe:  # a free port: were the display to start, it would serve
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with holder(where) as proc:
        second = subprocess.run(
            [sys.executable, "-m", "controller.cli", "display", "--journal", where,
             "--port", str(port)], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert second.returncode == 2
    [error] = [line for line in second.stderr.splitlines() if line.startswith("paigow:")]
    assert error.startswith(f"paigow: error: journal {where!r} already has a writer: "
                            f"pid {proc.pid} on {socket.gethostname()} (paigow display) since ")
