"""``vision.memory``: a frame-reading process keeps freed planes instead of faulting them in.

Each case runs in its own Python process (the setting is the whole process's allocator): a
frame's worth of planes, as the card reader makes them (eight 1280 x 720 masks, an int32
label plane, two BGR planes, some freed early), is made and freed 20 times after a warm-up,
and the page faults (``ru_minflt``) are counted.
"""

from __future__ import annotations

import platform
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FRAMES = 20

PLANES = f"""
import resource, sys
sys.path.insert(0, {str(ROOT)!r})
import numpy as np
{{setup}}
def frame():
    planes = [np.ones((720, 1280), np.uint8) for _ in range(8)]
    labels = np.ones((720, 1280), np.int32)
    del planes[::2]
    both = [np.ones((720, 1280, 3), np.uint8) for _ in range(2)]
    return len(planes) + len(both) + int(labels[0, 0])
for _ in range(5):
    frame()
start = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
for _ in range({FRAMES}):
    frame()
print(resource.getrusage(resource.RUSAGE_SELF).ru_minflt - start)
"""

glibc_only = pytest.mark.skipif(platform.libc_ver()[0] != "glibc",
                                reason="mallopt's thresholds are glibc's")


def _faults_per_frame(setup: str) -> float:
    out = subprocess.run([sys.executable, "-c", PLANES.format(setup=setup)], check=True,
                         capture_output=True, text=True, timeout=120).stdout
    return int(out.split()[-1]) / FRAMES


@glibc_only
def test_planes_are_kept_for_the_next_frame() -> None:
    plain = _faults_per_frame("")
    kept = _faults_per_frame(
        "from vision.memory import keep_freed_memory\nassert keep_freed_memory()")
    # A plane is 225 pages; the frame's are faulted in afresh by default, not once kept.
    assert plain > 1000, plain
    assert kept < 20, kept


@glibc_only
@pytest.mark.parametrize("command", [
    "from controller.cli import main\nassert main(['ways']) == 0",
    # A command group run alone (python -m controller.commands.vision): its help, then exit.
    "from controller.commands import vision\nfrom controller.commands.common import run_alone\n"
    "try:\n    run_alone(vision.add_parsers, ['--help'])\nexcept SystemExit:\n    pass",
], ids=["paigow", "run-alone"])
def test_the_paigow_commands_keep_them(command: str) -> None:
    assert _faults_per_frame(command) < 20


def test_says_when_it_cannot(monkeypatch: pytest.MonkeyPatch) -> None:
    from vision import memory

    monkeypatch.setattr(sys, "platform", "darwin")
    assert memory.keep_freed_memory() is False
