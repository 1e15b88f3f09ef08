"""Open a table's devices from its hardware file: serial ports, the camera, the dealer panel.

``open_table(path_or_hardware, game, seed=...)`` validates the table file once (a bad one
raises ``TableConfigError`` naming the file and key), starts a simulator process for each
``sim://DEVICE`` URL (seeded, or drawing from ``secrets`` when ``seed`` is None), opens each
driver and refuses a device whose hello the table file does not approve
(``firmware_interfaces.identity``), builds the camera and the GPIO dealer panel, and hands
them back as ``TableDevices``.  Whatever was started is stopped again by ``close`` or when
opening fails half-way.
"""

from __future__ import annotations

import queue
from collections.abc import Callable, Mapping
from contextlib import ExitStack
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import TracebackType
from typing import Self, TypeVar

from firmware_interfaces.device_keys import make_key
from firmware_interfaces.errors import DeviceConfigError, DeviceError, DeviceRefused
from firmware_interfaces.events import DeviceEvent, EventQueue
from firmware_interfaces.gpio import ButtonPress, DealerPanel, PinFactory, mock_factory
from firmware_interfaces.link_config import Timing
from firmware_interfaces.port import Connector
from firmware_interfaces.shaker import ShakerDriver
from firmware_interfaces.shuffler import ShufflerDriver
from firmware_interfaces.table_config import SerialDevice, TableHardware, parse_table

from ..config.files import FileReadError, read_text
from ..round.errors import PortError
from .camera import LayoutCamera
from .camera_config import hardware_text
from .dice_port import SerialDicePort
from .errors import TableConfigError, TableDeviceError
from .processes import FaultValue, SimProcess
from .recording import SessionRecorder
from .shuffler_port import SerialShufflerPort

SIM_SCHEME = "sim://"
GAMES = ("poker", "tiles")
D = TypeVar("D", ShufflerDriver, ShakerDriver)


@dataclass
class TableDevices:
    """A table's devices, open; ``close`` stops everything ``open_table`` started."""

    game: str
    hardware: TableHardware
    shuffler: SerialShufflerPort | None
    dice: SerialDicePort
    camera: LayoutCamera | None
    panel: DealerPanel
    pin_factory: PinFactory
    presses: queue.Queue[ButtonPress] = field(default_factory=queue.Queue)
    events: queue.Queue[DeviceEvent] = field(default_factory=EventQueue)
    sims: dict[str, SimProcess] = field(default_factory=dict)
    seed: int | None = None
    _closer: ExitStack = field(default_factory=ExitStack, repr=False)

    @property
    def closed(self) -> bool:
        """True once ``close`` ran."""
        return self.panel.closed

    def close(self) -> None:
        """Release the panel and the lines, stop the simulators (idempotent)."""
        self._closer.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, kind: type[BaseException] | None, err: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()


def read_hardware(table: str | Path | TableHardware) -> TableHardware:
    """The table's hardware, validated; ``TableConfigError`` names the file and key.  The
    firmware side reads the hardware sections only: the ``[camera]`` section is the camera's
    (``camera_config``), checked when the camera is made."""
    if isinstance(table, TableHardware):
        return table
    try:
        text = read_text(table, "table file")
        return parse_table(hardware_text(text, str(table)), str(table))
    except (FileReadError, DeviceConfigError) as err:
        raise TableConfigError(str(err)) from err


def _sim_device(kind: str, device: SerialDevice, table: str) -> bool:
    """True for ``sim://KIND``; a ``sim://`` URL naming another device is an error."""
    if not device.url.startswith(SIM_SCHEME):
        return False
    named = device.url[len(SIM_SCHEME):]
    if named != kind:
        raise TableConfigError(f"{table}: [{kind}] url {device.url!r} names no simulator of a "
                               f"{kind}; use {SIM_SCHEME + kind!r}")
    return True


def _open_driver(cls: type[D], kind: str, device: SerialDevice, stack: ExitStack,
                 sims: dict[str, SimProcess], where: str, seed: int | None,
                 faults: Mapping[str, FaultValue], timing: Timing | None,
                 events: queue.Queue[DeviceEvent], recorder: SessionRecorder | None) -> D:
    url, expected = device.url, device.expected
    if _sim_device(kind, device, where):
        # A simulator we start answers the hello's challenge with the table's key, or with a
        # throwaway one made here: the demo needs no setup, and no hello can be copied.
        expected = replace(expected, key=expected.key or make_key())
        sim = SimProcess(kind, seed=seed, faults=faults, key=expected.key)
        stack.callback(sim.stop)
        sims[kind] = sim
        url = sim.url
    elif faults:
        raise TableConfigError(f"{where}: simulator faults {sorted(faults)} given for "
                               f"the real {kind} at {url!r}")
    target: str | Connector = url
    if recorder is not None:  # every byte of the line into the recording
        line = recorder.line(kind, url)
        stack.callback(line.close)  # after the driver's close, registered below
        target = line.connect
    try:
        driver: D = cls.open(target, expected, timing=timing, name=f"{kind}-1",
                             on_event=events.put)
    except DeviceRefused as err:
        raise TableDeviceError(f"{where}: [{kind}] at {url!r} refused: {err}") from err
    except DeviceConfigError as err:
        raise TableConfigError(f"{where}: [{kind}] url {url!r}: {err}") from err
    except DeviceError as err:
        raise TableDeviceError(f"{where}: [{kind}] at {url!r} cannot be opened: "
                               f"{err}") from err
    stack.callback(driver.close)
    return driver


def open_table(table: str | Path | TableHardware, game: str, *, seed: int | None = None,
               timing: Timing | None = None, pin_factory: PinFactory | None = None,
               sim_faults: Mapping[str, Mapping[str, FaultValue]] | None = None,
               camera: Callable[[], LayoutCamera | None],
               recorder: SessionRecorder | None = None) -> TableDevices:
    """Open the devices of a ``game`` (``poker`` or ``tiles``) table described by ``table``.

    ``camera`` makes the camera that reads the layout: the caller chooses it (the product never
    picks a simulated one for itself), and it is made once the table file is checked, before
    any device process starts, so a camera that cannot be made stops the start-up cleanly;
    ``recorder`` (a session being recorded) gets every byte of each device line;
    ``seed`` makes the simulators repeatable (``None``: secrets);
    ``sim_faults`` gives start-up faults per simulator (``{"shuffler": {"cards": 52}}``);
    ``pin_factory`` defaults to a ``MockFactory`` when every serial device is simulated, and
    must be given for a table with real devices.
    """
    if game not in GAMES:
        raise TableConfigError(f"game {game!r} is not one of {list(GAMES)}")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or seed < 0):
        raise TableConfigError(f"seed {seed!r} must be a whole number >= 0 (or None: secrets)")
    hardware = read_hardware(table)
    where = hardware.name if isinstance(table, TableHardware) else str(table)
    if hardware.shaker is None:
        raise TableConfigError(f"{where}: missing [shaker] section (both games roll dice)")
    if game == "poker" and hardware.shuffler is None:
        raise TableConfigError(f"{where}: missing [shuffler] section (a poker table deals "
                               f"from a shuffler)")
    faults = dict(sim_faults or {})
    unknown = sorted(set(faults) - {"shuffler", "shaker"})
    if unknown:
        raise TableConfigError(f"simulator faults for {unknown[0]!r}: known devices are "
                               f"'shuffler' and 'shaker'")
    if game == "tiles" and "shuffler" in faults:
        raise TableConfigError("simulator faults for 'shuffler' given for a tiles table, which "
                               "has no shuffler")
    serial = [hardware.shaker, *([hardware.shuffler] if game == "poker" else [])]
    simulated = all(d is not None and d.url.startswith(SIM_SCHEME) for d in serial)
    if pin_factory is None and not simulated:
        raise TableConfigError(f"{where}: a table with real devices needs its GPIO pin factory "
                               f"(pin_factory=...); only a simulated table uses MockFactory")
    made = camera()  # first: a camera that cannot be made stops the start before any process
    events: queue.Queue[DeviceEvent] = EventQueue()
    sims: dict[str, SimProcess] = {}
    with ExitStack() as stack:
        release = getattr(made, "close", None)
        if callable(release):  # a camera holding a source: released with the devices
            stack.callback(release)
        shuffler = None
        if game == "poker":
            assert hardware.shuffler is not None
            driver = _open_driver(ShufflerDriver, "shuffler", hardware.shuffler, stack, sims,
                                  where, seed, faults.get("shuffler", {}), timing, events,
                                  recorder)
            try:
                shuffler = SerialShufflerPort(driver, timing=timing)
            except PortError as err:
                raise TableDeviceError(f"{where}: [shuffler] {err}") from err
        shaker = _open_driver(ShakerDriver, "shaker", hardware.shaker, stack, sims, where,
                              seed, faults.get("shaker", {}), timing, events, recorder)
        dice = SerialDicePort(shaker, timing=timing)
        factory = pin_factory or mock_factory()
        if pin_factory is None:
            stack.callback(_reset, factory)
        presses: queue.Queue[ButtonPress] = queue.Queue()
        panel = DealerPanel(hardware.pins.panel, factory, presses.put)
        stack.callback(panel.close)
        devices = TableDevices(game, hardware, shuffler, dice, made, panel, factory,
                               presses, events, sims, seed)
        devices._closer = stack.pop_all()
        return devices
    raise AssertionError("unreachable")  # pragma: no cover (mypy: ExitStack may swallow)


def _reset(factory: PinFactory) -> None:
    """Free every pin of a factory this module made (``MockFactory.reset``)."""
    reset = getattr(factory, "reset", None)
    if callable(reset):
        reset()


__all__ = ["TableDevices", "open_table", "read_hardware"]
