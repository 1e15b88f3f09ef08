"""A table opened with the simulation's camera: the demo's, the tests' and the benchmarks' way
to open devices (``open_table`` itself takes whatever camera its caller made)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from firmware_interfaces.table_config import TableHardware

from ..table import TableDevices, open_table
from ..table.camera import Source
from .camera import CameraLook, VisionCameraPort


def open_simulated_table(table: str | Path | TableHardware, game: str, *,
                         seed: int | None = None, camera_source: Source | None = None,
                         camera_look: CameraLook | None = None,
                         **options: Any) -> TableDevices:
    """``open_table`` with the camera that renders what it is told (seeded as the simulators
    are; missing artwork stops the start before any device process is started).  ``options``
    are ``open_table``'s."""
    def camera() -> VisionCameraPort:
        return VisionCameraPort.for_game(game, seed=seed, source=camera_source, look=camera_look)

    return open_table(table, game, seed=seed, camera=camera, **options)


__all__ = ["open_simulated_table"]
