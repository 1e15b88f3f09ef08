"""Run ``paigow`` in-process, as the CLI tests of every module do."""

from __future__ import annotations

import pytest

from controller.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """The exit status, standard output and standard error of ``paigow ARGV``."""
    try:
        code = main(list(argv))
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err
