"""Dice: render white dice with black pips, read a still roll, and wait for the dice to rest.

``read_dice(image) -> list[Item]``: each die, code ``"1"`` .. ``"6"`` or None (note ``"cocked"``
or why unsure); ``read_roll(image)`` and ``read_still_roll(frames)`` give a ``DiceRead``: the
three values, or the reason for "no game".
"""

from .faces import CODES
from .reader import DiceRead, read_dice, read_roll
from .render import DieLook, render_cocked, render_die
from .scene import DiceScene, DieTruth, dice_scene, roll_sequence
from .still import StillDetector, moved, read_still_roll, still_frame

__all__ = [
    "CODES", "DiceRead", "DiceScene", "DieLook", "DieTruth", "StillDetector", "dice_scene",
    "moved", "read_dice", "read_roll", "read_still_roll", "render_cocked", "render_die",
    "roll_sequence", "still_frame",
]
