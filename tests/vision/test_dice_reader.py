"""Dice: rendering, reading still rolls against ground truth, cocked dice, waiting for rest.

The full 1,000-scene measurement is ``bench/bench_vision_tiles_dice.py``.
"""

from __future__ import annotations

from collections import Counter

import cv2
import numpy as np
import pytest

from vision.dice import (
    CODES,
    DiceRead,
    StillDetector,
    dice_scene,
    read_dice,
    read_roll,
    read_still_roll,
    render_cocked,
    render_die,
    roll_sequence,
    still_frame,
)
from vision.dice.pips import SIDE, read_face
from vision.errors import ImageError
from vision.scene import Pose, Scene
from vision.tiles import tile_scene
from vision.tiles.scoring import score

SCENES = 120  # 360 dice, a third of the scenes with one die cocked; bench/ runs 1,000


def flat_face(value: int, turns: int) -> np.ndarray:
    """A die face drawn at the reader's own size, on its own."""
    die = render_die(value, SIDE, turns=turns)
    return np.asarray(die[:, :, :3], np.uint8)


@pytest.fixture(scope="module")
def sample() -> tuple[Counter[str], Counter[str]]:
    """Counts for flat dice, and for cocked dice (right = reported unknown, never a value)."""
    rng = np.random.default_rng(99)
    flat: Counter[str] = Counter()
    cocked: Counter[str] = Counter()
    for i in range(SCENES):
        scene = dice_scene(rng, cocked=int(i % 3 == 0))
        items = read_dice(scene.image, dice_area=True)
        flat += score(items, [(str(t.value), t.centre) for t in scene.truths if not t.cocked])
        cocked += score(items, [(None, t.centre) for t in scene.truths if t.cocked])
        for item, truth in ((it, t) for it in items for t in scene.truths if t.cocked):
            if np.hypot(item.center[0] - truth.centre[0], item.center[1] - truth.centre[1]) < 20:
                cocked["said cocked"] += item.note == "cocked"
    return flat, cocked


def test_flat_dice_are_read_right_and_never_wrong(
        sample: tuple[Counter[str], Counter[str]]) -> None:
    flat, _ = sample
    assert flat["total"] > 300
    assert flat["wrong"] == 0, flat
    assert flat["right"] >= 0.995 * flat["total"], flat


def test_cocked_dice_are_never_given_a_value(sample: tuple[Counter[str], Counter[str]]) -> None:
    _, cocked = sample
    assert cocked["total"] == SCENES // 3
    assert cocked["wrong"] == 0, cocked
    assert cocked["said cocked"] >= 0.98 * cocked["total"], cocked


@pytest.mark.parametrize("value", range(1, 7))
def test_every_face_reads_at_each_quarter_turn(value: int) -> None:
    for turns in range(4):
        read = read_face(flat_face(value, turns))
        assert read.value == value, (turns, read)
        assert read.confidence > 0.9


def test_cocked_die_means_no_game() -> None:
    rng = np.random.default_rng(3)
    scene = dice_scene(rng, cocked=1)
    roll = read_roll(scene.image)
    assert roll.values is None and roll.total is None
    assert roll.no_game_reason == "1 cocked die"
    assert sum(item.note == "cocked" for item in roll.items) == 1


def test_cocked_die_sprite_shows_two_faces() -> None:
    sprite = render_cocked(3, 2, 60, 30.0)
    assert sprite.shape[1] == 60 and sprite.shape[0] == round(60 * (np.cos(0.5236) + 0.5))


def test_still_roll_gives_three_values() -> None:
    rng = np.random.default_rng(8)
    scene = dice_scene(rng)
    roll = read_roll(scene.image)
    assert roll.no_game_reason is None
    assert roll.values is not None
    assert sorted(roll.values) == sorted(t.value for t in scene.truths)
    assert roll.total == sum(t.value for t in scene.truths)
    assert all(item.kind == "die" and item.code in CODES for item in roll.items)


def test_wrong_number_of_dice_is_no_game() -> None:
    rng = np.random.default_rng(12)
    roll = read_roll(dice_scene(rng, count=2).image)
    assert roll.values is None and roll.no_game_reason == "2 dice seen, expected 3"
    assert read_roll(dice_scene(rng, count=4).image).no_game_reason == "4 dice seen, expected 3"


def test_sequence_is_read_once_the_dice_rest() -> None:
    rng = np.random.default_rng(21)
    frames, truths = roll_sequence(rng, moving=3, still=4)
    roll = read_still_roll(frames)
    assert roll.values is not None
    assert sorted(roll.values) == sorted(t.value for t in truths)
    # Cut before the dice settle: no still run, no game.
    assert read_still_roll(frames[:4]) == DiceRead(None, "the dice never came to rest", ())


def test_still_detector_needs_agreeing_frames() -> None:
    rng = np.random.default_rng(5)
    frames, _ = roll_sequence(rng, moving=2, still=3)
    detector = StillDetector(agree=2)
    seen = [detector.feed(frame) for frame in frames]
    assert [s is not None for s in seen] == [False, False, False, False, True]
    assert still_frame(frames, agree=3) is None
    with pytest.raises(ValueError, match="agree"):
        StillDetector(agree=0)


def test_cocked_roll_in_a_sequence_is_no_game() -> None:
    rng = np.random.default_rng(31)
    frames, _ = roll_sequence(rng, cocked=1)
    assert read_still_roll(frames).no_game_reason == "1 cocked die"


def test_black_frame_and_empty_felt() -> None:
    black = np.zeros((480, 640, 3), np.uint8)
    assert read_dice(black) == []
    assert read_roll(black) == DiceRead(None, "0 dice seen, expected 3", ())
    assert read_dice(np.full((480, 640, 3), (40, 110, 30), np.uint8)) == []
    assert read_dice(np.full((480, 640, 3), 255, np.uint8)) == []
    with pytest.raises(ImageError):
        read_dice(np.zeros((480, 640), np.float32))


def test_tiles_are_not_dice_and_dice_are_not_tiles() -> None:
    rng = np.random.default_rng(4)
    tiles = tile_scene(rng, count=6).image
    assert read_dice(tiles) == []
    dice = dice_scene(rng).image
    from vision.tiles import read_tiles

    assert read_tiles(dice) == []


def card(width: int = 60) -> np.ndarray:
    """A plain playing card as BGRA: white, rounded, a few red and black marks."""
    h = round(width * 88 / 63)
    img = np.full((h, width, 4), 255, np.uint8)
    img[:, :, 3] = 0
    cv2.rectangle(img, (0, 0), (width - 1, h - 1), (245, 245, 245, 255), -1)
    for i, colour in enumerate(((30, 30, 200, 255), (20, 20, 20, 255), (30, 30, 200, 255))):
        cv2.circle(img, (width // 2, (i + 1) * h // 4), width // 8, colour, -1)
    return img


def test_cards_in_a_table_frame_are_not_dice() -> None:
    rng = np.random.default_rng(23)
    table = Scene(size=(1280, 720))
    for i in range(5):
        table.place(card(), Pose(150 + 200 * i, 200, float(rng.uniform(0, 360))), "As")
    for i, value in enumerate((2, 5, 6)):
        table.place(render_die(value, 50), Pose(400 + 150 * i, 520, 15.0 * i), str(value), "die")
    image, _ = table.render(rng)
    assert [item.code for item in read_dice(image)] == ["2", "5", "6"]
    # In a dice-area frame a die-sized oblong can only be a cocked die.
    assert sum(item.note == "cocked" for item in read_dice(image, dice_area=True)) == 5


def test_small_dice_are_never_read_wrong() -> None:
    rng = np.random.default_rng(17)
    counts: Counter[str] = Counter()
    for _ in range(10):
        scene = dice_scene(rng, side=(14, 24))
        counts += score(read_dice(scene.image), [(str(t.value), t.centre) for t in scene.truths])
    assert counts["wrong"] == 0, counts


def test_die_drawing_is_deterministic() -> None:
    a = render_die(5, 48, turns=1, strip=0.03)
    b = render_die(5, 48, turns=1, strip=0.03)
    assert np.array_equal(a, b) and a.shape == (49, 48, 4)
    assert cv2.countNonZero(a[:, :, 3]) > 0.9 * 48 * 49
