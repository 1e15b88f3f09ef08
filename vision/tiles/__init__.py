"""Pai Gow tiles: render the 32 tiles, read them from a frame, check a round's set.

``read_tiles(image) -> list[Item]``: every tile on the felt, code ``"a-b"`` (low end first) or
None when unsure; ``check_set(codes)``: the 32-tile set check.  See docs/architecture.md.
"""

from .check import PAIRS, SetCheck, check_set
from .faces import CODES, STANDARD_COLOURS, PipColours, full_set
from .pips import TileRead, read_face
from .reader import read_tiles
from .render import TileLook, render_tile
from .scene import Scene, Truth, tile_scene

__all__ = [
    "CODES", "PAIRS", "STANDARD_COLOURS", "PipColours", "Scene", "SetCheck", "TileLook",
    "TileRead", "Truth", "check_set", "full_set", "read_face", "read_tiles", "render_tile",
    "tile_scene",
]
