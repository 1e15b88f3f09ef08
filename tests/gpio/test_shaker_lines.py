"""The dice shaker's GPIO lines on real gpiozero devices over MockFactory pins: the interlock."""

from __future__ import annotations

import queue
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from firmware_interfaces.errors import DeviceClosed, DeviceConfigError, DeviceError
from firmware_interfaces.gpio import (
    GpioError,
    InterlockError,
    LidChanged,
    MockLines,
    MotorCut,
    ShakeButtonPress,
    ShakerEvent,
    ShakerLines,
    ShakerPins,
    TablePins,
)

LID, MOTOR, BUTTON = "shaker_lines.lid_switch", "shaker_lines.motor", "shaker_lines.shake_button"


@pytest.fixture
def events() -> list[ShakerEvent]:
    return []


@pytest.fixture
def pins(table_pins: TablePins) -> ShakerPins:
    assert table_pins.shaker is not None
    return table_pins.shaker


@pytest.fixture
def shaker(
    factory: Any, pins: ShakerPins, clock: Callable[[], float], events: list[ShakerEvent]
) -> Iterator[ShakerLines]:
    with ShakerLines(pins, factory, events.append, clock=clock) as lines:
        yield lines


def test_starts_with_the_lid_open_and_the_motor_off(
    shaker: ShakerLines, mock: MockLines, events: list[ShakerEvent]
) -> None:
    assert not shaker.lid_closed  # pull-up, no contact: a cut wire also reads open
    assert not shaker.motor_running
    assert not mock.level(MOTOR)
    assert events == []


def test_lid_events_carry_the_clock(
    shaker: ShakerLines, mock: MockLines, clock: Any, events: list[ShakerEvent]
) -> None:
    mock.press(LID)
    clock.advance(1.0)
    mock.release(LID)
    assert events == [LidChanged(True, 100.0), LidChanged(False, 101.0)]
    assert [str(e) for e in events] == ["lid closed@100.000", "lid open@101.000"]


def test_motor_refused_while_the_lid_is_open(shaker: ShakerLines, mock: MockLines) -> None:
    assert not shaker.can_run_motor()
    with pytest.raises(InterlockError, match="lid is open") as caught:
        shaker.run_motor()
    assert isinstance(caught.value, DeviceError)
    assert mock.history(MOTOR) == [False]


def test_motor_runs_with_the_lid_closed(shaker: ShakerLines, mock: MockLines) -> None:
    mock.press(LID)
    assert shaker.can_run_motor()
    shaker.run_motor()
    assert shaker.motor_running and mock.level(MOTOR)
    shaker.stop_motor()
    assert mock.history(MOTOR) == [False, True, False]


def test_opening_the_lid_cuts_the_motor_first(
    factory: Any, pins: ShakerPins, mock: MockLines
) -> None:
    seen: list[tuple[ShakerEvent, bool]] = []
    lines = ShakerLines(pins, factory, lambda e: seen.append((e, mock.level(MOTOR))),
                        clock=lambda: 5.0)
    with lines:
        mock.press(LID)
        lines.run_motor()
        mock.release(LID)
        assert not lines.motor_running
    # Both events were reported with the motor already stopped.
    assert seen == [(LidChanged(True, 5.0), False), (LidChanged(False, 5.0), False),
                    (MotorCut(5.0), False)]


def test_lid_cuts_a_timed_run(shaker: ShakerLines, mock: MockLines,
                              events: list[ShakerEvent]) -> None:
    mock.press(LID)
    shaker.run_motor(60.0)
    assert mock.level(MOTOR)
    mock.release(LID)
    assert not mock.level(MOTOR)
    assert isinstance(events[-1], MotorCut)


def test_timed_run_stops_by_itself(
    shaker: ShakerLines, mock: MockLines, events: list[ShakerEvent],
    wait_until: Callable[..., None],
) -> None:
    mock.press(LID)
    shaker.run_motor(0.001)
    wait_until(lambda: not shaker.motor_running)
    assert mock.history(MOTOR) == [False, True, False]
    assert not any(isinstance(e, MotorCut) for e in events)


def test_a_late_timer_never_stops_a_newer_run(shaker: ShakerLines, mock: MockLines) -> None:
    mock.press(LID)
    shaker.run_motor(60.0)
    shaker.stop_motor()
    shaker.run_motor()
    shaker._timed_stop(1)  # the first run's timer, firing after all
    assert shaker.motor_running


def test_opening_the_lid_with_the_motor_off_is_no_cut(
    shaker: ShakerLines, mock: MockLines, events: list[ShakerEvent]
) -> None:
    mock.press(LID)
    mock.release(LID)
    assert not any(isinstance(e, MotorCut) for e in events)


def test_bad_run_time(shaker: ShakerLines, mock: MockLines) -> None:
    mock.press(LID)
    with pytest.raises(DeviceConfigError, match="run time 0"):
        shaker.run_motor(0)
    assert not shaker.motor_running


def test_player_button_is_debounced(
    shaker: ShakerLines, mock: MockLines, clock: Any, events: list[ShakerEvent]
) -> None:
    mock.chatter(BUTTON, bounces=3)
    mock.release(BUTTON)
    clock.advance(1.0)
    mock.click(BUTTON)
    assert events == [ShakeButtonPress(100.0), ShakeButtonPress(101.0)]


def test_events_into_a_queue(factory: Any, pins: ShakerPins, mock: MockLines) -> None:
    inbox: queue.Queue[ShakerEvent] = queue.Queue()
    with ShakerLines(pins, factory, inbox.put, clock=lambda: 1.0):
        mock.press(LID)
        mock.click(BUTTON)
    assert [inbox.get_nowait(), inbox.get_nowait()] == [LidChanged(True, 1.0),
                                                        ShakeButtonPress(1.0)]


def test_close_stops_the_motor_and_frees_the_pins(
    factory: Any, pins: ShakerPins, mock: MockLines, events: list[ShakerEvent]
) -> None:
    lines = ShakerLines(pins, factory, events.append)
    mock.press(LID)
    lines.run_motor()
    lines.close()
    lines.close()
    assert lines.closed and not mock.level(MOTOR)
    for act in (lines.run_motor, lines.stop_motor, lines.verify_run_motor):
        with pytest.raises(DeviceClosed):
            act()
    assert not lines.can_run_motor()
    with ShakerLines(pins, factory, events.append):
        pass


def test_failed_setup_releases_what_it_took(
    factory: Any, table_pins: TablePins, pins: ShakerPins
) -> None:
    from firmware_interfaces.gpio import DealerPanel

    with DealerPanel(table_pins.panel, factory, print):
        # The button's pin is the panel's: the lid and motor lines were built, then freed.
        clash = ShakerPins(pins.lid_switch, pins.motor, table_pins.panel.new_round)
        with pytest.raises(GpioError, match="'shake_button' on GPIO5"):
            ShakerLines(clash, factory, print)
        with ShakerLines(pins, factory, print) as lines:
            assert not lines.motor_running


def test_an_explicit_factory_is_required(pins: ShakerPins) -> None:
    with pytest.raises(DeviceConfigError, match="explicit pin factory"):
        ShakerLines(pins, None, print)  # type: ignore[arg-type]
