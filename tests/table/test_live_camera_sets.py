"""The live table whose camera sets the hands: a Pai Gow tiles round played from the panel on
the simulators over ptys, its camera a ``FeltCamera`` reading a folder of rendered frames of
the showdown (as ``tests/table/test_live_camera.py``), and nobody keys a setting.

The dealer turns the hands up after the exposure; the loop's camera reads each position and
its reading sets the hand, so the settlement is of the settings on the felt.  A seat whose
tiles still lie face down reads as unknown and is left unset: the settlement is refused until
the dealer keys it from the display's side.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from controller.journal import Role
from controller.round import Phase
from firmware_interfaces.gpio import PanelButton
from firmware_interfaces.gpio.tower_light import LOCKED

from .test_live_camera import (
    DEALER,
    FELT,
    HOUSE,
    SEATS,
    SUPERVISOR,
    LiveFelt,
    felt,
    open_live,
    records,
    unturned,
)

__all__ = ["felt", "unturned"]  # the rendered felts, fixtures of this module too


@pytest.fixture
def live(felt: Path, tmp_path: Path) -> Iterator[tuple[LiveFelt, Path]]:
    """The live table on the simulators and the felt's camera."""
    yield from open_live(felt, tmp_path)


@pytest.fixture
def live_unturned(unturned: Path, tmp_path: Path) -> Iterator[tuple[LiveFelt, Path]]:
    """The live table whose felt shows seat 5's tiles face down."""
    yield from open_live(unturned, tmp_path)


def to_exposed_unset(table: LiveFelt) -> None:
    """Bets, the woodpile, the roll, and the dealer's hand turned up with no seat keyed."""
    table.to_setting()
    assert table.state().settings == {}
    table.press(PanelButton.CONFIRM)  # the dealer's hand, as the camera reads it
    table.until(lambda: table.phase() is not Phase.SETTING)
    assert table.phase() is Phase.EXPOSED, table.lines
    # Off the house way, the hand waits for the supervisor: let stand.
    held = [f for f, d in table.state().faults.items()
            if d["code"] == "dealer_off_house_way"]
    if held:
        table.until(lambda: table.devices.panel is not None
                    and table.devices.panel.light.pattern == LOCKED)
        table.table.act("clear_fault", SUPERVISOR, held[0], "the hand stands as set")


def seat_settings(settle: dict[str, Any]) -> dict[int, str]:
    """Each seat's setting as the settlement compared it, as text."""
    out = {}
    for seat in settle["seats"]:
        setting = seat["comparison"]["setting"]
        out[seat["bet"]["position"]] = (f"{' '.join(setting['low'])} / "
                                        f"{' '.join(setting['high'])}")
    return out


def test_the_camera_sets_every_seat_from_the_felt(live: tuple[LiveFelt, Path]) -> None:
    table, _ = live
    to_exposed_unset(table)
    table.until(lambda: set(table.state().camera) == {HOUSE, *SEATS})
    sets = [r for r in table.table.journal.records() if r.kind == "set"]
    camera = table.devices.camera
    assert camera is not None
    assert sorted(r.payload()["position"] for r in sets) == sorted(SEATS)
    for record in sets:
        assert record.role is Role.CAMERA and record.actor == camera.name
        assert record.payload()["source"] == "camera"
    assert [f for f in records(table, "fault_raised") if f["code"] == "camera_mismatch"] == []
    table.press(PanelButton.CONFIRM)  # pay and take
    table.until(lambda: table.loop.summary.settled == 1)
    [settle] = records(table, "settle")
    assert seat_settings(settle) == {seat: FELT[seat] for seat in SEATS}
    assert table.loop.summary.refused == []


def test_a_face_down_seat_waits_for_the_dealer_to_key_it(
        live_unturned: tuple[LiveFelt, Path]) -> None:
    table, _ = live_unturned
    to_exposed_unset(table)
    table.until(lambda: set(table.state().camera) == {HOUSE, *SEATS})
    reads = {r["position"]: r for r in records(table, "camera_read")}
    assert reads[5]["setting"] is None  # face down: unknown, never a guess
    assert set(table.state().settings) == {2}  # the camera set seat 2 only
    table.press(PanelButton.CONFIRM)
    table.until(lambda: bool(table.loop.summary.refused))
    refused = table.loop.summary.refused[0]
    assert refused.startswith("settle: ") and "positions [5] are not set" in refused
    assert "the dealer keys them" in refused
    # The dealer turns seat 5's tiles up and keys them at the display.
    [keyed] = table.table.act("set_hand", DEALER, 5, FELT[5])
    assert (keyed.kind, keyed.actor, keyed.role) == ("set", DEALER.actor, Role.DEALER)
    assert not table.state().faults  # the camera read nothing there to dispute it
    table.press(PanelButton.CONFIRM)
    table.until(lambda: table.loop.summary.settled == 1)
    [settle] = records(table, "settle")
    assert seat_settings(settle) == {seat: FELT[seat] for seat in SEATS}
