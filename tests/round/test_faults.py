"""Misdeals and faults, role checks, verify/can/do refusals and corrections."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.journal import Role
from controller.round import (
    DeviceLostError,
    FakeCamera,
    FakeDice,
    FakeShuffler,
    FaultActiveError,
    IllegalActError,
    Phase,
    PhaseError,
    RoleError,
    Who,
)

from .helpers import (
    DEALER,
    SUPERVISOR,
    SYSTEM,
    journal_at,
    poker,
    poker_to_dealt,
    poker_to_exposed,
)


def _shuffler(engine: object) -> FakeShuffler:
    shuffler = engine.shuffler  # type: ignore[attr-defined]
    assert isinstance(shuffler, FakeShuffler)
    return shuffler


def test_wrong_card_count_pauses_until_cleared_then_reshuffles(tmp_path: Path) -> None:
    journal = journal_at(tmp_path / "t.db")
    engine = poker(journal)
    engine.open_round(DEALER)
    engine.take_bet(DEALER, 2, 2500)
    engine.close_bets(DEALER)
    _shuffler(engine).inject("short_count")
    engine.shuffle(SYSTEM)
    assert engine.phase is Phase.CLOSED
    with pytest.raises(FaultActiveError, match="counted 52 cards"):
        engine.verify_shuffle(SYSTEM)
    assert len(journal.active_faults()) == 1
    fault = journal.active_faults()[0].payload()["fault"]
    with pytest.raises(RoleError, match="needs supervisor"):
        engine.clear_fault(DEALER, fault)
    engine.clear_fault(SUPERVISOR, fault, "deck replaced")
    engine.shuffle(SYSTEM)
    assert engine.phase is Phase.SHUFFLED and journal.active_faults() == []


def test_duplicate_card_voids_the_round_as_a_misdeal(tmp_path: Path) -> None:
    journal = journal_at(tmp_path / "t.db")
    engine = poker(journal)
    engine.open_round(DEALER)
    engine.take_bet(DEALER, 2, 2500)
    engine.close_bets(DEALER)
    engine.shuffle(SYSTEM)
    engine.deal_packet(SYSTEM)
    _shuffler(engine).inject("duplicate")
    engine.deal_packet(SYSTEM)
    assert engine.phase is Phase.VOIDED
    assert engine.round is not None and "misdeal: packet 2" in (engine.round.void_reason or "")
    assert journal.open_rounds() == []
    assert not engine.can_deal_packet(SYSTEM)


def test_no_game_dice_are_recorded_and_rolled_again(tmp_path: Path) -> None:
    engine = poker(journal_at(tmp_path / "t.db"))
    poker_to_dealt(engine)
    assert isinstance(engine.dice, FakeDice)
    engine.dice.inject("no_game")
    record = engine.roll(SYSTEM)
    assert record.kind == "dice_no_game" and engine.phase is Phase.DEALT
    assert engine.roll(SYSTEM).kind == "roll" and engine.phase is Phase.SETTING


def test_device_lost_mid_round_raises_a_fault_that_survives(tmp_path: Path) -> None:
    journal = journal_at(tmp_path / "t.db")
    engine = poker(journal)
    engine.open_round(DEALER)
    engine.take_bet(DEALER, 2, 2500)
    engine.close_bets(DEALER)
    engine.shuffle(SYSTEM)
    _shuffler(engine).inject("lost")
    with pytest.raises(DeviceLostError):
        engine.deal_packet(SYSTEM)
    faults = journal.active_faults()
    assert [f.payload()["code"] for f in faults] == ["device_lost"]
    assert faults[0].role is Role.DEVICE and faults[0].actor == "shuffler-1"
    assert not engine.can_deal_packet(SYSTEM)
    with pytest.raises(FaultActiveError, match="device_lost"):
        engine.verify_deal_packet(SYSTEM)
    engine.void(SUPERVISOR, "shuffler unplugged")
    assert journal.active_faults() == [] and journal.open_rounds() == []


def test_camera_disagreement_blocks_settling_until_corrected(tmp_path: Path) -> None:
    journal = journal_at(tmp_path / "t.db")
    engine = poker(journal)
    poker_to_exposed(engine, bets={2: 2500})
    assert engine.round is not None and isinstance(engine.camera, FakeCamera)
    position = next(p for p in engine.round.playing() if p != 1)
    entry = engine.round.settings[position]
    hand = engine.known_hand(position)
    assert hand is not None
    other = next(f"{a} {b} / {' '.join(c for c in hand if c not in (a, b))}"
                 for a in hand for b in hand if a < b
                 and engine.game.parse(f"{a} {b} / {' '.join(c for c in hand if c not in (a, b))}")
                 != entry.setting)
    engine.camera.see(position, other)
    engine.camera.see(1, str(engine.entered(1)))
    engine.read_camera(SYSTEM, 1)
    engine.read_camera(SYSTEM, position)
    assert [f.payload()["code"] for f in journal.active_faults()] == ["camera_mismatch"]
    with pytest.raises(FaultActiveError, match="camera reads"):
        engine.verify_settle(DEALER)
    with pytest.raises(IllegalActError, match=r"\(roll\) cannot be corrected"):
        engine.correct(DEALER, entry.seq - 1, setting=other)
    with pytest.raises(RoleError, match="only a supervisor"):  # the hands lie face up
        engine.correct(DEALER, entry.seq, setting=other)
    correction = engine.correct(SUPERVISOR, entry.seq, setting=other,
                                reason="the layout shows the camera's setting")
    assert correction.payload()["ref"] == entry.seq and correction.payload()["exposed"]
    assert journal.active_faults() == []
    assert engine.entered(position) == engine.game.parse(other)
    with pytest.raises(IllegalActError, match="no longer stands"):
        engine.verify_correct(DEALER, entry.seq, setting=str(entry.setting))
    settle = engine.settle(DEALER).payload()
    seat = next(s for s in settle["seats"] if s["bet"]["position"] == position)
    assert engine.game.parse(f"{' '.join(seat['comparison']['setting']['low'])} / "
                             f"{' '.join(seat['comparison']['setting']['high'])}") \
        == engine.game.parse(other)


def test_unknown_camera_reading_leaves_entered_setting(tmp_path: Path) -> None:
    engine = poker(journal_at(tmp_path / "t.db"))
    poker_to_exposed(engine, bets={2: 2500})
    assert engine.round is not None
    for position in engine.round.playing():
        engine.read_camera(SYSTEM, position)  # the fake sees nothing: None
    assert engine.round.faults == {}
    assert engine.settle(DEALER).kind == "settle"


def test_dealer_deviation_is_flagged(tmp_path: Path) -> None:
    journal = journal_at(tmp_path / "t.db")
    engine = poker(journal, camera=False)
    poker_to_dealt(engine, {2: 2500})
    engine.roll(SYSTEM)
    assert engine.round is not None
    for position in engine.round.playing():
        if position != 1:
            engine.set_hand(DEALER, position)
    hand = engine.known_hand(1)
    assert hand is not None
    house, _ = engine.game.house_way(hand)
    stray = next(s for s in (f"{a} {b} / {' '.join(c for c in hand if c not in (a, b))}"
                             for a in hand for b in hand if a < b)
                 if engine.game.parse(s) != house)
    engine.expose_dealer(DEALER, stray)
    engine.settle(DEALER)
    kinds = [r.kind for r in journal.round(engine.round.round_id)]
    assert kinds[-2:] == ["deviation", "settle"]


@pytest.mark.parametrize("who", [Who("cam", Role.CAMERA), Who("shuffler", Role.DEVICE),
                                 Who("table", Role.SYSTEM)])
def test_operator_acts_refused_for_other_roles(tmp_path: Path, who: Who) -> None:
    engine = poker(journal_at(tmp_path / "t.db"))
    with pytest.raises(RoleError, match="needs dealer or supervisor"):
        engine.open_round(who)
    engine.open_round(DEALER)
    for act, args in (("take_bet", (2, 2500)), ("close_bets", ()), ("void", ("x",)),
                      ("correct", (1,)), ("bank", (2, 10000)), ("settle", ())):
        with pytest.raises(RoleError):
            getattr(engine, act)(who, *args)
        assert not getattr(engine, f"can_{act}")(who, *args)
    with pytest.raises(RoleError, match="needs supervisor"):
        engine.void(DEALER, "no")


def test_refusals_name_the_reason(tmp_path: Path) -> None:
    engine = poker(journal_at(tmp_path / "t.db"))
    with pytest.raises(PhaseError, match="no round is open"):
        engine.take_bet(DEALER, 2, 2500)
    engine.open_round(DEALER, "table1-0001")
    with pytest.raises(IllegalActError, match="outside the limits"):
        engine.take_bet(DEALER, 2, 5)
    with pytest.raises(IllegalActError, match=r"position 9 is not one of 2\.\.7"):
        engine.take_bet(DEALER, 9, 2500)
    with pytest.raises(IllegalActError, match="no player has bet"):
        engine.close_bets(DEALER)
    first = engine.take_bet(DEALER, 2, 2500)
    with pytest.raises(IllegalActError, match="already bet"):
        engine.take_bet(DEALER, 2, 2500)
    with pytest.raises(PhaseError, match="'betting', not 'dealt'"):
        engine.roll(SYSTEM)
    fix = engine.correct(DEALER, first.seq, wager=3000)
    assert engine.round is not None and engine.round.bets[2][0].wager == 3000
    with pytest.raises(IllegalActError, match="no longer stands"):
        engine.correct(DEALER, first.seq, wager=4000)
    engine.correct(DEALER, fix.seq, wager=4000)
    assert engine.round.bets[2][0].wager == 4000
    assert engine.can_close_bets(DEALER)
    with pytest.raises(IllegalActError, match="needs a reason"):
        engine.void(SUPERVISOR, " ")
    voided = engine.void(SUPERVISOR, "table closed")
    assert voided.payload()["reason"] == "table closed" and voided.actor == "supervisor-1"


def test_player_bank_settles_against_the_player(tmp_path: Path) -> None:
    engine = poker(journal_at(tmp_path / "t.db"), camera=False)
    engine.open_round(DEALER)
    engine.bank(SUPERVISOR, 3, 100000)
    engine.take_bet(DEALER, 1, 2500)
    engine.take_bet(DEALER, 5, 2500)
    engine.close_bets(DEALER)
    engine.shuffle(SYSTEM)
    for _ in range(7):
        engine.deal_packet(SYSTEM)
    engine.roll(SYSTEM)
    assert engine.round is not None and 3 in engine.round.playing()
    for position in engine.round.playing():
        if position != 1:
            engine.set_hand(DEALER, position)
    engine.expose_dealer(DEALER)
    assert engine.settle(DEALER).payload()["banker"] == 3
