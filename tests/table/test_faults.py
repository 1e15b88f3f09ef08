"""Device faults through the engine: a killed simulator, no-game dice, short decks, unread hands."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from controller.journal import Journal, Role, StepClock, open_journal
from controller.profiles.poker import load_profile
from controller.round import DeviceLostError, FaultActiveError, Phase, PokerRound, Who
from controller.rules.tiles.setting import TileSetting
from controller.simulation.camera import CameraLook
from controller.table import TableDevices
from controller.table.device_calls import silence_for

from .conftest import TIMING, OpenTable

DEALER = Who.dealer()
SYSTEM = Who.system()
SUPERVISOR = Who.supervisor()


def _engine(tmp_path: Path, devices: TableDevices) -> tuple[Journal, PokerRound]:
    journal = open_journal(tmp_path / "journal.db", clock=StepClock())
    assert devices.shuffler is not None
    engine = PokerRound(journal, load_profile("classic"), devices.shuffler, devices.dice,
                        devices.camera)
    engine.open_round(DEALER)
    engine.take_bet(DEALER, 2, 2500)
    engine.close_bets(DEALER)
    return journal, engine


def _fault_codes(journal: Journal) -> list[str]:
    return [str(f.payload()["code"]) for f in journal.active_faults()]


def test_a_simulator_killed_mid_deal_pauses_the_round_with_a_journaled_fault(
        tmp_path: Path, table: OpenTable) -> None:
    devices = table("poker", seed=3)
    journal, engine = _engine(tmp_path, devices)
    engine.shuffle(SYSTEM)
    engine.deal_packet(SYSTEM)
    engine.deal_packet(SYSTEM)
    devices.sims["shuffler"].kill()
    assert not devices.sims["shuffler"].running
    with pytest.raises(DeviceLostError, match="shuffler-1"):
        engine.deal_packet(SYSTEM)
    assert _fault_codes(journal) == ["device_lost"]
    fault = journal.active_faults()[0]
    assert fault.role is Role.DEVICE and fault.actor == "shuffler-1"
    assert fault.payload()["act"] == "deal_packet"
    assert engine.phase is Phase.DEALING
    state = engine.round
    assert state is not None and len(state.packets) == 2
    assert not engine.can_deal_packet(SYSTEM)
    with pytest.raises(FaultActiveError, match="device_lost"):
        engine.verify_deal_packet(SYSTEM)
    engine.void(SUPERVISOR, "shuffler lost power")
    assert journal.active_faults() == [] and journal.open_rounds() == []


def test_a_silent_shaker_faults_then_answers_again_once_cleared(tmp_path: Path,
                                                               table: OpenTable) -> None:
    devices = table("poker", seed=4)
    journal, engine = _engine(tmp_path, devices)
    engine.shuffle(SYSTEM)
    for _ in range(7):
        engine.deal_packet(SYSTEM)
    devices.dice.inject("lost")
    started = time.monotonic()
    with pytest.raises(DeviceLostError, match="shaker-1 stopped answering"):
        engine.roll(SYSTEM)
    assert _fault_codes(journal) == ["device_lost"]
    fault = journal.active_faults()[0].payload()["fault"]
    # The injected silence outlasts the driver's retries, then the shaker answers again.
    time.sleep(max(0.0, silence_for(TIMING) - (time.monotonic() - started)))
    engine.clear_fault(SUPERVISOR, str(fault), "shaker answers again")
    record = engine.roll(SYSTEM)
    assert record.kind in ("roll", "dice_no_game")


@pytest.mark.parametrize(("fault", "reason"), [("cocked", "cocked die"),
                                               ("weak", "weak shake (quality "),
                                               ("unchanged", "dice unchanged since")])
def test_a_shake_that_is_no_game_is_journaled_and_shaken_again(
        tmp_path: Path, table: OpenTable, fault: str, reason: str) -> None:
    devices = table("poker", seed=6)
    journal, engine = _engine(tmp_path, devices)
    engine.shuffle(SYSTEM)
    for _ in range(7):
        engine.deal_packet(SYSTEM)
    if fault == "unchanged":
        devices.dice.roll()  # the dice must have lain still since a shake
    devices.dice.control(**{fault: 1})
    record = engine.roll(SYSTEM)
    assert record.kind == "dice_no_game" and record.actor == "shaker-1"
    assert str(record.payload()["reason"]).startswith(reason)
    assert engine.phase is Phase.DEALT and journal.active_faults() == []
    assert engine.roll(SYSTEM).kind == "roll"
    assert engine.round is not None and engine.round.phase is Phase.SETTING


def test_no_game_at_start_up_and_by_injection(table: OpenTable) -> None:
    devices = table("tiles", seed=8, sim_faults={"shaker": {"cocked": 2}})
    assert [devices.dice.roll().no_game for _ in range(3)] == ["cocked die", "cocked die", None]
    devices.dice.inject("no_game")
    assert devices.dice.roll().no_game == "cocked die"
    assert devices.dice.roll().faces is not None


def test_a_short_deck_from_the_simulator_pauses_until_the_supervisor_clears(
        tmp_path: Path, table: OpenTable) -> None:
    devices = table("poker", seed=9, sim_faults={"shuffler": {"cards": 52}})
    journal, engine = _engine(tmp_path, devices)
    record = engine.shuffle(SYSTEM)
    assert record.payload()["count"] == 52
    assert _fault_codes(journal) == ["card_count"]
    assert not engine.can_deal_packet(SYSTEM)
    assert devices.shuffler is not None and devices.shuffler.last_shuffle is not None
    assert devices.shuffler.last_shuffle.deck == "missing"
    fault = journal.active_faults()[0].payload()["fault"]
    devices.shuffler.control(cards=53)  # the dealer finds the card and puts it back
    engine.clear_fault(SUPERVISOR, str(fault), "missing card found")
    assert engine.shuffle(SYSTEM).payload()["count"] == 53
    assert engine.phase is Phase.SHUFFLED and journal.active_faults() == []


@pytest.mark.parametrize("fault", ["short_count", "duplicate"])
def test_an_injected_bad_deck_counts_short_once(table: OpenTable, fault: str) -> None:
    devices = table("poker", seed=10)
    shuffler = devices.shuffler
    assert shuffler is not None
    shuffler.inject(fault)
    assert shuffler.shuffle() == 52
    assert shuffler.last_shuffle is not None
    assert shuffler.last_shuffle.deck == ("missing" if fault == "short_count" else "duplicate")
    assert shuffler.shuffle() == 53 and shuffler.last_shuffle.ok


def test_an_unreadable_layout_reads_none_and_the_entered_setting_stands(
        tmp_path: Path, table: OpenTable) -> None:
    # Cards a third of their usual size: the reader finds marks but names no card.
    devices = table("poker", seed=12, camera_look=CameraLook(card_width=(34.0, 34.0)))
    journal, engine = _engine(tmp_path, devices)
    engine.shuffle(SYSTEM)
    for _ in range(7):
        engine.deal_packet(SYSTEM)
    while engine.roll(SYSTEM).kind != "roll":
        pass
    state = engine.round
    assert state is not None
    for position in state.playing():
        if position != 1:
            engine.set_hand(DEALER, position)
    engine.expose_dealer(DEALER)
    for position in state.playing():
        devices.camera.place(position, str(engine.entered(position)))
        record = engine.read_camera(SYSTEM, position)
        assert record.payload()["setting"] is None and record.payload()["raw"] is None
    assert all(r.placed is not None and r.read is None for r in devices.camera.history)
    assert journal.active_faults() == []
    engine.settle(DEALER)
    assert engine.phase is Phase.SETTLED


def test_a_position_with_nothing_on_the_felt_reads_none(table: OpenTable) -> None:
    devices = table("tiles", seed=13)
    assert devices.camera.read(4) is None
    devices.camera.place(4, "3-3 1-2 / 6-6 4-5")
    seen = devices.camera.read(4)
    assert seen is not None
    assert TileSetting.parse(seen) == TileSetting.parse("3-3 1-2 / 6-6 4-5")
    devices.camera.clear()
    assert devices.camera.read(4) is None
