"""Pin maps: validated once from configuration, every error naming the bad key or value."""

from __future__ import annotations

import tomllib
from typing import Any

import pytest

from firmware_interfaces.errors import DeviceConfigError
from firmware_interfaces.gpio import PanelPins, PinMapError, ShakerPins, TablePins
from firmware_interfaces.gpio.debounce import Debouncer

PANEL = {"new_round": 5, "shake": 6, "confirm": 13, "void": 19, "call_supervisor": 26,
         "light_green": 17, "light_amber": 27, "light_red": 22, "buzzer": 18}
SHAKER = {"lid_switch": 23, "motor": 24, "shake_button": 25}


def test_sim_table_config_loads(table_pins: TablePins) -> None:
    assert table_pins.panel.to_mapping() == PANEL
    assert table_pins.shaker == ShakerPins(23, 24, 25)
    assert table_pins.by_name()["panel.confirm"] == 13
    assert table_pins.by_name()["shaker_lines.motor"] == 24


def test_round_trip() -> None:
    pins = PanelPins.from_mapping(PANEL)
    assert PanelPins.from_mapping(pins.to_mapping()) == pins
    assert PanelPins.names()[0] == "new_round"


def test_shaker_section_is_optional() -> None:
    assert TablePins.from_config({"panel": PANEL}).shaker is None


@pytest.mark.parametrize(
    ("change", "named"),
    [
        ({"confirm": 28}, r"confirm = 28: BCM pins are 0\.\.27"),
        ({"confirm": -1}, "confirm = -1"),
        ({"confirm": "13"}, r"confirm = '13': a pin must be an integer"),
        ({"confirm": True}, "confirm = True"),
        ({"confirm": 13.0}, "confirm = 13.0"),
        ({"confrim": 4}, r"unknown key\(s\) \['confrim'\]"),
        ({"void": 13}, "pin 13 is used twice: by 'confirm' and 'void'"),
    ],
)
def test_bad_panel_pins_name_the_value(change: dict[str, Any], named: str) -> None:
    with pytest.raises(PinMapError, match=named) as caught:
        PanelPins.from_mapping({**PANEL, **change})
    assert isinstance(caught.value, DeviceConfigError)
    assert isinstance(caught.value, ValueError)
    assert str(caught.value).startswith("[panel]")


def test_missing_pin_is_named() -> None:
    data = dict(PANEL)
    del data["buzzer"]
    with pytest.raises(PinMapError, match=r"missing pin\(s\) \['buzzer'\]"):
        PanelPins.from_mapping(data)


def test_direct_construction_is_checked_too() -> None:
    with pytest.raises(PinMapError, match=r"\[shaker_lines\] motor = 40"):
        ShakerPins(23, 40, 25)
    with pytest.raises(PinMapError, match="used twice"):
        ShakerPins(23, 23, 25)


def test_a_pin_shared_across_sections_is_refused() -> None:
    with pytest.raises(PinMapError, match=r"pin 18 is used twice: by 'panel\.buzzer' and "
                                          r"'shaker_lines\.motor'"):
        TablePins.from_config({"panel": PANEL, "shaker_lines": {**SHAKER, "motor": 18}})


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("[shaker_lines]\nlid_switch = 1\nmotor = 2\nshake_button = 3\n", r"missing \[panel\]"),
        ("panel = 5\n", r"\[panel\] must be a table of pins, not 5"),
        ("[panel]\n[shaker_lines]\nlid = 1\n", r"\[panel\] missing pin"),
    ],
)
def test_bad_config_files(text: str, named: str) -> None:
    with pytest.raises(PinMapError, match=named):
        TablePins.from_config(tomllib.loads(text))


def test_unknown_shaker_key() -> None:
    with pytest.raises(PinMapError, match=r"\[shaker_lines\] unknown key\(s\) \['lid'\]"):
        ShakerPins.from_mapping({**SHAKER, "lid": 1})


def test_debouncer_is_pure() -> None:
    bounce = Debouncer(0.05)
    assert bounce.edge(1.0, True)  # first press
    assert not bounce.edge(1.001, False)  # releases never count
    assert not bounce.edge(1.002, True)  # chatter
    assert not bounce.edge(1.5, False)
    assert bounce.edge(1.6, True)
    with pytest.raises(DeviceConfigError, match="-1"):
        Debouncer(-1)
