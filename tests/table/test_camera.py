"""The vision camera's property: it names the setting on the felt, or nothing, never another."""

from __future__ import annotations

import functools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.rules.poker.cards import full_deck
from controller.rules.poker.setting import Setting
from controller.rules.tiles.dominoes import full_set
from controller.rules.tiles.setting import TileSetting
from controller.simulation.camera import VisionCameraPort

from .conftest import _assets

CARDS = [str(c) for c in full_deck()]
TILES = [str(t) for t in full_set()]


@functools.cache
def _camera(game: str) -> VisionCameraPort:
    return VisionCameraPort.for_game(game, seed=0)


@settings(max_examples=20, deadline=None)
@given(st.permutations(CARDS).map(lambda deck: deck[:7]), st.integers(1, 7))
def test_the_card_camera_reads_the_setting_or_nothing(cards: list[str], position: int) -> None:
    if not _assets():
        pytest.skip("card artwork missing and scripts/test_assets.sh failed (no network?)")
    camera = _camera("poker")
    placed = f"{' '.join(cards[:2])} / {' '.join(cards[2:])}"
    camera.place(position, placed)
    seen = camera.read(position)
    assert seen is None or Setting.parse(seen) == Setting.parse(placed)
    assert camera.history[-1].placed == placed and camera.history[-1].seconds > 0


@settings(max_examples=30, deadline=None)
@given(st.permutations(range(32)).map(lambda order: [TILES[i] for i in order[:4]]),
       st.integers(1, 8))
def test_the_tile_camera_reads_the_setting_or_nothing(tiles: list[str], position: int) -> None:
    camera = _camera("tiles")
    placed = f"{tiles[0]} {tiles[1]} / {tiles[2]} {tiles[3]}"
    camera.place(position, placed)
    seen = camera.read(position)
    assert seen is None or TileSetting.parse(seen) == TileSetting.parse(placed)


def test_a_source_callable_says_what_lies_on_the_felt() -> None:
    layout = {3: "6-6 4-5 / 1-2 3-3"}
    asked: list[int] = []

    def source(position: int) -> str | None:
        asked.append(position)
        return layout.get(position)

    camera = VisionCameraPort.for_game("tiles", seed=2, source=source)
    assert camera.read(5) is None
    seen = camera.read(3)
    assert asked == [5, 3]
    assert seen is not None and TileSetting.parse(seen) == TileSetting.parse(layout[3])
    assert [r.placed for r in camera.history] == [None, layout[3]]
