"""The camera sets the hands it reads: at a table with a camera the dealer exposes with players'
hands still face down in their boxes, and each ``read_camera`` of an unset position sets it
(a ``set`` record the camera wrote) when the reading holds that position's own pieces.  A
position the camera cannot read, or reads as other pieces, stays unset until the dealer keys
it; nothing settles before.  Both games, on the fakes; then the journal replay, recovery, the
audit and the display's offers of such a round."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest

from controller.audit import Scope, audit_journal
from controller.commands import replay as replay_command
from controller.display.offers import seat_acts
from controller.display.views import table_view
from controller.journal import Journal, Role, open_journal
from controller.live.visibility import Sight
from controller.replay.journal import replay_journal
from controller.round import FakeCamera, IllegalActError, Phase, PokerRound, TileRound
from controller.round.recovery import recover

from .helpers import (
    DEALER,
    SUPERVISOR,
    SYSTEM,
    TILE_HANDS,
    journal_at,
    poker,
    poker_to_dealt,
    tiles,
    tiles_to_setting,
)

HOUSE = 1


def _camera(engine: PokerRound | TileRound) -> FakeCamera:
    assert isinstance(engine.camera, FakeCamera)
    return engine.camera


def _seats(engine: PokerRound | TileRound) -> list[int]:
    assert engine.round is not None
    return [p for p in engine.round.playing() if p != HOUSE]


def _house_way(engine: PokerRound | TileRound, pieces: Any) -> str:
    """The house way's setting of ``pieces`` as text: a setting a player could lay down."""
    return str(engine.game.house_way(tuple(pieces))[0])


def _poker_exposed_unset(engine: PokerRound, bets: dict[int, int] | None = None) -> list[int]:
    """Deal, roll and expose the dealer's hand with no player set; the seats playing."""
    poker_to_dealt(engine, bets)
    engine.roll(SYSTEM)
    engine.expose_dealer(DEALER)
    return _seats(engine)


def _poker_truth(engine: PokerRound, position: int) -> str:
    hand = engine.known_hand(position)
    assert hand is not None
    return _house_way(engine, hand)


def _tile_exposed_unset(engine: TileRound) -> dict[int, str]:
    """Bet, build, roll and expose the dealer's hand (the last of ``TILE_HANDS``) with no
    player set; each seat's setting as it lies on the felt (the house way of the others)."""
    tiles_to_setting(engine)
    engine.expose_dealer(DEALER, hand=TILE_HANDS[3])
    return {p: _house_way(engine, engine.game.hand(h.split()))
            for p, h in zip(_seats(engine), TILE_HANDS, strict=False)}


def _kinds_after(journal: Journal, seq: int) -> list[tuple[str, str, Role]]:
    return [(r.kind, r.actor, r.role) for r in journal.records(after=seq)]


def _set_record(journal: Journal, round_id: str, position: int) -> Any:
    [record] = [r for r in journal.round(round_id)
                if r.kind == "set" and r.payload()["position"] == position]
    return record


# --- poker ------------------------------------------------------------------------------------

def test_poker_camera_sets_the_hands_turned_up_after_the_exposure(tmp_path: Path) -> None:
    journal = journal_at(tmp_path / "t.db")
    engine = poker(journal)
    seats = _poker_exposed_unset(engine)
    assert engine.phase is Phase.EXPOSED and engine.round is not None
    assert engine.round.settings == {}
    camera = _camera(engine)
    truth = {p: _poker_truth(engine, p) for p in seats}
    camera.see(HOUSE, str(engine.entered(HOUSE)))
    engine.read_camera(SYSTEM, HOUSE)
    for position in seats:
        camera.see(position, truth[position])
        head = journal.head()[0]
        read = engine.read_camera(SYSTEM, position)
        assert read.kind == "camera_read" and read.payload()["setting"] == truth[position]
        # the camera_read, then the set the camera wrote; no fault
        assert _kinds_after(journal, head) == [("camera_read", "camera-1", Role.CAMERA),
                                               ("set", "camera-1", Role.CAMERA)]
        data = _set_record(journal, engine.round.round_id, position).payload()
        assert data["source"] == "camera" and data["by"] == "player"
        assert str(engine.entered(position)) == truth[position]
    assert not engine.round.faults
    settled = engine.settle(DEALER).payload()
    compared = {s["bet"]["position"]: s["comparison"]["setting"] for s in settled["seats"]
                if s["bet"]["position"] != HOUSE}
    for position in seats:
        low, high = truth[position].split(" / ")
        assert compared[position] == {"low": low.split(), "high": high.split()}


def test_poker_unreadable_seat_waits_for_the_dealer_to_key_it(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    journal = journal_at(tmp_path / "t.db")
    engine = poker(journal)
    seats = _poker_exposed_unset(engine)
    face_down, *others = seats
    camera = _camera(engine)
    camera.see(HOUSE, str(engine.entered(HOUSE)))
    for position in others:
        camera.see(position, _poker_truth(engine, position))
    assert engine.round is not None
    for position in engine.round.playing():  # face_down: nothing seen (None)
        engine.read_camera(SYSTEM, position)
    assert engine.round.camera[face_down] is None
    assert face_down not in engine.round.settings
    assert set(engine.round.settings) == set(others)
    # the dealer is offered to key it; not the seats the camera set
    assert "set_hand" in seat_acts(engine, face_down, Sight.DEALER)
    assert "play_house_way" in seat_acts(engine, face_down, Sight.DEALER)
    assert "set_hand" not in seat_acts(engine, others[0], Sight.DEALER)
    view = table_view(engine, [], Sight.DEALER)
    assert any(a["kind"] == "unknown_read" and a["text"].endswith("the dealer keys it")
               for a in view["alerts"])
    public = {s["position"]: s for s in table_view(engine, [], Sight.PUBLIC)["seats"]}
    assert public[face_down]["face_down"] and public[face_down]["hand"] == []
    assert not public[others[0]]["face_down"] and public[others[0]]["hand"]
    assert not engine.can_settle(DEALER)
    with pytest.raises(IllegalActError, match=rf"positions \[{face_down}\] are not set.*"
                                              r"the dealer keys them"):
        engine.settle(DEALER)
    with pytest.raises(IllegalActError, match=f"position {others[0]} is already set"):
        engine.set_hand(DEALER, others[0])  # a set position is corrected, not set again
    keyed = _poker_truth(engine, face_down)
    record = engine.set_hand(DEALER, face_down, keyed)
    assert (record.kind, record.actor, record.role) == ("set", DEALER.actor, Role.DEALER)
    assert "source" not in record.payload()
    assert not engine.round.faults  # the reading was None: nothing disputes the keyed setting
    assert "set_hand" not in seat_acts(engine, face_down, Sight.DEALER)
    assert engine.settle(DEALER).kind == "settle"


def test_poker_dealer_keys_an_unread_seat_by_the_house_way(tmp_path: Path) -> None:
    engine = poker(journal_at(tmp_path / "t.db"))
    seats = _poker_exposed_unset(engine, {3: 2500})
    assert engine.round is not None
    for position in engine.round.playing():
        engine.read_camera(SYSTEM, position)  # the camera sees nothing anywhere
    record = engine.play_house_way(DEALER, seats[0])
    assert record.payload()["by"] == "house_way"
    assert engine.can_settle(DEALER)


def test_poker_reading_other_than_the_dealt_hand_is_not_set(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    journal = journal_at(tmp_path / "t.db")
    engine = poker(journal)
    seats = _poker_exposed_unset(engine)
    first, second = seats[:2]
    wrong = _poker_truth(engine, second)  # the next seat's cards read at the first
    _camera(engine).see(first, wrong)
    head = journal.head()[0]
    with caplog.at_level(logging.WARNING, logger="controller.round.showdown"):
        read = engine.read_camera(SYSTEM, first)
    assert read.payload()["setting"] is None and read.payload()["raw"] == wrong
    assert [k for k, _, _ in _kinds_after(journal, head)] == ["camera_read"]
    assert engine.round is not None and first not in engine.round.settings
    assert not engine.round.faults
    assert any("not the hand dealt to position" in m and repr(wrong) in m
               for m in caplog.messages), caplog.messages


def test_without_a_camera_the_exposure_still_waits_for_every_setting(tmp_path: Path) -> None:
    engine = poker(journal_at(tmp_path / "t.db"), camera=False)
    poker_to_dealt(engine)
    engine.roll(SYSTEM)
    seats = _seats(engine)
    assert not engine.can_expose_dealer(DEALER)
    with pytest.raises(IllegalActError, match=rf"positions \[{', '.join(map(str, seats))}\] "
                                              r"have not set"):
        engine.expose_dealer(DEALER)
    for position in seats:
        engine.set_hand(DEALER, position)
    engine.expose_dealer(DEALER)
    assert engine.settle(DEALER).kind == "settle"


def test_a_keyed_seat_read_otherwise_is_still_a_camera_mismatch(tmp_path: Path) -> None:
    engine = poker(journal_at(tmp_path / "t.db"))
    poker_to_dealt(engine)
    engine.roll(SYSTEM)
    seats = _seats(engine)
    hand = engine.known_hand(seats[0])
    assert hand is not None
    keyed = _poker_truth(engine, seats[0])
    other = next(f"{a} {b} / {' '.join(c for c in hand if c not in (a, b))}"
                 for a in hand for b in hand if a < b
                 and str(engine.game.parse(f"{a} {b} / "
                                           f"{' '.join(c for c in hand if c not in (a, b))}"))
                 != keyed)
    engine.set_hand(DEALER, seats[0], keyed)
    engine.expose_dealer(DEALER)  # the other seats still face down
    _camera(engine).see(seats[0], other)
    engine.read_camera(SYSTEM, seats[0])
    assert engine.round is not None
    [fault] = engine.round.faults.values()
    assert fault["code"] == "camera_mismatch" and fault["position"] == seats[0]
    assert str(engine.entered(seats[0])) == keyed  # the camera does not overwrite a setting


# --- tiles ------------------------------------------------------------------------------------

def test_tile_camera_sets_the_hands_and_settles(tmp_path: Path) -> None:
    journal = journal_at(tmp_path / "t.db")
    engine = tiles(journal, camera=True)
    felt = _tile_exposed_unset(engine)
    camera = _camera(engine)
    camera.see(HOUSE, str(engine.entered(HOUSE)))
    for position, setting in felt.items():
        camera.see(position, setting)
    assert engine.round is not None
    for position in engine.round.playing():
        engine.read_camera(SYSTEM, position)
    for position, setting in felt.items():
        record = _set_record(journal, engine.round.round_id, position)
        assert (record.actor, record.role) == ("camera-1", Role.CAMERA)
        assert record.payload()["source"] == "camera"
        assert str(engine.entered(position)) == setting
    assert engine.settle(DEALER).payload()["game"] == "tiles"


def test_tile_unreadable_seat_and_tiles_beyond_one_set(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    journal = journal_at(tmp_path / "t.db")
    engine = tiles(journal, camera=True)
    felt = _tile_exposed_unset(engine)
    first, second, third = felt
    camera = _camera(engine)
    camera.see(first, felt[first])
    engine.read_camera(SYSTEM, first)
    # the second seat read as the first seat's tiles again: more than one set holds
    camera.see(second, felt[first])
    with caplog.at_level(logging.WARNING, logger="controller.round.showdown"):
        engine.read_camera(SYSTEM, second)
    assert engine.round is not None and engine.round.camera[second] is None
    assert second not in engine.round.settings
    assert any(f"position {second} is not taken" in m for m in caplog.messages)
    engine.read_camera(SYSTEM, third)  # face down: None
    engine.read_camera(SYSTEM, HOUSE)
    assert not engine.round.faults
    with pytest.raises(IllegalActError, match=rf"positions \[{second}, {third}\] are not set"):
        engine.settle(DEALER)
    engine.set_hand(DEALER, second, felt[second])
    engine.play_house_way(DEALER, third, hand=TILE_HANDS[2])
    assert engine.settle(DEALER).kind == "settle"


def test_tile_exposure_without_a_camera_waits_for_every_setting(tmp_path: Path) -> None:
    engine = tiles(journal_at(tmp_path / "t.db"))
    tiles_to_setting(engine)
    with pytest.raises(IllegalActError, match="have not set"):
        engine.expose_dealer(DEALER, hand=TILE_HANDS[3])


# --- replay, recovery, audit --------------------------------------------------------------------

def _record_camera_rounds(path: Path) -> None:
    """A poker round and a tile round whose camera set some hands and the dealer keyed the
    rest while exposed, and a poker round voided right after its exposure."""
    journal = journal_at(path)
    engine = poker(journal, seed=3)
    seats = _poker_exposed_unset(engine)
    camera = _camera(engine)
    camera.see(HOUSE, str(engine.entered(HOUSE)))
    for position in seats[1:]:
        camera.see(position, _poker_truth(engine, position))
    assert engine.round is not None
    for position in engine.round.playing():
        engine.read_camera(SYSTEM, position)
    engine.set_hand(DEALER, seats[0])
    engine.settle(DEALER)
    _poker_exposed_unset(engine, {5: 2500})
    engine.void(SUPERVISOR, "the dealer turned the hands over too soon")
    tile = tiles(journal, camera=True)
    felt = _tile_exposed_unset(tile)
    for position, setting in list(felt.items())[:2]:
        _camera(tile).see(position, setting)
    assert tile.round is not None
    for position in tile.round.playing():
        tile.read_camera(SYSTEM, position)
    last = list(felt)[2]
    tile.set_hand(DEALER, last, felt[last])
    tile.settle(DEALER)
    journal.close()


def test_journal_replay_reproduces_rounds_the_camera_set(tmp_path: Path) -> None:
    path = tmp_path / "t.db"
    _record_camera_rounds(path)
    journal = open_journal(path)
    sources = [r.payload().get("source") for r in journal.iter_records() if r.kind == "set"]
    assert sources.count("camera") == 4 and sources.count(None) == 2
    report = replay_journal(journal)
    assert [r.ended for r in report.rounds] == ["settle", "round_voided", "settle"]
    assert report.ok, [r.difference for r in report.rounds]
    journal.close()
    assert replay_command.main(["replay", str(path)]) == 0  # paigow replay JOURNAL


def test_audit_reads_rounds_the_camera_set(tmp_path: Path) -> None:
    path = tmp_path / "t.db"
    _record_camera_rounds(path)
    journal = open_journal(path)
    audits = audit_journal(journal, str(path), Scope(), costs=False)
    assert [a.status for a in audits] == ["settled", "voided", "settled"]
    assert all(a.exposed and not a.overrides and not a.corrections for a in audits)


def test_recovery_resumes_a_round_the_camera_half_set(tmp_path: Path) -> None:
    path = tmp_path / "t.db"
    journal = journal_at(path)
    engine = poker(journal, seed=3)
    seats = _poker_exposed_unset(engine)
    truth = {p: _poker_truth(engine, p) for p in seats}
    _camera(engine).see(seats[1], truth[seats[1]])
    engine.read_camera(SYSTEM, seats[0])  # None
    engine.read_camera(SYSTEM, seats[1])  # set by the camera
    round_id = engine.round.round_id if engine.round else ""
    journal.close()
    again = poker(open_journal(path), seed=3)
    done = recover(again)
    assert (done.resumed, done.phase) == (round_id, Phase.EXPOSED)
    assert again.round is not None and set(again.round.settings) == {seats[1]}
    assert str(again.entered(seats[1])) == truth[seats[1]]
    assert again.round.settings[seats[1]].seq == _set_record(again.journal, round_id,
                                                             seats[1]).seq
    assert "set_hand" in seat_acts(again, seats[0], Sight.DEALER)
    again.set_hand(DEALER, seats[0], truth[seats[0]])
    for position in [HOUSE, *seats[2:]]:
        _camera(again).see(position, str(again.entered(position)) if position == HOUSE
                           else truth[position])
        again.read_camera(SYSTEM, position)
    assert again.settle(DEALER).kind == "settle"
