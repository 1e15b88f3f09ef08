"""The dice shaker contract, run against every back end (fake, pty, TCP, ``--hardware``)."""

from __future__ import annotations

import pytest

from firmware_interfaces.errors import DeviceFault
from firmware_interfaces.protocol.common import Door
from firmware_interfaces.protocol.shaker import Lid, ShakeResult
from firmware_interfaces.shaker import ShakerDriver
from tests.devices.helpers import Backend, next_event


def test_hello_names_the_device(shaker_backend: Backend) -> None:
    hello = shaker_backend.open(ShakerDriver).hello
    assert hello.device == "shaker" and hello.proto == 2 and hello.fw_hash.startswith("sha256:")


def test_a_shake_gives_three_dice(shaker_backend: Backend) -> None:
    shaker = shaker_backend.open(ShakerDriver)
    result = shaker.shake()
    assert result.game and result.source == "command" and result.result == "ok"
    assert result.dice is not None and len(result.dice) == 3
    assert all(1 <= d <= 6 for d in result.dice) and 60 <= result.quality <= 100
    assert shaker.shake().shake == result.shake + 1


def test_status_and_counters(shaker_backend: Backend) -> None:
    shaker = shaker_backend.open(ShakerDriver)
    before = shaker.counters()
    shaker.shake()
    status = shaker.status()
    assert (status.state, status.lid_open, status.door_open) == ("ready", False, False)
    assert shaker.counters().shakes == before.shakes + 1 == status.shakes


def test_cocked_die_is_no_game(shaker_backend: Backend) -> None:
    shaker_backend.require_control()
    shaker = shaker_backend.open(ShakerDriver)
    shaker.control(cocked=1)
    cocked = shaker.shake()
    assert (cocked.result, cocked.dice, cocked.game) == ("cocked", None, False)
    assert shaker.shake().game
    assert shaker.counters().cocked == 1


def test_dice_that_did_not_change_are_no_game(shaker_backend: Backend) -> None:
    shaker_backend.require_control()
    shaker = shaker_backend.open(ShakerDriver)
    first = shaker.shake()
    shaker.control(unchanged=1)
    again = shaker.shake()
    assert (again.result, again.dice, again.game) == ("unchanged", first.dice, False)


def test_a_weak_shake_is_no_game(shaker_backend: Backend) -> None:
    shaker_backend.require_control()
    shaker = shaker_backend.open(ShakerDriver)
    shaker.control(weak=1)
    weak = shaker.shake()
    assert weak.result == "weak" and weak.quality < 60 and not weak.game


def test_lid_open_refuses_a_shake(shaker_backend: Backend) -> None:
    shaker_backend.require_control()
    shaker = shaker_backend.open(ShakerDriver)
    shaker.control(lid="open")
    assert next_event(shaker, lambda e: e.record == Lid(True))
    assert shaker.status().state == "lid_open"
    with pytest.raises(DeviceFault) as caught:
        shaker.shake()
    assert caught.value.code == "lid_open"
    shaker.control(lid="closed")
    assert next_event(shaker, lambda e: e.record == Lid(False))
    assert shaker.shake().game


def test_door_open_refuses_a_shake(shaker_backend: Backend) -> None:
    shaker_backend.require_control()
    shaker = shaker_backend.open(ShakerDriver)
    shaker.control(door=True)
    assert next_event(shaker, lambda e: e.record == Door(True))
    with pytest.raises(DeviceFault, match="door_open"):
        shaker.shake()


def test_the_players_button_shakes_and_reports_an_event(shaker_backend: Backend) -> None:
    shaker_backend.require_control()
    shaker = shaker_backend.open(ShakerDriver)
    shaker.control(button=1)
    event = next_event(shaker, lambda e: isinstance(e.record, ShakeResult))
    assert isinstance(event.record, ShakeResult)
    assert event.record.source == "button" and event.record.game and event.source == "shaker"
    assert shaker.counters().button_shakes == 1
