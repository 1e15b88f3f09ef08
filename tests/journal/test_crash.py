"""Crash safety: a writer killed with SIGKILL while appending loses nothing it committed."""

from __future__ import annotations

import os
import queue
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from tests.journal.helpers import Store

ROOT = Path(__file__).resolve().parents[2]
LIMIT_S = 60.0
BEFORE_KILL = 40


def _pump(stream: object, lines: queue.Queue[str | None]) -> None:
    for line in stream:  # type: ignore[attr-defined]
        lines.put(line.decode())
    lines.put(None)


def run_and_kill(url: str, first: int) -> list[tuple[int, int]]:
    """Start a writer, let it commit BEFORE_KILL records, SIGKILL it; every (seq, i) it printed."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    with tempfile.TemporaryFile() as errors:
        proc = subprocess.Popen(
            [sys.executable, "-m", "tests.journal.crash_writer", url, str(first), "1000000"],
            stdout=subprocess.PIPE, stderr=errors, stdin=subprocess.DEVNULL, cwd=ROOT, env=env)
        lines: queue.Queue[str | None] = queue.Queue()
        pump = threading.Thread(target=_pump, args=(proc.stdout, lines), daemon=True)
        pump.start()
        committed: list[tuple[int, int]] = []
        deadline = time.monotonic() + LIMIT_S
        try:
            while len(committed) < BEFORE_KILL:
                line = lines.get(timeout=max(0.0, deadline - time.monotonic()))
                if line is None:
                    errors.seek(0)
                    raise AssertionError(f"writer ended early: {errors.read().decode()}")
                seq, i = map(int, line.split())
                committed.append((seq, i))
        finally:
            proc.send_signal(signal.SIGKILL)
            proc.wait(timeout=LIMIT_S)
            pump.join(timeout=LIMIT_S)
            assert proc.stdout is not None
            proc.stdout.close()
    assert proc.returncode == -signal.SIGKILL, "the writer must die mid-run, not finish"
    while (line := lines.get_nowait()) is not None:
        seq, i = map(int, line.split())
        committed.append((seq, i))
    return committed


def test_a_killed_writer_loses_no_committed_record(store: Store) -> None:
    store.open().close()  # create the journal (and schema) before the writers race for it
    committed: list[tuple[int, int]] = []
    first = 0
    for _ in range(3):  # kill, restart on the same journal, kill again
        got = run_and_kill(store.url, first)
        committed += got
        first = got[-1][1] + 1_000
    journal = store.open(create=False)
    report = journal.verify()
    assert report.ok, report.line()
    stored = {r.seq: r.payload()["i"] for r in journal.iter_records()}
    missing = [(seq, i) for seq, i in committed if stored.get(seq) != i]
    assert not missing, f"committed but lost: {missing[:5]}"
    assert report.last_seq >= committed[-1][0]
    assert sorted(stored) == list(range(1, report.last_seq + 1))
    after = journal.append({"type": "note", "v": 1}, actor="t", role="system")
    assert after.seq == report.last_seq + 1 and journal.verify().ok
