"""After ``kill -9`` of the controller its simulators end too (no orphans).

Before the fix both simulators of ``paigow demo`` ran on after the controller was killed
(twelve orphans after six kills). A real controller process and its real simulator processes;
every wait is a bounded poll.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.table.conftest import _assets

ROOT = Path(__file__).resolve().parents[2]
START_LIMIT = 120.0
END_LIMIT = 15.0


def _children(pid: int) -> list[int]:
    """The simulator processes whose parent is ``pid`` (read from /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ")
        except OSError:
            continue
        ppid = int(stat.rpartition(")")[2].split()[1])
        if ppid == pid and b"firmware_interfaces.sim" in cmdline:
            found.append(int(entry.name))
    return found


def _alive(pid: int) -> bool:
    """True while ``pid`` runs (a zombie waiting for its reaper counts as ended)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rpartition(")")[2].split()[0] != "Z"


def _wait_until(check: object, limit: float) -> bool:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if check():  # type: ignore[operator]
            return True
        time.sleep(0.05)
    return False


def test_kill_9_of_the_controller_ends_its_simulators(tmp_path: Path) -> None:
    if not _assets():
        pytest.skip("card artwork missing and scripts/test_assets.sh failed (no network?)")
    proc = subprocess.Popen(
        [sys.executable, "-m", "controller.cli", "demo", "--no-display",
         "--seed", "5", "--journal", str(tmp_path / "j.sqlite")],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL,
    )
    sims: list[int] = []
    try:
        assert _wait_until(lambda: len(_children(proc.pid)) >= 2 or proc.poll() is not None,
                           START_LIMIT), "the demo did not start its two simulators"
        sims = _children(proc.pid)
        assert len(sims) == 2 and proc.poll() is None
        proc.kill()  # kill -9: no handler, no clean-up in the controller
        proc.wait(10)
        assert _wait_until(lambda: not any(_alive(pid) for pid in sims), END_LIMIT), \
            f"simulators {[p for p in sims if _alive(p)]} outlived their controller"
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
        if proc.stdout is not None:
            proc.stdout.close()
        for pid in sims:  # a failed run leaves no orphan behind (by pid, only ours)
            if _alive(pid):
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)


def test_a_simulator_whose_parent_is_gone_ends_at_once() -> None:
    """The portable fallback: a parent pid that is not (or no longer) its parent."""
    stranger = os.getpid() + 1_000_000  # no process has this pid: the parent "already died"
    sim = subprocess.Popen(
        [sys.executable, "-m", "firmware_interfaces.sim", "shaker", "--pty",
         "--parent-pid", str(stranger)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL,
    )
    try:
        assert sim.wait(END_LIMIT) == 0
    finally:
        if sim.poll() is None:
            sim.kill()
            sim.wait(10)
