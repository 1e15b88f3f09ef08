"""Opening a table: the table file checked once, devices refused by their hello, clean stops."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from controller.errors import ConfigError
from controller.simulation.camera import VisionCameraPort
from controller.table import (
    AssetsMissingError,
    CameraInputError,
    SimProcess,
    SimulatorError,
    TableConfigError,
    TableDeviceError,
)
from firmware_interfaces.gpio import PanelButton, mock_factory
from firmware_interfaces.table_config import load_table

from .conftest import SIM_TABLE, OpenTable

PANEL = SIM_TABLE.read_text().split("[shuffler]")[0]


def _table_file(tmp_path: Path, devices: str, name: str = "t.toml") -> Path:
    path = tmp_path / name
    path.write_text(PANEL + devices)
    return path


@pytest.mark.parametrize(("devices", "named"), [
    ('[shaker]\nurl = "sim://shaker"\nspeed = 3\n', "'speed'"),
    ('[shaker]\nurl = "sim://shaker"\nallow_seeded = "yes"\n', "allow_seeded"),
    ('[shaker]\nurl = ""\n', "url"),
    ('[shaker]\nurl = "sim://shaker"\n[lights]\n', "'lights'"),
])
def test_a_bad_table_file_names_the_key(tmp_path: Path, table: OpenTable, devices: str,
                                        named: str) -> None:
    path = _table_file(tmp_path, devices)
    with pytest.raises(TableConfigError, match=re.escape(named)) as caught:
        table("tiles", path=path)
    assert isinstance(caught.value, ConfigError) and str(path) in str(caught.value)


def test_a_poker_table_needs_a_shuffler_and_sim_urls_name_their_device(
        tmp_path: Path, table: OpenTable) -> None:
    only_shaker = _table_file(tmp_path, '[shaker]\nurl = "sim://shaker"\nallow_seeded = true\n')
    with pytest.raises(TableConfigError, match=r"missing \[shuffler\]"):
        table("poker", path=only_shaker)
    assert table("tiles", path=only_shaker, seed=1).shuffler is None
    crossed = _table_file(tmp_path, '[shaker]\nurl = "sim://shuffler"\n', "x.toml")
    with pytest.raises(TableConfigError, match=re.escape(f"{crossed}: [shaker] url 'sim://")):
        table("tiles", path=crossed)
    with pytest.raises(TableConfigError, match="game 'roulette'"):
        table("roulette")
    with pytest.raises(TableConfigError, match="seed -3"):
        table("tiles", seed=-3)
    with pytest.raises(TableConfigError, match="'shuffler' given for a tiles table"):
        table("tiles", sim_faults={"shuffler": {"cards": 52}})


def test_a_seeded_simulator_is_refused_where_the_table_forbids_it(
        tmp_path: Path, table: OpenTable) -> None:
    strict = _table_file(tmp_path, '[shaker]\nurl = "sim://shaker"\nallow_seeded = false\n')
    with pytest.raises(TableDeviceError, match=r"seeded randomness \(seed 5\)"):
        table("tiles", path=strict, seed=5)
    devices = table("tiles", path=strict)  # from secrets: accepted
    assert str(devices.dice.randomness) == "secrets"


def test_a_real_url_is_opened_and_refused_when_its_hello_does_not_match(
        tmp_path: Path, table: OpenTable) -> None:
    key = tmp_path / "shaker.key"  # a real device names its hello key
    key.write_text("cd" * 32 + "\n")
    key.chmod(0o600)
    with SimProcess("shaker", seed=2, key=bytes.fromhex("cd" * 32)) as sim:
        wrong = _table_file(tmp_path, f'[shaker]\nurl = "{sim.url}"\nmodel = "DSH-9"\n'
                                      f'allow_seeded = true\nkey_file = "{key}"\n')
        with pytest.raises(TableConfigError, match="needs its GPIO pin factory"):
            table("tiles", path=wrong)
        with pytest.raises(TableDeviceError, match="model 'DSH-3' is not the approved 'DSH-9'"):
            table("tiles", path=wrong, pin_factory=mock_factory())
        with pytest.raises(TableConfigError, match="simulator faults"):
            table("tiles", path=wrong, pin_factory=mock_factory(),
                  sim_faults={"shaker": {"cocked": 1}})
        right = _table_file(tmp_path, f'[shaker]\nurl = "{sim.url}"\nmodel = "DSH-3"\n'
                                      f'allow_seeded = true\nkey_file = "{key}"\n', "right.toml")
        devices = table("tiles", path=load_table(right), pin_factory=mock_factory())
        assert devices.sims == {} and devices.dice.roll().faces is not None
        assert sim.running


def test_close_stops_the_simulators_and_releases_the_panel(table: OpenTable) -> None:
    devices = table("poker", seed=1)
    sims = list(devices.sims.values())
    assert all(sim.running for sim in sims)
    pin = devices.pin_factory.pin(devices.panel.pins.confirm)  # type: ignore[attr-defined]
    pin.drive_low()
    pin.drive_high()
    assert devices.presses.get(timeout=5).button is PanelButton.CONFIRM
    devices.close()
    devices.close()
    assert devices.closed and not any(sim.running for sim in sims)


def test_a_failed_open_stops_what_it_started(tmp_path: Path, table: OpenTable) -> None:
    # The shuffler starts, then the shaker's simulator refuses its options: nothing lingers.
    before = _children()
    with pytest.raises(SimulatorError, match="exited with status 2"):
        table("poker", seed=1, sim_faults={"shaker": {"cards": 52}})
    assert _children() == before


def _children() -> set[int]:
    import os

    me = os.getpid()
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == me and fields[0] != "Z":
                found.add(int(entry.name))
    return found


def test_simulator_process_errors_name_the_problem() -> None:
    with pytest.raises(SimulatorError, match="no simulator of 'dealer'"):
        SimProcess("dealer")
    with pytest.raises(SimulatorError, match="seed -1"):
        SimProcess("shaker", seed=-1)
    with pytest.raises(SimulatorError, match=re.escape("--cards")):
        SimProcess("shuffler", faults={"cards": 60})


def test_faults_the_ports_cannot_make_are_refused_by_name(table: OpenTable) -> None:
    devices = table("tiles", seed=1)
    with pytest.raises(ValueError, match="unknown fault 'jam'"):
        devices.dice.inject("jam")


def test_the_card_camera_needs_its_artwork(tmp_path: Path) -> None:
    with pytest.raises(AssetsMissingError, match=re.escape("scripts/test_assets.sh")):
        VisionCameraPort.for_game("poker", assets=tmp_path)


@pytest.mark.parametrize(("position", "setting", "named"), [
    (9, "3-3 1-2 / 6-6 4-5", "position 9"),
    (0, "3-3 1-2 / 6-6 4-5", "position 0"),
    (2, "3-3 1-2 6-6 4-5", "'3-3 1-2 6-6 4-5'"),
    (2, "3-3 1-7 / 6-6 4-5", "1-7"),
])
def test_the_camera_refuses_what_cannot_lie_on_the_felt(position: int, setting: str,
                                                       named: str) -> None:
    camera = VisionCameraPort.for_game("tiles", seed=1)
    with pytest.raises(CameraInputError, match=re.escape(named)):
        camera.place(position, setting)
    assert camera.placed == {}
