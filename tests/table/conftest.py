"""Fixtures of the table tests: a simulated table opened on simulator processes over ptys.

The card camera needs the artwork ``scripts/test_assets.sh`` draws; the fixture runs the script
when it is missing and skips the poker tests only if it cannot (no network).
"""

from __future__ import annotations

import functools
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import cv2
import pytest

from controller.config.locations import assets_dir
from controller.simulation.table import open_simulated_table
from controller.table import TableDevices
from firmware_interfaces.link_config import Timing

ROOT = Path(__file__).resolve().parents[2]
SIM_TABLE = ROOT / "config" / "tables" / "sim-table.toml"
ASSETS = assets_dir()  # the per-user cache the camera reads (scripts/test_assets.sh fills it)
# Short limits so a lost device is noticed in about a second; generous for a loaded machine.
TIMING = Timing(ack_timeout=0.3, reply_timeout=5.0, retries=3, backoff_initial=0.02,
                backoff_max=0.25)

cv2.setNumThreads(1)


@functools.cache
def _assets() -> bool:
    if (ASSETS / "cards" / "2color" / "Jk.png").is_file():
        return True
    done = subprocess.run([str(ROOT / "scripts" / "test_assets.sh")], check=False)
    return done.returncode == 0


OpenTable = Callable[..., TableDevices]


@pytest.fixture
def table() -> Iterator[OpenTable]:
    """Open simulated tables (``table("poker", seed=3, ...)``); all are closed afterwards."""
    opened: list[TableDevices] = []

    def start(game: str, **options: Any) -> TableDevices:
        if game == "poker" and not _assets():
            pytest.skip("card artwork missing and scripts/test_assets.sh failed (no network?)")
        options.setdefault("timing", TIMING)
        devices = open_simulated_table(options.pop("path", SIM_TABLE), game, **options)
        opened.append(devices)
        return devices

    yield start
    for devices in opened:
        devices.close()
