"""What a recogniser reports: one frozen ``Item`` per card, tile or die found in a frame.

Shared by ``vision.cards``, ``vision.tiles`` and ``vision.dice``. Codes are plain strings
(cards ``"As"``, ``"Td"``, ``"Jk"``; tiles and dice as their readers define them); ``code``
is ``None`` when the item was found but could not be read with confidence: the dealer is asked.
Positions are image pixels, ``x`` to the right and ``y`` down.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Literal

Kind = Literal["card", "tile", "die"]
Point = tuple[float, float]
KINDS: tuple[Kind, ...] = ("card", "tile", "die")


@dataclass(frozen=True)
class Item:
    """One card, tile or die seen in a frame, with its reading and where it lies.

    ``corners`` is the item's outline in the image, four points in the item's own order
    (top-left, top-right, bottom-right, bottom-left as the item is read upright), partly
    estimated when the item is covered; ``center`` is its middle. ``confidence`` is in
    [0, 1]; ``note`` says why an item is unknown. For a card: ``"unsure"`` (read, but not
    surely), ``"odd size"`` (implies a card of another size than the rest), ``"conflict"``
    (two names for one card), ``"outvoted"`` (a weak name against another at its place),
    ``"duplicate"`` (one name at two places), ``"off cards"`` (implies a card over the felt),
    ``"faint"`` (its index not dark as printed ink).
    ``region`` is the layout region holding ``center``, when a layout was given.
    """

    kind: Kind
    code: str | None
    confidence: float
    center: Point
    corners: tuple[Point, Point, Point, Point]
    region: str | None = None
    note: str | None = None

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"item kind {self.kind!r}: expected one of {', '.join(KINDS)}")
        if not 0.0 <= self.confidence <= 1.0:
            raise ValueError(f"item confidence {self.confidence!r}: expected 0..1")

    @property
    def known(self) -> bool:
        """True when the item was read (``code`` is not ``None``)."""
        return self.code is not None

    def unknown(self, note: str) -> Item:
        """The same item with its reading withdrawn, saying why."""
        return dataclasses.replace(self, code=None, note=note)

    def moved(self, dx: float, dy: float) -> Item:
        """The same item shifted by (``dx``, ``dy``) pixels: read in a crop, placed in the frame."""
        a, b, c, d = ((x + dx, y + dy) for x, y in self.corners)
        return dataclasses.replace(self, center=(self.center[0] + dx, self.center[1] + dy),
                                   corners=(a, b, c, d))

    def in_region(self, region: str | None) -> Item:
        """The same item placed in a layout region (``None``: outside every region)."""
        return dataclasses.replace(self, region=region)

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict (coordinates rounded to 0.1 px, confidence to 0.001)."""
        return {
            "kind": self.kind,
            "code": self.code,
            "confidence": round(self.confidence, 3),
            "center": [round(self.center[0], 1), round(self.center[1], 1)],
            "corners": [[round(x, 1), round(y, 1)] for x, y in self.corners],
            "region": self.region,
            "note": self.note,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Item:
        """The item back from ``to_json`` output (a recorded frame's result)."""
        (x, y) = data["center"]
        c = [(float(px), float(py)) for px, py in data["corners"]]
        if len(c) != 4:
            raise ValueError(f"item corners {data['corners']!r}: expected four points")
        return cls(
            kind=data["kind"],
            code=data["code"],
            confidence=float(data["confidence"]),
            center=(float(x), float(y)),
            corners=(c[0], c[1], c[2], c[3]),
            region=data.get("region"),
            note=data.get("note"),
        )


def box_corners(cx: float, cy: float, w: float, h: float) -> tuple[Point, Point, Point, Point]:
    """The corners of an upright ``w`` x ``h`` box centred on (cx, cy), in ``Item`` order."""
    hw, hh = w / 2, h / 2
    return ((cx - hw, cy - hh), (cx + hw, cy - hh), (cx + hw, cy + hh), (cx - hw, cy + hh))
