"""The scene renderer: its public API (used by the tile and dice tests too) and its truth."""

from __future__ import annotations

import numpy as np
import pytest

from vision.scene import Camera, Pose, Scene
from vision.scene.augment import perspective
from vision.scene.hands import most_hands, table_scene

STILL = Camera(tilt=0.0, light=(1.0, 1.0), glare=(0, 0.0), blur=(0.0, 0.0), noise=(0.0, 0.0),
               tint=0.0)


def white_item(w: int = 40, h: int = 60) -> np.ndarray:
    item = np.zeros((h, w, 4), np.uint8)
    item[:, :, :3] = 255
    item[:, :, 3] = 255
    return item


def test_same_seed_same_frame() -> None:
    frames = []
    for _ in range(2):
        scene = Scene(size=(200, 120))
        scene.place(white_item(), Pose(100, 60, 30, 1.0), "As")
        frames.append(scene.render(np.random.default_rng(5), Camera())[0])
    assert np.array_equal(frames[0], frames[1])
    assert frames[0].shape == (120, 200, 3) and frames[0].dtype == np.uint8


def test_truth_follows_pose_and_stacking() -> None:
    scene = Scene(size=(300, 200), shadow=0.0)
    scene.place(white_item(), Pose(100, 100, 0, 1.0), "bottom")
    scene.place(white_item()[:, :, :3], Pose(120, 100, 90, 0.5), "top", "tile")
    image, truth = scene.render(np.random.default_rng(1), STILL)
    bottom, top = truth
    assert (bottom.label, top.label, top.kind, top.z) == ("bottom", "top", "tile", 1)
    assert bottom.center == pytest.approx((100, 100), abs=0.01)
    # Turned a quarter counter-clockwise: the item's top-left corner goes to bottom-left.
    assert top.corners[0][0] < top.center[0] and top.corners[0][1] > top.center[1]
    assert top.visible == pytest.approx(1.0)
    assert 0.5 < bottom.visible < 1.0  # partly under the top item
    assert image[100, 100].min() > 240  # white card on the felt


def test_camera_tilt_moves_truth_with_the_picture() -> None:
    scene = Scene(size=(320, 240))
    scene.place(white_item(), Pose(160, 120, 0, 1.0), "c")
    cam = Camera(tilt=0.08, light=(1.0, 1.0), glare=(0, 0.0), blur=(0.0, 0.0),
                 noise=(0.0, 0.0), tint=0.0)
    image, truth = scene.render(np.random.default_rng(3), cam)
    x, y = (round(v) for v in truth[0].center)
    assert image[y, x].min() > 240


def test_perspective_is_identity_without_tilt() -> None:
    assert np.allclose(perspective(640, 480, 0.0, np.random.default_rng(0)), np.eye(3))


def test_bad_item_image_is_refused() -> None:
    with pytest.raises(ValueError, match="BGR"):
        Scene().place(np.zeros((5, 5), np.uint8), Pose(0, 0), "x")


@pytest.mark.parametrize(("count", "hands"), [(53, 7), (49, 7), (48, 6), (13, 1), (6, 0)])
def test_most_hands_deals_a_table_without_a_card_twice(count: int, hands: int) -> None:
    """A deck learned with some faces refused deals fewer hands (``most_hands``): that many
    deal, one more does not."""
    faces = {f"c{k}": white_item() for k in range(count)}
    assert most_hands(faces) == hands
    if hands:
        _, placed = table_scene(faces, np.random.default_rng(0), size=(640, 360), hands=hands)
        labels = [p.label for p in placed]
        assert len(labels) == len(set(labels)) == hands * 7
    with pytest.raises(ValueError, match="hands need"):
        table_scene(faces, np.random.default_rng(0), size=(640, 360), hands=hands + 1)
