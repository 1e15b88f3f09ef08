"""Options for the whole suite: ``--hardware URL`` runs the device contract on a real device."""

from __future__ import annotations

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--hardware",
        action="append",
        default=[],
        metavar="URL",
        help="pyserial URL of a real shuffler or shaker for tests/devices (repeatable); "
        "without it the hardware back end is skipped",
    )
