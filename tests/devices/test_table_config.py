"""The table hardware file: validated once, and the devices it approves are the ones accepted."""

from __future__ import annotations

from pathlib import Path

import pytest

from firmware_interfaces.errors import DeviceConfigError, DeviceRefused
from firmware_interfaces.shuffler import ShufflerDriver
from firmware_interfaces.sim.fake import fake_shuffler
from firmware_interfaces.table_config import load_table, parse_table

SIM_TABLE = Path(__file__).resolve().parents[2] / "config" / "tables" / "sim-table.toml"
PANEL = "[panel]\n" + "\n".join(
    f"{name} = {pin}" for name, pin in [
        ("new_round", 5), ("shake", 6), ("confirm", 13), ("void", 19), ("call_supervisor", 26),
        ("light_green", 17), ("light_amber", 27), ("light_red", 22), ("buzzer", 18),
    ]
)


def test_the_shipped_sim_table_loads() -> None:
    table = load_table(SIM_TABLE)
    assert table.shuffler is not None and table.shuffler.expected.device == "shuffler"
    assert table.shaker is not None and table.shaker.expected.device == "shaker"
    assert table.pins.panel.confirm == 13 and table.pins.shaker is not None


@pytest.mark.parametrize(
    ("extra", "named"),
    [
        ('[shuffler]\nurl = "/dev/ttyUSB0"\nbaud = 9600', "'baud'"),
        ('[shuffler]\nurl = ""', "url"),
        ('[shuffler]\nurl = "x"\nfirmware_hashes = ["md5:1"]', "md5:1"),
        ('[shaker]\nurl = "x"\nallow_seeded = "yes"', "'yes'"),
        ("[camera]\nindex = 0", "'camera'"),
    ],
)
def test_bad_table_files_are_named(extra: str, named: str) -> None:
    with pytest.raises(DeviceConfigError, match=r"t\.toml") as info:
        parse_table(PANEL + "\n" + extra, "t.toml")
    assert named in str(info.value)


def test_a_missing_panel_is_named() -> None:
    with pytest.raises(DeviceConfigError, match="panel"):
        parse_table('[shuffler]\nurl = "x"', "t.toml")


def _table_expecting(model: str, hashes: list[str], seeded: bool) -> str:
    listed = ", ".join(f'"{h}"' for h in hashes)
    return (PANEL + f'\n[shuffler]\nurl = "sim://shuffler"\nmodel = "{model}"\n'
            f"firmware_hashes = [{listed}]\nallow_seeded = {str(seeded).lower()}\n")


def test_the_table_file_decides_which_shuffler_is_accepted() -> None:
    with fake_shuffler(4) as fake, ShufflerDriver.open(fake.connect) as first:
        hello = first.hello
    good = parse_table(_table_expecting(hello.model, [hello.fw_hash], True), "t.toml")
    assert good.shuffler is not None
    with fake_shuffler(4) as fake, ShufflerDriver.open(fake.connect,
                                                       good.shuffler.expected) as driver:
        assert driver.hello.fw_hash == hello.fw_hash
    for model, hashes, seeded, named in [
        ("OTHER-1", [hello.fw_hash], True, "model"),
        (hello.model, ["sha256:" + "0" * 64], True, "firmware"),
        (hello.model, [hello.fw_hash], False, "seeded"),
    ]:
        table = parse_table(_table_expecting(model, hashes, seeded), "t.toml")
        assert table.shuffler is not None
        with fake_shuffler(4) as fake, pytest.raises(DeviceRefused, match=named):
            ShufflerDriver.open(fake.connect, table.shuffler.expected)
