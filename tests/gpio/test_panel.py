"""The dealer panel on real gpiozero devices over MockFactory pins."""

from __future__ import annotations

import queue
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from firmware_interfaces.errors import DeviceClosed, DeviceConfigError, DeviceError
from firmware_interfaces.gpio import (
    SIGNALS,
    BeepPattern,
    ButtonPress,
    DealerPanel,
    GpioError,
    LampMode,
    LightPattern,
    MockLines,
    PanelButton,
    TablePins,
)
from firmware_interfaces.gpio.buzzer import BEEPS
from firmware_interfaces.gpio.tower_light import (
    ALL_OFF,
    FAULT,
    LAMP_TEST,
    LOCKED,
    ROUND_OPEN,
    SUPERVISOR_CALLED,
)

FAST = 0.001  # blink and beep times: the state sequence is checked, never the timing


@pytest.fixture
def presses() -> list[ButtonPress]:
    return []


@pytest.fixture
def panel(
    factory: Any, table_pins: TablePins, clock: Callable[[], float], presses: list[ButtonPress]
) -> Iterator[DealerPanel]:
    with DealerPanel(table_pins.panel, factory, presses.append, clock=clock,
                     blink_on=FAST, blink_off=FAST) as panel:
        yield panel


# -- buttons -------------------------------------------------------------------------------


@pytest.mark.parametrize("button", list(PanelButton))
def test_each_button_reports_its_name_and_the_clock(
    panel: DealerPanel, mock: MockLines, clock: Any, presses: list[ButtonPress],
    button: PanelButton,
) -> None:
    mock.press(f"panel.{button}")
    assert panel.is_pressed(button)
    mock.release(f"panel.{button}")
    assert presses == [ButtonPress(button, clock.now)]
    assert not panel.is_pressed(button)


def test_press_is_frozen_and_prints(clock: Any) -> None:
    press = ButtonPress(PanelButton.CONFIRM, 1.5)
    with pytest.raises(AttributeError):
        press.at = 2.0  # type: ignore[misc]
    assert str(press) == "confirm@1.500"


def test_contact_chatter_counts_once(
    panel: DealerPanel, mock: MockLines, presses: list[ButtonPress]
) -> None:
    mock.chatter("panel.confirm", bounces=4)
    mock.release("panel.confirm")
    assert [p.button for p in presses] == [PanelButton.CONFIRM]


def test_debounce_window_follows_the_injected_clock(
    panel: DealerPanel, mock: MockLines, clock: Any, presses: list[ButtonPress]
) -> None:
    mock.click("panel.void")
    clock.advance(0.01)  # a bounce 10 ms later is not a second press
    mock.click("panel.void")
    clock.advance(0.2)  # a real second press after the window
    mock.click("panel.void")
    assert [p.at for p in presses] == pytest.approx([100.0, 100.21])


def test_release_bounce_is_not_a_press(
    panel: DealerPanel, mock: MockLines, clock: Any, presses: list[ButtonPress]
) -> None:
    mock.press("panel.shake")
    clock.advance(2.0)  # held, then released with bounce
    mock.release("panel.shake")
    mock.press("panel.shake")
    mock.release("panel.shake")
    assert len(presses) == 1


def test_buttons_debounce_independently(
    panel: DealerPanel, mock: MockLines, presses: list[ButtonPress]
) -> None:
    mock.click("panel.new_round")
    mock.click("panel.call_supervisor")
    assert [p.button for p in presses] == [PanelButton.NEW_ROUND, PanelButton.CALL_SUPERVISOR]


def test_presses_into_a_queue_for_the_controller_loop(
    factory: Any, table_pins: TablePins, mock: MockLines
) -> None:
    inbox: queue.Queue[ButtonPress] = queue.Queue()
    with DealerPanel(table_pins.panel, factory, inbox.put, clock=lambda: 7.0):
        mock.click("panel.confirm")
    assert inbox.get_nowait() == ButtonPress(PanelButton.CONFIRM, 7.0)
    assert inbox.empty()


# -- tower light ---------------------------------------------------------------------------


def lamp_levels(mock: MockLines) -> tuple[bool, bool, bool]:
    return (mock.level("panel.light_green"), mock.level("panel.light_amber"),
            mock.level("panel.light_red"))


def test_lights_start_dark(panel: DealerPanel, mock: MockLines) -> None:
    assert lamp_levels(mock) == (False, False, False)
    assert panel.light.pattern == ALL_OFF


@pytest.mark.parametrize(
    ("pattern", "levels"),
    [(ROUND_OPEN, (True, False, False)), (LOCKED, (False, False, True)),
     (LAMP_TEST, (True, True, True)), (ALL_OFF, (False, False, False))],
)
def test_steady_patterns_set_the_lamps(
    panel: DealerPanel, mock: MockLines, pattern: LightPattern, levels: tuple[bool, ...]
) -> None:
    panel.light.show(LAMP_TEST)
    panel.light.show(pattern)
    assert lamp_levels(mock) == levels
    assert panel.light.pattern == pattern


def test_fault_blinks_red_only(panel: DealerPanel, mock: MockLines) -> None:
    panel.light.show(ROUND_OPEN)
    mock.clear_history("panel.light_red")
    panel.light.show(FAULT, cycles=3)
    assert mock.history("panel.light_red") == [False, True, False, True, False, True, False]
    assert lamp_levels(mock) == (False, False, False)
    assert panel.light.pattern == ALL_OFF


def test_supervisor_called_blinks_amber_beside_a_steady_lamp(
    panel: DealerPanel, mock: MockLines
) -> None:
    pattern = LightPattern(green=LampMode.ON, amber=LampMode.BLINK)
    panel.light.show(pattern, cycles=2)
    assert mock.history("panel.light_amber") == [False, True, False, True, False]
    assert mock.history("panel.light_green") == [False, True]
    assert panel.light.pattern == ROUND_OPEN


def test_two_lamps_blink_together(panel: DealerPanel, mock: MockLines) -> None:
    panel.light.show(LightPattern(amber=LampMode.BLINK, red=LampMode.BLINK), cycles=2)
    for lamp in ("panel.light_amber", "panel.light_red"):
        assert mock.history(lamp) == [False, True, False, True, False]


def test_background_blinking_runs_until_the_next_pattern(
    panel: DealerPanel, mock: MockLines, wait_until: Callable[..., None]
) -> None:
    panel.light.show(SUPERVISOR_CALLED)
    assert panel.light.pattern == SUPERVISOR_CALLED
    wait_until(lambda: len(mock.history("panel.light_amber")) >= 5)
    panel.light.show(ROUND_OPEN)
    history = mock.history("panel.light_amber")
    assert history[:5] == [False, True, False, True, False]
    assert lamp_levels(mock) == (True, False, False)
    assert mock.history("panel.light_amber") == history  # the blinking stopped


def test_showing_the_same_pattern_keeps_blinking(
    panel: DealerPanel, mock: MockLines, wait_until: Callable[..., None]
) -> None:
    panel.light.show(FAULT)
    panel.light.show(FAULT)
    wait_until(lambda: len(mock.history("panel.light_red")) >= 3)
    panel.light.show(ALL_OFF)
    assert not mock.level("panel.light_red")


def test_bad_cycle_count(panel: DealerPanel) -> None:
    with pytest.raises(DeviceConfigError, match="cycles 0"):
        panel.light.show(FAULT, cycles=0)


@pytest.mark.parametrize("name", sorted(SIGNALS))
def test_pattern_text_round_trip(name: str) -> None:
    pattern = SIGNALS[name]
    assert LightPattern.parse(str(pattern)) == pattern
    assert LightPattern.parse(name.upper()) == pattern


def test_pattern_text() -> None:
    assert str(FAULT) == "red=blink"
    assert str(ALL_OFF) == "off"
    assert LightPattern.parse(" green=on, red=blink ") == LightPattern(
        green=LampMode.ON, red=LampMode.BLINK)


@pytest.mark.parametrize(
    ("text", "named"),
    [("purple=on", "'purple=on'"), ("red=flash", "'flash'"), ("red=on,red=off", "'red=off'"),
     ("red", "'red'"), ("", "''")],
)
def test_bad_pattern_text_names_the_item(text: str, named: str) -> None:
    with pytest.raises(DeviceConfigError, match=named):
        LightPattern.parse(text)


# -- buzzer --------------------------------------------------------------------------------


def test_beep_pattern_plays_on_the_pin(panel: DealerPanel, mock: MockLines) -> None:
    panel.buzzer.beep(BeepPattern(FAST, FAST, 3), wait=True)
    assert mock.history("panel.buzzer") == [False, True, False, True, False, True, False]
    assert not panel.buzzer.is_sounding


def test_silence_cuts_a_beep(
    panel: DealerPanel, mock: MockLines, wait_until: Callable[..., None]
) -> None:
    panel.buzzer.beep(BeepPattern(60.0, 1.0, 1))
    wait_until(lambda: mock.level("panel.buzzer"))  # gpiozero's blink thread switches it on
    panel.buzzer.silence()
    assert not mock.level("panel.buzzer")


def test_named_beeps() -> None:
    assert str(BEEPS["confirm"]) == "2x0.1/0.1s"
    assert BEEPS["alarm"].duration == pytest.approx(10.0)


@pytest.mark.parametrize(("on", "off", "count"), [(0.0, 0.1, 1), (0.1, -1.0, 1), (0.1, 0.1, 0)])
def test_bad_beep_pattern(on: float, off: float, count: int) -> None:
    with pytest.raises(DeviceConfigError, match="beep pattern"):
        BeepPattern(on, off, count)


# -- factory, pins in use, close -----------------------------------------------------------


def test_an_explicit_factory_is_required(table_pins: TablePins) -> None:
    with pytest.raises(DeviceConfigError, match="explicit pin factory"):
        DealerPanel(table_pins.panel, None, print)  # type: ignore[arg-type]


def test_a_pin_in_use_is_refused_naming_it(panel: DealerPanel, factory: Any,
                                           table_pins: TablePins) -> None:
    with pytest.raises(GpioError, match="'new_round' on GPIO5") as caught:
        DealerPanel(table_pins.panel, factory, print)
    assert isinstance(caught.value, DeviceError)
    assert caught.value.__cause__ is not None


def test_close_darkens_releases_and_ignores_later_edges(
    factory: Any, table_pins: TablePins, mock: MockLines, presses: list[ButtonPress]
) -> None:
    panel = DealerPanel(table_pins.panel, factory, presses.append)
    panel.light.show(LAMP_TEST)
    panel.buzzer.beep(BeepPattern(60.0, 1.0))
    panel.close()
    panel.close()  # idempotent
    assert panel.closed
    assert lamp_levels(mock) == (False, False, False)
    assert not mock.level("panel.buzzer")
    with pytest.raises(DeviceClosed):
        panel.is_pressed(PanelButton.CONFIRM)
    # The pins are free again: a new panel takes them, and only it hears the button.
    again: list[ButtonPress] = []
    with DealerPanel(table_pins.panel, factory, again.append):
        mock.click("panel.confirm")
    assert presses == []
    assert [p.button for p in again] == [PanelButton.CONFIRM]
