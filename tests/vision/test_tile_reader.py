"""Pai Gow tiles: rendering, reading rendered scenes against ground truth, the set check.

The full 1,000-scene measurement is ``bench/bench_vision_tiles_dice.py``.
"""

from __future__ import annotations

from collections import Counter

import cv2
import numpy as np
import pytest

from vision.errors import ImageError
from vision.items import Item
from vision.scene import Camera
from vision.tiles import (
    CODES,
    PAIRS,
    PipColours,
    TileLook,
    check_set,
    full_set,
    read_face,
    read_tiles,
    render_tile,
    tile_scene,
)
from vision.tiles.faces import STANDARD_COLOURS, layout
from vision.tiles.find import find_blobs
from vision.tiles.pips import LENGTH, WIDTH
from vision.tiles.reader import MAX_BRIGHTNESS
from vision.tiles.scoring import score

SCENES = 60  # about 640 tiles; bench/ runs 1,000 scenes
PLAIN = TileLook()


def straight(ends: tuple[int, int] | None, look: TileLook = PLAIN) -> np.ndarray:
    """A tile drawn upright at the reader's own size, as the reader straightens it."""
    image, _ = render_tile(ends, WIDTH, look)
    return np.asarray(cv2.resize(image, (WIDTH, LENGTH)), np.uint8)


@pytest.fixture(scope="module")
def sample() -> Counter[str]:
    rng = np.random.default_rng(2024)
    counts: Counter[str] = Counter()
    for _ in range(SCENES):
        scene = tile_scene(rng, count=int(rng.integers(9, 13)))
        counts += score(read_tiles(scene.image), [(t.code, t.centre) for t in scene.truths])
    return counts


def test_rendered_scenes_are_read_right_and_never_wrong(sample: Counter[str]) -> None:
    assert sample["total"] > 600
    assert sample["wrong"] == 0, sample
    assert sample["right"] >= 0.995 * sample["total"], sample
    assert sample["extra"] == 0, sample


@pytest.mark.parametrize("code", CODES)
def test_every_face_reads_both_ways_up(code: str) -> None:
    a, b = (int(p) for p in code.split("-"))
    for ends in ((a, b), (b, a)):
        read = read_face(straight(ends))
        assert read.code == code, read
        assert read.confidence > 0.9


def test_red_pips_identify_each_scoring_class() -> None:
    # Reference section 0 fact 10: (total pips, red pips) names the class; only 2-6 / 3-5 share.
    seen: dict[tuple[int, int], set[str]] = {}
    for code in CODES:
        a, b = (int(p) for p in code.split("-"))
        red = STANDARD_COLOURS.red_count(a, b) + STANDARD_COLOURS.red_count(b, a)
        seen.setdefault((a + b, red), set()).add(code)
    shared = {key: codes for key, codes in seen.items() if len(codes) > 1}
    assert shared == {(8, 0): {"2-6", "3-5"}}
    assert seen[(12, 6)] == {"6-6"} and seen[(8, 8)] == {"4-4"} and seen[(2, 2)] == {"1-1"}


def test_layouts_hold_their_pip_counts() -> None:
    for pips in range(1, 7):
        for other in range(1, 7):
            assert len(layout(pips, other)) == pips
            assert len(STANDARD_COLOURS.red_mask(pips, other)) == pips


def test_wrong_colours_are_refused_not_misread() -> None:
    # A set whose ones and fours are painted white: the colour cross-check must refuse it.
    white = TileLook(colours=PipColours(red_ends=frozenset(), double_six_red=0))
    for code in ("1-1", "4-4", "1-4", "6-6", "2-4"):
        a, b = (int(p) for p in code.split("-"))
        read = read_face(straight((a, b), white))
        assert read.code is None and read.note is not None and "red" in read.note


def test_face_down_tile_is_unknown() -> None:
    read = read_face(straight(None))
    assert read.code is None and read.note == "face down or no pips"
    rng = np.random.default_rng(7)
    scene = tile_scene(rng, count=6, face_down=1.0)
    items = read_tiles(scene.image)
    assert len(items) == 6 and all(item.code is None for item in items)


def test_hands_set_side_by_side_are_cut_into_tiles() -> None:
    rng = np.random.default_rng(13)
    counts: Counter[str] = Counter()
    for _ in range(8):
        scene = tile_scene(rng, count=10, touching=2)
        counts += score(read_tiles(scene.image), [(t.code, t.centre) for t in scene.truths])
    assert counts["wrong"] == 0, counts
    assert counts["right"] >= 0.97 * counts["total"], counts


def test_tile_cut_by_the_frame_is_unknown() -> None:
    scene = tile_scene(np.random.default_rng(9), count=5)
    first = scene.truths[0]
    cut = int(first.centre[0])
    items = read_tiles(np.ascontiguousarray(scene.image[:, :cut]))
    near = [it for it in items if abs(it.center[1] - first.centre[1]) < 40
            and it.center[0] > cut - 80]
    assert near and all(it.code is None for it in near)
    assert {it.code for it in items} <= {t.code for t in scene.truths} | {None}


def test_tiles_too_small_are_never_read_wrong() -> None:
    rng = np.random.default_rng(11)
    counts: Counter[str] = Counter()
    for _ in range(6):
        scene = tile_scene(rng, count=10, width=(10, 22))
        counts += score(read_tiles(scene.image), [(t.code, t.centre) for t in scene.truths])
    assert counts["wrong"] == 0, counts


def test_harsh_camera_is_never_read_wrong() -> None:
    harsh = Camera(tilt=0.06, light=(0.45, 1.3), glare=(3, 120.0), blur=(0.8, 1.8),
                   noise=(6.0, 12.0), tint=0.08)
    rng = np.random.default_rng(5)
    counts: Counter[str] = Counter()
    for _ in range(6):
        scene = tile_scene(rng, count=10, camera=harsh)
        counts += score(read_tiles(scene.image), [(t.code, t.centre) for t in scene.truths])
    assert counts["wrong"] == 0, counts
    assert counts["right"] >= 0.8 * counts["total"], counts


def test_items_are_tiles_with_corners_and_json() -> None:
    scene = tile_scene(np.random.default_rng(3), count=4)
    items = read_tiles(scene.image)
    assert len(items) == 4
    for item in items:
        assert isinstance(item, Item) and item.kind == "tile"
        assert item.known and 0.5 <= item.confidence <= 1.0
        assert Item.from_json(item.to_json()).code == item.code


def test_black_frame_empty_felt_and_bad_arrays() -> None:
    assert read_tiles(np.zeros((720, 1280, 3), np.uint8)) == []
    assert read_tiles(np.full((720, 1280, 3), (40, 110, 30), np.uint8)) == []
    assert read_tiles(np.full((720, 1280, 3), 255, np.uint8)) == []
    assert read_tiles(np.zeros((20, 20, 3), np.uint8)) == []
    with pytest.raises(ImageError, match="shape"):
        read_tiles(np.zeros((720, 1280), np.uint8))
    with pytest.raises(ImageError):
        read_tiles("frame.png")  # type: ignore[arg-type]


def test_full_set_is_complete() -> None:
    check = check_set(full_set())
    assert check.complete and check.consistent and check.problems() == []
    assert len(full_set()) == 32 and len(set(full_set())) == 21


def test_pairs_cover_the_set() -> None:
    assert len(PAIRS) == 16
    assert sorted(code for _, pair in PAIRS for code in pair) == sorted(full_set())


def test_set_check_names_missing_extra_invalid_and_unknown() -> None:
    tiles: list[str | None] = list(full_set())
    tiles.remove("1-2")
    check = check_set(tiles)
    assert not check.complete and check.consistent
    assert check.missing == ("1-2",) and check.broken_pairs == ("Gee Joon",)
    tiles += ["6-6", "0-3", "2-1", None]
    check = check_set(tiles)
    assert check.extra == ("6-6",) and check.invalid == ("0-3",) and check.unknown == 1
    assert not check.consistent
    assert "extra tile '6-6'" in check.problems()
    assert check_set(["6-6", "6-6", "6-6"]).extra == ("6-6",)


def test_blobs_as_bright_as_asked_are_left_out_and_the_rest_kept() -> None:
    # A black tile and a white die-sized square on green felt: both found with ``bright``.
    image = np.full((400, 600, 3), (40, 110, 30), np.uint8)
    cv2.rectangle(image, (100, 100), (140, 204), (20, 20, 20), -1)
    cv2.rectangle(image, (400, 150), (440, 190), (250, 250, 250), -1)
    every = find_blobs(image, bright=True)
    dark = find_blobs(image, bright=True, darker_than=MAX_BRIGHTNESS)
    assert sorted(b.brightness < MAX_BRIGHTNESS for b in every) == [False, True]
    assert len(dark) == 1 and dark[0].brightness < MAX_BRIGHTNESS
    kept = next(b for b in every if b.brightness < MAX_BRIGHTNESS)
    assert np.array_equal(kept.quad, dark[0].quad) and kept.area == dark[0].area
