"""``paigow demo --recording DIR``: a recorded session played on the dealer display through the
live table's code, at its recorded pace times ``--speed``, checked as ``paigow replay DIR``
checks it.  The recording is a one-round synthetic tiles session (``paigow sim record``)."""

from __future__ import annotations

import json
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def paigow(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "controller.cli", *argv], cwd=ROOT,
                          capture_output=True, text=True, timeout=600, check=False)


@pytest.fixture(scope="module")
def recording(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("demo-recording") / "rec"
    done = paigow("sim", "record", "--game", "tiles", "--rounds", "1", "--seed", "3", "--out",
                  str(out))
    assert done.returncode == 0, done.stderr
    return out


def test_the_display_shows_the_recorded_round_as_it_plays(recording: Path) -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "controller.cli", "demo", "--recording", str(recording),
         "--port", "0", "--json"], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True)
    assert process.stdout is not None
    try:
        lines = [process.stdout.readline(), process.stdout.readline()]
        assert lines[0].startswith(f"playing {recording} (tiles"), lines
        url = lines[1].split(": ", 1)[1].strip()
        assert lines[1].startswith("dealer display (public view)")
        seen: set[str] = set()
        end = time.monotonic() + 120
        while process.poll() is None and time.monotonic() < end:
            try:
                with urllib.request.urlopen(f"{url}api/table", timeout=5) as response:
                    view = json.loads(response.read())
            except OSError:
                break  # the display stops with the replay
            phase = view.get("phase")
            if phase:
                seen.add(str(phase))
            time.sleep(0.05)
        out, err = process.communicate(timeout=120)
    finally:
        process.kill()
    assert process.returncode == 0, err
    assert len(seen) >= 2, seen  # the round moved on while the display was watched
    result = json.loads(out.strip().splitlines()[-1])
    assert result["differences"] == 0 and result["rounds"] == 1
    assert result["truth"]["settled_as_truth"] == 1


def test_a_folder_that_holds_no_recording_is_one_line(tmp_path: Path) -> None:
    done = paigow("demo", "--recording", str(tmp_path), "--port", "0")
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "holds no recording" in done.stderr


def test_a_speed_of_zero_is_refused(recording: Path) -> None:
    done = paigow("demo", "--recording", str(recording), "--speed", "0", "--no-display")
    assert done.returncode == 2 and "--speed 0.0: must be above 0" in done.stderr
