"""The live table reading a felt: a Pai Gow tiles round played from the panel on the
simulators over ptys, its camera a ``FeltCamera`` reading a folder of rendered frames of the
showdown (``vision.table_video``), calibrated by ``paigow camera calibrate``.

The felt shows the dealer's hand and two seats' hands; the dealer keys each setting as the
display would.  What the camera reads is journaled with the kept frame's file and SHA-256; a
setting keyed otherwise than the felt shows is a ``camera_mismatch`` fault that stops the
settlement until the supervisor acts.  The dealer's hand on the felt is set off the house way,
so the settlement is flagged as a deviation.

Rendered at 2560 x 1440 (as ``tests/table/test_felt_camera.py``: the tile reader needs it), at
2.5 frames a second: each read takes two frames to see the felt still; a round of three
positions reads four times (the dealer's hand once for its exposure, then each position), and
a corrected round more: the folder holds frames for twice that.
"""

from __future__ import annotations

import functools
import hashlib
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from controller.journal import Journal, Role, open_journal
from controller.live import Table
from controller.profiles.tiles import load_tile_profile
from controller.round import Phase, TileRound, Who
from controller.table import TableDevices, open_table
from controller.table.camera_config import read_camera_config
from controller.table.felt_camera import FeltCamera, box_names
from controller.table.live import LiveLoop
from firmware_interfaces.gpio import DEFAULT_DEBOUNCE, PanelButton
from firmware_interfaces.gpio.mock import MockLines
from firmware_interfaces.gpio.tower_light import LOCKED
from vision.table_video.state import Chips, Content, Dice, Hand, Packet, TableState

from .conftest import TIMING
from .test_felt_camera import SHARP, calibrate, render_table

DEALER = Who.dealer("ann")
SUPERVISOR = Who.supervisor("sue")
HOUSE = 1
FELT = {HOUSE: "3-4 1-4 / 6-6 1-3", 2: "4-4 3-3 / 4-6 2-3", 5: "1-5 2-4 / 4-6 3-6"}
"""The settings lying face up on the felt, by position (the dealer's off the house way, which
sets ``1-3 1-4 / 6-6 3-4``)."""
SEATS = (2, 5)
WAGER = 2500


def felt_state(face_down: tuple[int, ...] = ()) -> TableState:
    """The showdown as the camera sees it: the hands of ``FELT`` (those of ``face_down`` still
    as a face-down stack), chips on the seats' circles, the dice."""
    held: dict[str, Content] = {"dice": Dice((3, 5, 6))}
    for position, setting in FELT.items():
        low, high = box_names(position)
        if position in face_down:
            held[high] = Packet(4)
        else:
            held[low], held[high] = (Hand(tuple(h.split())) for h in setting.split(" / "))
        if position != HOUSE:
            held[f"seat{position}.bet"] = Chips(3)
    return TableState.of("tiles", held)


@pytest.fixture(scope="module")
def felt(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The table file whose camera is the rendered showdown, calibrated by the command."""
    table = render_table(tmp_path_factory.mktemp("felt"), felt_state(), 0, SHARP,
                         4 * len(FELT) + 1)
    done = calibrate(table)
    assert done.returncode == 0, done.stderr
    return table


class LiveFelt:
    """A live tiles table with the felt camera: the loop on its own thread, the dealer's hand
    on the panel's pins, the display's keying as ``table.act``."""

    def __init__(self, devices: TableDevices, journal: Journal) -> None:
        self.devices = devices
        engine = TileRound(journal, load_tile_profile(), devices.dice, devices.camera)
        engine.hold_deviations = True  # as paigow run has it
        self.table = Table(engine)
        self.lines: list[str] = []
        self.loop = LiveLoop(self.table, devices, on_duty={Role.DEALER: DEALER}.get,
                             out=self.lines.append, poll=0.02)
        self.thread = threading.Thread(target=self.loop.run, daemon=True)
        self.lines_out = MockLines(devices.pin_factory, devices.hardware.pins)
        self._last = -1.0

    def press(self, button: PanelButton) -> None:
        """Press and release a button on the mock pins, as the dealer's hand would."""
        quiet = self._last + DEFAULT_DEBOUNCE * 1.2  # a press counts after a quiet line
        if time.monotonic() < quiet:
            time.sleep(quiet - time.monotonic())
        self.lines_out.click(f"panel.{button.value}")
        self._last = time.monotonic()

    def until(self, what: Callable[[], bool], timeout: float = 30.0) -> None:
        end = time.monotonic() + timeout
        while not what():
            assert time.monotonic() < end, f"timed out; loop said {self.lines}"
            time.sleep(0.02)

    def state(self) -> Any:
        with self.table.lock:
            return self.table.engine.round

    def phase(self) -> Phase | None:
        state = self.state()
        return None if state is None or state.closed else state.phase

    def journaled_after(self, seq: int) -> bool:
        return self.table.journal.head()[0] > seq

    def to_woodpile(self, seats: tuple[int, ...] = SEATS) -> None:
        """Open a round, key a bet on each of ``seats``, close the bets, build the woodpile."""
        self.press(PanelButton.NEW_ROUND)
        self.until(lambda: self.phase() is Phase.BETTING)
        for seat in seats:  # keyed at the display
            self.table.act("take_bet", DEALER, seat, WAGER)
        self.press(PanelButton.CONFIRM)  # no more bets
        self.until(lambda: self.phase() is Phase.CLOSED)
        self.table.act("build_woodpile", DEALER)

    def to_setting(self, seats: tuple[int, ...] = SEATS) -> None:
        """``to_woodpile``, then shake until the dice give a game: the players set."""
        self.to_woodpile(seats)
        for _ in range(3):  # a no-game shake is shaken again
            shaken = self.table.journal.head()[0]
            self.press(PanelButton.SHAKE)
            self.until(functools.partial(self.journaled_after, shaken))
            if self.phase() is Phase.SETTING:
                break
        assert self.phase() is Phase.SETTING, self.lines

    def to_exposed(self, keyed: dict[int, str]) -> None:
        """Play the round up to the dealer's hand turned up, the seats set as ``keyed``."""
        self.to_setting()
        for seat in SEATS:
            self.table.act("set_hand", DEALER, seat, keyed[seat])
        # The dealer turns the hand up and confirms: the camera reads it for the exposure.
        self.press(PanelButton.CONFIRM)
        self.until(lambda: self.phase() is not Phase.SETTING)
        # Off the house way, the hand waits for the supervisor (the light says so): let stand.
        held = [f for f, d in self.state().faults.items()
                if d["code"] == "dealer_off_house_way"]
        if held:
            self.until(lambda: self.devices.panel.light.pattern == LOCKED)
            self.table.act("clear_fault", SUPERVISOR, held[0], "the hand stands as set")


@pytest.fixture(scope="module")
def unturned(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A table file whose felt shows seat 5's tiles still face down."""
    table = render_table(tmp_path_factory.mktemp("unturned"), felt_state(face_down=(5,)), 0,
                         SHARP, 4 * len(FELT) + 1)
    done = calibrate(table)
    assert done.returncode == 0, done.stderr
    return table


def open_live(felt: Path, tmp_path: Path) -> Iterator[tuple[LiveFelt, Path]]:
    journal = open_journal(tmp_path / "live.sqlite")
    frames_dir = tmp_path / "live-frames"
    config = read_camera_config(felt)
    devices = open_table(felt, "tiles", seed=4, timing=TIMING,
                         camera=lambda: FeltCamera(config, "tiles", frames_dir))
    table = LiveFelt(devices, journal)
    table.thread.start()
    yield table, frames_dir
    table.loop.stop()
    table.thread.join(timeout=10)
    devices.close()
    journal.close()


@pytest.fixture
def live(felt: Path, tmp_path: Path) -> Iterator[tuple[LiveFelt, Path]]:
    """The live table on the simulators and the felt's camera, and its kept frames' folder."""
    yield from open_live(felt, tmp_path)


@pytest.fixture
def live_unturned(unturned: Path, tmp_path: Path) -> Iterator[tuple[LiveFelt, Path]]:
    """The live table whose felt shows seat 5's hand face down."""
    yield from open_live(unturned, tmp_path)


def records(table: LiveFelt, kind: str) -> list[dict[str, Any]]:
    return [r.payload() for r in table.table.journal.records() if r.kind == kind]


def mismatches(table: LiveFelt) -> list[dict[str, Any]]:
    return [f for f in records(table, "fault_raised") if f["code"] == "camera_mismatch"]


def test_the_camera_reads_every_playing_position_from_the_kept_frame(
        live: tuple[LiveFelt, Path]) -> None:
    table, frames_dir = live
    table.to_exposed(FELT)
    # The dealer's hand lies off the house way: it was held for the supervisor (to_exposed
    # let it stand) before anything was read or settled.
    [held] = [r for r in records(table, "fault_raised") if r["code"] == "dealer_off_house_way"]
    assert "1-3 1-4 / 6-6 3-4" in held["text"]
    assert [r["fault"] for r in records(table, "fault_cleared")] == [held["fault"]]
    playing = (HOUSE, *SEATS)
    table.until(lambda: set(table.state().camera) == set(playing))
    table.press(PanelButton.CONFIRM)  # pay and take
    table.until(lambda: table.loop.summary.settled == 1)
    reads = {r["position"]: r for r in records(table, "camera_read")}
    assert sorted(reads) == sorted(playing)
    for position in playing:
        read = reads[position]
        assert read["setting"] == FELT[position], read
        kept = frames_dir / read["frame"]["file"]
        assert kept.is_file(), read
        assert hashlib.sha256(kept.read_bytes()).hexdigest() == read["frame"]["sha256"]
    # one frame kept per read: the dealer's hand for its exposure, then each position
    assert len(list(frames_dir.glob("*.jpg"))) == len(playing) + 1
    assert mismatches(table) == []
    # The dealer's hand lies off the house way: the settlement is flagged.
    [deviation] = records(table, "deviation")
    assert deviation["setting"] == FELT[HOUSE]
    assert deviation["house_way"] == "1-3 1-4 / 6-6 3-4"


def test_a_setting_keyed_otherwise_than_the_felt_waits_for_the_supervisor(
        live: tuple[LiveFelt, Path]) -> None:
    table, _ = live
    keyed = {**FELT, 2: "3-3 2-3 / 4-4 4-6"}  # seat 2's tiles, paired otherwise
    table.to_exposed(keyed)
    table.until(lambda: bool(mismatches(table)))
    [fault] = mismatches(table)
    assert fault["position"] == 2 and "position 2" in fault["text"]
    assert repr(FELT[2]) in fault["text"] and repr(keyed[2]) in fault["text"]
    assert table.state().camera[2] == FELT[2]
    table.until(lambda: table.devices.panel is not None
                and table.devices.panel.light.pattern == LOCKED)
    assert not table.table.engine.can_settle(DEALER)
    table.press(PanelButton.CONFIRM)
    table.until(lambda: bool(table.loop.summary.refused))
    refused = table.loop.summary.refused[0]
    assert refused.startswith("settle: ") and "is active: position 2: the camera reads" in refused
    assert 5 not in table.state().camera  # the loop reads nothing more while it stands
    # The supervisor corrects seat 2 to what the felt shows: the fault clears, the read goes on.
    ref = table.state().settings[2].seq
    table.table.act("correct", SUPERVISOR, ref, setting=FELT[2],
                    reason="the felt shows the tiles paired so")
    assert not table.state().faults
    table.until(lambda: 5 in table.state().camera)
    table.press(PanelButton.CONFIRM)
    table.until(lambda: table.loop.summary.settled == 1)
    assert len(mismatches(table)) == 1
    cleared = {r["fault"] for r in records(table, "fault_cleared")}
    assert {f["fault"] for f in mismatches(table)} <= cleared  # cleared by the correction


def test_a_seat_the_camera_cannot_read_is_never_guessed(
        live_unturned: tuple[LiveFelt, Path]) -> None:
    table, _ = live_unturned
    table.to_exposed(FELT)
    table.until(lambda: set(table.state().camera) == {HOUSE, *SEATS})
    reads = {r["position"]: r for r in records(table, "camera_read")}
    assert reads[5]["setting"] is None  # face down: unknown, not a guess
    assert reads[2]["setting"] == FELT[2]
    assert mismatches(table) == []  # nothing seen disputes the setting the dealer keyed
    table.press(PanelButton.CONFIRM)
    table.until(lambda: table.loop.summary.settled == 1)
    [settle] = records(table, "settle")
    seat5 = next(s for s in settle["seats"] if s["bet"]["position"] == 5)
    low, high = FELT[5].split(" / ")
    assert seat5["comparison"]["setting"] == {"low": low.split(), "high": high.split()}
