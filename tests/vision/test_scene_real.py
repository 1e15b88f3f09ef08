"""The renderer's real-camera effects (``vision.scene.augment``), card stock (``paper``) and
wooden tables (``surface``): each does what its docstring says, and a plain camera is the
camera it was."""

from __future__ import annotations

import numpy as np

from vision.scene import Camera, Pose, Scene
from vision.scene.augment import REAL, compress, defocus, shot_noise, vignette
from vision.scene.paper import Paper
from vision.scene.surface import AnySurface, Wood

STILL = Camera(tilt=0.0, light=(1.0, 1.0), glare=(0, 0.0), blur=(0.0, 0.0), noise=(0.0, 0.0),
               tint=0.0)


def card(w: int = 60, h: int = 90) -> np.ndarray:
    """A white card with a black bar as its ink."""
    item = np.full((h, w, 4), 255, np.uint8)
    item[10:30, 8:14, :3] = 0
    return item


def test_defocus_spreads_a_point_over_a_disk_and_keeps_its_light() -> None:
    image = np.zeros((21, 21, 3), np.float32)
    image[10, 10] = 255.0
    out = defocus(image.copy(), 3.0)
    assert abs(float(out[:, :, 0].sum()) - 255.0) < 1e-2
    ys, xs = np.nonzero(out[:, :, 0] > 1e-3)
    assert np.hypot(ys - 10, xs - 10).max() <= 4.0  # nothing beyond the disk's rim
    assert out[10, 13, 0] > 0 and out[10, 10, 0] < 255.0 / 10


def test_vignette_darkens_the_corners_not_the_centre() -> None:
    out = vignette(np.full((72, 128, 3), 200.0, np.float32), 0.3)
    assert abs(float(out[36, 64, 0]) - 200.0) < 2.0
    assert float(out[0, 0, 0]) < 200.0 * 0.75


def test_shot_noise_grows_with_the_light() -> None:
    rng = np.random.default_rng(1)
    dark = shot_noise(np.full((64, 64, 3), 16.0, np.float32), 0.5, rng)
    bright = shot_noise(np.full((64, 64, 3), 225.0, np.float32), 0.5, rng)
    assert float(bright.std()) > 3 * float(dark.std())


def test_compress_keeps_the_picture_within_jpeg_error() -> None:
    ys, xs = np.mgrid[0:48, 0:64]
    image = np.stack([xs * 3, ys * 4, 255 - xs * 2], axis=2).astype(np.uint8)
    image[20:24, 30:50] = 0  # a sharp edge: ringing, but bounded
    out = compress(image, 60)
    assert out.shape == image.shape and out.dtype == np.uint8
    err = np.abs(out.astype(int) - image)
    assert 0 < float(err.mean()) < 4


def test_a_plain_camera_is_untouched_by_the_real_effects() -> None:
    frames = []
    for camera in (Camera(), Camera(defocus=(0.0, 0.0), vignette=0.0, shot=0.0, jpeg=None)):
        scene = Scene(size=(160, 120))
        scene.place(card(), Pose(80, 60, 10, 1.0), "As")
        frames.append(scene.render(np.random.default_rng(4), camera)[0])
    assert np.array_equal(frames[0], frames[1])


def test_real_scenes_are_reproducible_from_their_seed() -> None:
    frames = []
    for _ in range(2):
        scene = Scene(size=(160, 120), felt=AnySurface(), paper=Paper())
        scene.place(card(), Pose(80, 60, 10, 1.0), "As")
        frames.append(scene.render(np.random.default_rng(7), REAL)[0])
    assert np.array_equal(frames[0], frames[1])


def test_paper_lifts_the_ink_mottles_the_stock_and_keeps_the_outline() -> None:
    face = card()
    face[:5, :5, 3] = 0  # a rounded corner
    out = Paper(sheen=(0.0, 0.0)).finish(face, np.random.default_rng(3))
    assert np.array_equal(out[:, :, 3], face[:, :, 3])
    assert int(out[10:30, 8:14, :3].min()) >= 4  # printing ink is never the file's black
    stock = out[40:80, 20:50, :3].astype(np.float64)
    assert stock.std() > 0.5 and stock.mean() > 200


def test_paper_is_seen_only_on_cards() -> None:
    tile = card()[:, :, :3]
    frames = []
    for paper in (None, Paper()):
        scene = Scene(size=(120, 120), paper=paper)
        scene.place(tile, Pose(60, 60, 0, 1.0), "5-5", "tile")
        frames.append(scene.render(np.random.default_rng(9), STILL)[0])
    assert np.array_equal(frames[0], frames[1])


def test_wood_grain_runs_along_its_boards() -> None:
    rng = np.random.default_rng(5)
    for _ in range(4):
        wood = Wood(boards=(1, 1)).render((200, 200), rng).astype(np.float64).mean(axis=2)
        # The stripes lie along the board: averaged along it they stay (the means of the
        # lines along it differ), averaged across it they go.
        rows, cols = wood.mean(axis=1).std(), wood.mean(axis=0).std()
        assert max(rows, cols) > 3 * min(rows, cols)
