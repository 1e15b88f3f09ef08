"""A felt filmed while it changes (``vision.table_video.world``): the same frames as a timeline
known in advance, changes nobody saw merged into one, a still felt only once the arm has gone."""

from __future__ import annotations

from pathlib import Path

import pytest

from vision.errors import SourceError
from vision.layout import Layout
from vision.still import StillScene
from vision.table_video.camera import TableCamera
from vision.table_video.render import Looks
from vision.table_video.state import Chips, Dice, TableState
from vision.table_video.timeline import Motion, timeline_frames
from vision.table_video.world import FeltWorld

ROOT = Path(__file__).resolve().parents[2]
SMALL = TableCamera(size=(640, 360))
FAST = Motion(fps=10.0, reach=0.3, per_region=0.2, back=0.3, settle=0.5)
EMPTY = TableState("tiles")
DICE = EMPTY.put("dice", Dice((2, 4, 6)))
BETS = DICE.put("seat2.bet", Chips(3)).put("seat5.bet", Chips(4))


def world() -> FeltWorld:
    layout = Layout.load(ROOT / "config" / "layouts" / "paigow-tiles.toml")
    return FeltWorld(layout, Looks(), 7, EMPTY, SMALL, FAST)


def test_the_frames_are_a_timeline_s_frames_for_the_same_steps() -> None:
    felt = world()
    for _ in range(6):
        felt.read()
    felt.show(DICE)
    for _ in range(12):
        felt.read()
    assert [s.t for s in felt.steps] == [0.0, 0.6]
    known = list(timeline_frames(felt.steps, felt.layout, Looks(), 7, SMALL, FAST, tail=1.15))
    assert [f.jpeg for f in known] == [s.jpeg for s in felt.shots]
    arm = [s.arm for s in felt.shots]
    assert arm == [False] * 6 + [True] * 6 + [False] * 6  # in to the dice and out: 0.6 s


def test_each_change_is_its_own_step_and_time_passes_unseen() -> None:
    felt = world()
    felt.read()
    felt.show(DICE)
    felt.show(BETS)  # once the arm that lays the dice has gone
    assert [s.state for s in felt.steps] == [EMPTY, DICE, BETS]
    assert felt.steps[2].t == pytest.approx(felt.steps[1].t + 0.6)
    felt.pass_time()  # nobody looks until the felt is still again
    assert felt.now == pytest.approx(felt.steps[2].t + 0.8 + FAST.settle)  # two circles
    frame = felt.read()
    assert frame is not None and not felt.shots[-1].arm and len(felt.shots) == 2


def test_a_change_waits_for_the_arm_before_it_and_a_still_felt() -> None:
    felt = world()
    felt.read()
    felt.show(DICE)  # from the next frame
    felt.read()  # the arm on its way to the dice
    felt.show(BETS)
    assert felt.steps[1].t == pytest.approx(0.1)
    assert felt.steps[2].t == pytest.approx(felt.steps[1].t + 0.6)


def test_a_reader_sees_the_felt_still_only_once_the_arm_has_gone() -> None:
    felt = world()
    felt.read()
    felt.show(BETS)
    still = StillScene(hold=0.3)
    while (frame := felt.read()) is not None:
        if still.feed(frame.image, frame.index / FAST.fps) is not None:
            break
    assert felt.shots[-1].step == 1 and not felt.shots[-1].arm
    assert not any(s.arm for s in felt.shots[-4:])


def test_a_closed_world_gives_no_frame() -> None:
    felt = world()
    felt.close()
    with pytest.raises(SourceError, match="closed"):
        felt.read()


def test_the_film_holds_every_frame_and_the_ones_the_camera_took_unchanged() -> None:
    felt = world()
    felt.read()
    felt.show(DICE)
    felt.pass_time()  # nobody looks
    felt.show(BETS)
    for _ in range(3):
        felt.read()
    film = list(felt.film())
    assert [f.index for f in film] == list(range(len(film)))
    assert film[-1].t == pytest.approx(felt.steps[-1].t + 0.8 + FAST.settle)
    for shot in felt.shots:
        assert film[shot.index].jpeg == shot.jpeg and film[shot.index].step == shot.step
    assert any(f.arm and f.step == 1 for f in film)  # the dice's arm, which nobody saw


def test_a_read_waits_for_the_change_expected() -> None:
    import threading

    felt = world()
    felt.read()
    felt.expect()  # the dice are in the shaker
    got: list[int] = []
    reader = threading.Thread(target=lambda: got.append(felt.read().index))  # type: ignore[union-attr]
    reader.start()
    reader.join(timeout=0.3)
    assert reader.is_alive() and got == []  # nothing to film yet
    felt.show(DICE)
    reader.join(timeout=30)
    assert got == [1] and felt.shots[-1].step == 1  # the arm laying the dice, from then on
