"""The process starts in one place (``controller.commands.startup``): settings, logging, errors.

Each process case runs in its own Python process, since what is checked is the whole process:
the thread variables numpy reads when it loads, and the root logger's handlers.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.cli_run import run

ROOT = Path(__file__).resolve().parents[2]
THREADS = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")


def _python(code: str, **env: str) -> str:
    clean = {k: v for k, v in os.environ.items() if k not in THREADS}
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env={**clean, **env},
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_a_library_import_changes_nothing_in_the_process() -> None:
    out = _python(
        "import logging, os\n"
        "import controller, controller.cli, controller.table, controller.display\n"
        "import controller.commands.vision, controller.commands.table\n"
        "print([v for v in " + repr(THREADS) + " if v in os.environ])\n"
        "print(logging.getLogger().handlers)\n")
    assert out.split("\n")[:2] == ["[]", "[]"]


@pytest.mark.parametrize("start", [
    "from controller.cli import main\nmain(['ways'])",
    "from controller.commands import vision\nfrom controller.commands.common import run_alone\n"
    "run_alone(vision.add_parsers, ['vision', 'read', '--help'])",
], ids=["paigow", "run-alone"])
def test_the_command_sets_one_thread_before_numpy_loads(start: str) -> None:
    # numpy is not loaded before the command starts; the variables are set when it loads.
    code = ("import os, sys\nimport controller.cli\nassert 'numpy' not in sys.modules\n"
            f"try:\n    {start.replace(chr(10), chr(10) + '    ')}\nexcept SystemExit:\n    pass\n"
            "import numpy\nprint(' '.join(os.environ[v] for v in " + repr(THREADS) + "))\n"
            "import logging\nprint(logging.getLogger().handlers)")
    assert _python(code).split("\n")[-3:-1] == ["1 1 1", "[]"]


def test_the_operator_environment_wins() -> None:
    code = ("import os\nfrom controller.cli import main\nmain(['ways'])\n"
            "print(os.environ['OPENBLAS_NUM_THREADS'], os.environ['OMP_NUM_THREADS'])")
    assert _python(code, OPENBLAS_NUM_THREADS="2").split("\n")[-2] == "2 1"



def test_a_crash_in_native_code_names_where_the_process_was() -> None:
    # A fatal signal (here a real SIGSEGV) after the command started: stderr holds the stack.
    code = ("import faulthandler\nfrom controller.commands.startup import start_process\n"
            "def reading_a_frame():\n    faulthandler._sigsegv()\n"
            "start_process()\nreading_a_frame()\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode != 0
    assert "Fatal Python error: Segmentation fault" in done.stderr
    assert "reading_a_frame" in done.stderr


def test_a_library_import_leaves_fault_reports_off() -> None:
    assert _python("import faulthandler, controller.cli\nprint(faulthandler.is_enabled())"
                   ).strip() == "False"

def test_every_project_error_is_one_line_with_status_2(capsys: pytest.CaptureFixture[str],
                                                       tmp_path: Path) -> None:
    # A camera error (VisionError) from a run-alone command and from paigow alike.
    from controller.commands import vision

    bad = tmp_path / "bad.png"
    bad.write_bytes(b"not a picture")
    assert vision.main(["vision", "calibrate", "cards", str(tmp_path), "--out",
                        str(tmp_path / "x.npz")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("paigow: error: ") and err.count("\n") == 1, err
    code, _, err = run(capsys, "vision", "calibrate", "cards", str(tmp_path), "--out",
                       str(tmp_path / "x.npz"))
    assert code == 2 and err.startswith("paigow: error: ") and err.count("\n") == 1, err


def test_a_log_file_that_cannot_be_opened_is_one_line(capsys: pytest.CaptureFixture[str],
                                                      tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    code, _, err = run(capsys, "--log-file", str(blocker / "x.log"), "ways")
    assert code == 2 and err.startswith("paigow: error: cannot open the log file "), err
