"""The shared Item record: validation, withdrawal, JSON round trip."""

from __future__ import annotations

import json

import pytest

from vision.items import Item, box_corners


def make(code: str | None = "As", confidence: float = 0.9) -> Item:
    return Item("card", code, confidence, (10.0, 20.0), box_corners(10, 20, 4, 6))


def test_json_round_trip() -> None:
    item = make().in_region("seat1.high")
    back = Item.from_json(json.loads(json.dumps(item.to_json())))
    assert back == item
    assert item.to_json()["code"] == "As"


def test_unknown_keeps_position_and_says_why() -> None:
    item = make().unknown("duplicate")
    assert item.code is None and not item.known and item.note == "duplicate"
    assert item.to_json()["code"] is None
    assert item.center == (10.0, 20.0)


@pytest.mark.parametrize(("kind", "confidence"), [("chip", 0.5), ("card", 1.5), ("die", -0.1)])
def test_bad_values_are_named(kind: str, confidence: float) -> None:
    with pytest.raises(ValueError, match=r"kind|confidence"):
        Item(kind, "As", confidence, (0.0, 0.0), box_corners(0, 0, 1, 1))  # type: ignore[arg-type]


def test_box_corners_order() -> None:
    assert box_corners(0, 0, 2, 4) == ((-1, -2), (1, -2), (1, 2), (-1, 2))


def test_moved_shifts_centre_and_corners_alone() -> None:
    item = make().in_region("dice")
    moved = item.moved(100.0, -5.0)
    assert moved.center == (110.0, 15.0)
    assert moved.corners == box_corners(110, 15, 4, 6)
    assert (moved.code, moved.confidence, moved.region) == (item.code, item.confidence, "dice")
