"""The seven-hand tables the card tests and the benchmark read: framed as a layout camera
frames the felt, every card wholly in the picture, and the spreads otherwise as laid."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.vision.conftest import faces
from vision.scene import Camera
from vision.scene.hands import Spread, place_spread, table_scene
from vision.scene.scene import Scene

LEVEL = Camera(tilt=0.0)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_every_card_of_a_table_lies_in_the_frame(seed: int) -> None:
    _, truth = table_scene(faces("2color"), np.random.default_rng(seed))
    corners = np.array([t.corners for t in truth])
    assert len(truth) == 49
    assert (corners[..., 0] >= 0).all() and (corners[..., 0] <= 1279).all()
    assert (corners[..., 1] >= 0).all() and (corners[..., 1] <= 719).all()


def test_a_spread_is_moved_whole_and_only_as_far_as_needed() -> None:
    cards = faces("2color")
    codes = ["As", "Kd", "7c", "2h", "9s"]

    def centres(
        within: tuple[float, float, float, float] | None,
    ) -> tuple[np.ndarray, np.ndarray]:
        scene = Scene(size=(640, 360))
        place_spread(scene, [(c, cards[c]) for c in codes], 60, 180, 0.0, 100.0, Spread(),
                     np.random.default_rng(3), within=within)
        _, truth = scene.render(np.random.default_rng(3), LEVEL)
        return np.array([t.center for t in truth]), np.array([t.corners for t in truth])

    free, _ = centres(None)
    inside, quads = centres((10.0, 10.0, 630.0, 350.0))
    moves = inside - free
    assert np.allclose(moves, moves[0], atol=1e-6)  # the spread keeps its shape
    assert moves[0, 0] > 0 and abs(moves[0, 1]) < 1e-6  # pushed right only
    assert abs(quads[..., 0].min() - 10.0) < 1.5  # just to the box's edge
    untouched, _ = centres((-1e4, -1e4, 1e4, 1e4))
    assert np.allclose(untouched, free)
