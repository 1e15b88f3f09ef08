"""The camera reads the dice area after each roll (``read_dice``), beside the shaker's answer:
the same dice (in any order) are noted, other dice are a critical ``dice_mismatch`` fault for the
supervisor, dice it cannot tell are noted and the shaker's stand; a lost camera is a device
fault; a journal replay makes the reads again."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.journal import Role, open_journal
from controller.replay.journal import replay_journal
from controller.round import FakeCamera, IllegalActError, Phase, PokerRound
from controller.round.errors import DeviceLostError

from .helpers import DEALER, SUPERVISOR, SYSTEM, journal_at, poker, poker_to_dealt


def rolled(engine: PokerRound) -> list[int]:
    poker_to_dealt(engine)
    engine.roll(SYSTEM)
    assert engine.round is not None and engine.round.dice is not None
    assert engine.round.phase is Phase.SETTING and not engine.round.dice_seen
    return list(engine.round.dice.faces)


def camera(engine: PokerRound) -> FakeCamera:
    assert isinstance(engine.camera, FakeCamera)
    return engine.camera


def test_the_shaker_s_dice_seen_in_any_order_are_noted(tmp_path: Path) -> None:
    engine = poker(journal_at(tmp_path / "t.db"))
    dice = rolled(engine)
    camera(engine).see_dice(tuple(reversed(dice)))
    record = engine.read_dice(SYSTEM)
    assert (record.kind, record.actor, record.role) == ("camera_dice", "camera-1", Role.CAMERA)
    assert record.payload()["dice"] == list(reversed(dice))
    assert record.payload()["roll"] == dice
    assert engine.round is not None and engine.round.dice_seen
    assert not engine.round.critical_faults
    with pytest.raises(IllegalActError, match="read already"):
        engine.read_dice(SYSTEM)  # once a roll


def test_other_dice_are_a_fault_for_the_supervisor(tmp_path: Path) -> None:
    engine = poker(journal_at(tmp_path / "t.db"))
    dice = rolled(engine)
    other = tuple(d % 6 + 1 for d in dice)
    camera(engine).see_dice(other)
    engine.read_dice(SYSTEM)
    assert engine.round is not None
    [fault] = [engine.round.faults[f] for f in engine.round.critical_faults]
    assert fault["code"] == "dice_mismatch" and str(list(other)) in fault["text"]
    with pytest.raises(IllegalActError, match="is active"):
        engine.set_hand(DEALER, engine.round.playing()[1])
    engine.clear_fault(SUPERVISOR, fault["fault"], "the dice were checked: the shaker's")
    assert not engine.round.critical_faults


def test_dice_it_cannot_tell_are_noted_and_the_shaker_s_stand(tmp_path: Path) -> None:
    engine = poker(journal_at(tmp_path / "t.db"))
    rolled(engine)
    record = engine.read_dice(SYSTEM)  # told nothing: it cannot tell
    assert record.payload()["dice"] is None
    assert engine.round is not None and not engine.round.faults


def test_a_camera_lost_reading_the_dice_is_a_device_fault(tmp_path: Path) -> None:
    engine = poker(journal_at(tmp_path / "t.db"))
    rolled(engine)
    camera(engine).inject("lost")
    with pytest.raises(DeviceLostError):
        engine.read_dice(SYSTEM)
    assert engine.round is not None
    [fault] = [engine.round.faults[f] for f in engine.round.critical_faults]
    assert (fault["code"], fault["act"]) == ("device_lost", "read_dice")


def test_without_a_camera_or_before_the_roll_there_is_nothing_to_read(tmp_path: Path) -> None:
    journal = journal_at(tmp_path / "t.db")
    engine = poker(journal, camera=False)
    rolled(engine)
    with pytest.raises(IllegalActError, match="no camera"):
        engine.read_dice(SYSTEM)
    other = poker(journal_at(tmp_path / "u.db"))
    poker_to_dealt(other)
    with pytest.raises(IllegalActError):
        other.read_dice(SYSTEM)  # not rolled yet


def test_a_journal_replay_reads_the_dice_again(tmp_path: Path) -> None:
    path = tmp_path / "t.db"
    journal = journal_at(path)
    engine = poker(journal)
    dice = rolled(engine)
    camera(engine).see_dice(tuple(dice))
    engine.read_dice(SYSTEM)
    engine.void(SUPERVISOR, "end of the test round")
    rolled(engine)
    camera(engine).see_dice(tuple(d % 6 + 1 for d in engine.round.dice.faces)
                            if engine.round and engine.round.dice else None)
    engine.read_dice(SYSTEM)
    engine.void(SUPERVISOR, "the dice were disputed")
    journal.close()
    with open_journal(path) as kept:
        report = replay_journal(kept)
    assert report.ok, [r.difference for r in report.rounds]
    assert [r.ended for r in report.rounds] == ["round_voided", "round_voided"]
