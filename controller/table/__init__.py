"""The physical table: the round engine's ports on real drivers and the camera, the dealer's
panel, and the live loop (``live``) that plays a table with people.

API (for the loops and the commands; names and fields are stable)::

    from controller.table import open_table, TableDevices

    devices = open_table("config/tables/NAME.toml", "poker", camera=make_camera)
    try:
        engine = PokerRound(journal, profile, devices.shuffler, devices.dice, devices.camera)
        # tiles: TileRound(journal, tile_profile, devices.dice, devices.camera)
        ...
        engine.read_camera(who, position)   # the camera reads the position: text or None
    finally:
        devices.close()                     # also a context manager: ``with open_table(...)``

``TableDevices`` fields:

- ``game``: ``"poker"`` or ``"tiles"``; ``hardware``: the validated table file; ``seed``;
- ``shuffler``: ``SerialShufflerPort`` (a ``ShufflerPort``), ``None`` for tiles;
- ``dice``: ``SerialDicePort`` (a ``DicePort``; a cocked, unchanged or weak shake is a no-game);
- ``camera``: the ``LayoutCamera`` (a ``CameraPort``) the caller's ``camera`` factory made, or
  None for a table without one (the dealer keys every setting); the simulated table's is
  ``controller.simulation.camera.VisionCameraPort`` (``controller.simulation.table``);
- ``panel``: the GPIO ``DealerPanel`` on ``pin_factory`` (a ``MockFactory`` for a simulated
  table); ``presses``: a ``queue.Queue`` of its ``ButtonPress`` records;
- ``events``: a ``queue.Queue`` of the drivers' ``DeviceEvent`` (line lost, door, lid...);
- ``sims``: the ``SimProcess`` of each simulator started for a ``sim://`` URL, by device
  (``"shuffler"``, ``"shaker"``); empty for real devices. ``sims["shuffler"].kill()`` pulls
  the plug;
- ``close()``: stops everything it started (idempotent; also a context manager).

Faults for tests and the demo: ``shuffler.inject("lost" | "short_count" | "duplicate")`` and
``dice.inject("lost" | "no_game")`` (the names ``controller.round.fakes`` uses) make the
simulator fail its next call; ``shuffler.control(...)`` / ``dice.control(...)`` send any
simulator control (``cards=52``, ``jam_after=0``, ``cocked=1``, ``door=True``); start-up faults:
``open_table(..., sim_faults={"shuffler": {"cards": 52}})``.

``open_table(table, game, *, seed=None, timing=None, pin_factory=None, sim_faults=None,
camera)``: ``seed`` None draws from ``secrets`` (simulators started without ``--seed``); a
seed makes the simulators repeatable, and the journal's ``Randomness`` (from each device's
hello) says which. A bad table file
raises ``TableConfigError`` (a ``controller.errors.ConfigError``) naming the file and key; a
device whose hello the table file does not approve raises ``TableDeviceError``; card artwork
is drawn into the per-user cache on first use (``artwork``), and when it cannot be,
``AssetsMissingError`` says how to draw it.

Errors: ``TableError`` is the root (a ``ControllerError``); port calls raise the engine's
``DeviceLostError`` when a device stops answering, loses its line or refuses the act (jam,
door open, lid open), so the engine journals a fault and pauses the round.
"""

from __future__ import annotations

from .camera import CameraRead, LayoutCamera
from .devices import TableDevices, open_table, read_hardware
from .dice_port import SerialDicePort
from .errors import (
    AssetsMissingError,
    CameraInputError,
    SimulatorError,
    TableConfigError,
    TableDeviceError,
    TableError,
)
from .processes import SimProcess
from .shuffler_port import SerialShufflerPort

__all__ = [
    "AssetsMissingError", "CameraInputError", "CameraRead", "LayoutCamera", "SerialDicePort",
    "SerialShufflerPort", "SimProcess", "SimulatorError", "TableConfigError",
    "TableDeviceError", "TableDevices", "TableError", "open_table", "read_hardware",
]
