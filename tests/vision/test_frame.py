"""Whole frames: cards placed in layout regions, black frames and empty tables, each game's
readers, dice read in the layout's dice area, one item per place."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tests.vision.conftest import deck, faces
from vision.cards import CardReader
from vision.dice import dice_scene, read_dice
from vision.errors import CalibrationError, ImageError
from vision.frame import FrameReader, for_game, one_per_place
from vision.items import Item, box_corners
from vision.layout import Layout
from vision.scene import Camera, Scene
from vision.scene.hands import table_scene
from vision.tiles import read_tiles

ROOT = Path(__file__).resolve().parents[2]
LEVEL = Camera(tilt=0.0)  # the sim-table layout's marks assume a camera straight above
# table_scene(cells=range(14)): spread i (high, low, high, ...) goes to cell i of the grid.
POSITIONS = [f"seat{s}" for s in range(1, 7)] + ["dealer"]


def test_cards_land_in_their_boxes() -> None:
    layout = Layout.load(ROOT / "config" / "layouts" / "sim-table.toml")
    image, truth = table_scene(faces("2color"), np.random.default_rng(8), camera=LEVEL,
                               cells=range(14))
    want = {}
    # Truth cards in placement order: hand 0 (5 cards), hand 1 (2 cards), hand 2 (5), ...
    sizes = [5, 2] * 7
    k = 0
    for hand, size in enumerate(sizes):
        box = f"{POSITIONS[hand // 2]}.{'high' if hand % 2 == 0 else 'low'}"
        for placed in truth[k:k + size]:
            want[placed.label] = box
        k += size
    result = FrameReader(CardReader(deck("2color")), layout=layout).read(image)
    read = [i for i in result.items if i.code is not None]
    assert len(read) >= 40
    assert all(i.region == want[i.code] for i in read if i.code in want)


def test_black_frame_and_empty_table_are_clear_results() -> None:
    reader = FrameReader(CardReader(deck("2color")))
    assert reader.read(np.zeros((720, 1280, 3), np.uint8)).note == "black frame"
    felt, _ = Scene().render(np.random.default_rng(0), Camera())
    result = reader.read(felt)
    assert result.note == "empty table" and result.items == ()
    assert result.to_json("felt.png")["counts"] == {"card": 0, "tile": 0, "die": 0}


def test_other_readers_are_included() -> None:
    item = Item("die", "5", 0.99, (5.0, 5.0), box_corners(5, 5, 4, 4))
    felt, _ = Scene(size=(64, 48)).render(np.random.default_rng(0), Camera())
    result = FrameReader(others=[lambda image: [item]]).read(felt)
    assert result.items == (item,) and result.note is None




def test_not_an_image() -> None:
    with pytest.raises(ImageError, match="8-bit BGR"):
        FrameReader().read(np.zeros((4, 4), np.uint8))


def _with_dice(image: np.ndarray, rng: np.random.Generator, cocked: int = 0
               ) -> tuple[np.ndarray, list[tuple[int, bool, float, float]]]:
    """``image`` with a rendered dice area of three dice pasted into sim-table's dice area
    (felt 800..1200 x 675..900: image pixels 640..960 x 540..720), and the dice's truth
    (value, cocked, centre in the frame)."""
    dice = dice_scene(rng, size=(320, 180), side=(30, 40), cocked=cocked)
    out = image.copy()
    out[540:720, 640:960] = dice.image
    return out, [(t.value, t.cocked, t.centre[0] + 640, t.centre[1] + 540) for t in dice.truths]


def test_a_poker_frame_shows_no_tiles_or_dice_of_its_cards() -> None:
    # Two overlapping cards are square as a die, and a gap of felt between cards is a dark
    # blob as a tile: each reader alone finds such things in this frame.
    image, _ = table_scene(faces("2color"), np.random.default_rng(5))
    assert read_dice(image) and read_tiles(image)
    cards = CardReader(deck("2color"))
    for game in ("poker", "any"):
        items = for_game(game, cards).read(image).items
        assert not [i for i in items if i.kind == "die"], game
        assert sum(i.kind == "card" and i.known for i in items) >= 40
    assert not [i for i in for_game("poker", cards).read(image).items if i.kind == "tile"]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_dice_are_read_in_the_dice_area(seed: int) -> None:
    layout = Layout.load(ROOT / "config" / "layouts" / "sim-table.toml")
    rng = np.random.default_rng(seed)
    image, truth = table_scene(faces("2color"), rng, camera=LEVEL, cells=range(14))
    image, dice = _with_dice(image, rng)
    items = for_game("poker", CardReader(deck("2color")), layout).read(image).items
    read = sorted((i for i in items if i.kind == "die"), key=lambda i: i.center[0])
    assert [i.region for i in read] == ["dice"] * 3
    want = sorted(dice, key=lambda d: d[2])
    assert [i.code for i in read] == [str(d[0]) for d in want]
    assert all(abs(i.center[0] - d[2]) < 10 and abs(i.center[1] - d[3]) < 10
               for i, d in zip(read, want, strict=True))
    labels = {t.label for t in truth}
    named = [i for i in items if i.kind == "card" and i.known]
    assert len(named) >= 40 and {i.code for i in named} <= labels


def test_a_cocked_die_in_the_dice_area_is_unknown() -> None:
    layout = Layout.load(ROOT / "config" / "layouts" / "sim-table.toml")
    rng = np.random.default_rng(4)
    image, _ = table_scene(faces("2color"), rng, camera=LEVEL, cells=range(14))
    image, dice = _with_dice(image, rng, cocked=1)
    read = [i for i in for_game("poker", CardReader(deck("2color")), layout).read(image).items
            if i.kind == "die"]
    cocked = [d for d in dice if d[1]]
    at = [i for i in read if abs(i.center[0] - cocked[0][2]) < 20
          and abs(i.center[1] - cocked[0][3]) < 20]
    assert len(at) == 1 and at[0].code is None and at[0].note == "cocked"


def test_each_game_runs_its_own_readers() -> None:
    cards = CardReader(deck("2color"))
    poker, tiles, every = for_game("poker", cards), for_game("tiles"), for_game("any", cards)
    assert poker.cards is cards and not poker.others and poker.dice is not None
    assert tiles.cards is None and list(tiles.others) == [read_tiles] and tiles.dice is not None
    assert every.cards is cards and list(every.others) == [read_tiles]
    with pytest.raises(CalibrationError, match="poker"):
        for_game("poker")
    with pytest.raises(ValueError, match="'chess'"):
        for_game("chess", cards)  # type: ignore[arg-type]


def _item(kind: str, code: str | None, x: float, y: float, size: float = 40) -> Item:
    return Item(kind, code, 0.9 if code else 0.0, (x, y),  # type: ignore[arg-type]
                box_corners(x, y, size, size))


def test_one_item_per_place() -> None:
    card, die = _item("card", "As", 100, 100, 60), _item("die", "6", 110, 110)
    unknown_card, unknown_die = _item("card", None, 300, 100, 60), _item("die", None, 305, 95)
    assert one_per_place([card, die]) == [card]  # a named card over a named die
    assert one_per_place([_item("die", None, 100, 100), card]) == [card]
    assert one_per_place([unknown_card, _item("die", "3", 300, 100)]) == [
        _item("die", "3", 300, 100)]  # pips taken for an index give way to the die
    assert one_per_place([unknown_card, unknown_die]) == [unknown_card, unknown_die]
    tile, die_on_tile = _item("tile", "gee-joon", 500, 100, 50), _item("die", "2", 505, 100)
    assert one_per_place([tile, die_on_tile]) == [tile, die_on_tile]  # neither is a card
    apart = [card, _item("die", None, 200, 100), _item("tile", None, 100, 300)]
    assert one_per_place(apart) == apart  # no centre inside another's outline
    twins = [card, _item("card", "Kd", 105, 100, 60)]
    assert one_per_place(twins) == twins  # one kind: the card reader's own business


def test_one_per_place_either_way_round() -> None:
    # A small die inside a card's outline, and a card whose centre lies inside a large blob.
    card = _item("card", "As", 100, 100, 60)
    assert one_per_place([_item("die", None, 120, 120, 10), card]) == [card]
    assert one_per_place([_item("tile", None, 60, 60, 200), card]) == [card]
    turned = Item("card", "As", 0.9, (100.0, 100.0),
                  ((100.0, 50.0), (150.0, 100.0), (100.0, 150.0), (50.0, 100.0)))
    assert one_per_place([turned, _item("die", None, 140, 140, 10)]) == [
        turned, _item("die", None, 140, 140, 10)]  # outside the turned card's corner
    assert one_per_place([turned, _item("die", None, 120, 110, 10)]) == [turned]
