"""The ``[camera]`` section of a table file: where the felt camera's frames come from and how
they are read.

::

    [camera]
    source = "camera:0"          # as vision.sources takes it; a relative folder or video is
                                 # found beside the table file
    layout = "paigow-poker"      # a layout among the config folders, or a .toml path
    calibration = "camera.json"  # the markers' calibration (paigow camera calibrate), relative
                                 # to the table file
    deck = "2color"              # poker: the shipped artwork's style, or a folder of faces
    width = 2560                 # the resolution asked of a camera (optional)
    height = 1440
    still_seconds = 0.4          # how long the felt lies still before it is read
    wait_seconds = 10.0          # the longest wait for a still felt; then the dealer is asked
    fps = 15.0                   # frames a second of a recording that carries no times
    dice = true                  # read the dice area after each roll, beside the shaker

The section is checked once, when the camera is made (``read_camera_config``); an unknown key
or a bad value is a ``TableConfigError`` naming the file and key.  The firmware side reads
the hardware sections only: ``hardware_text`` hands it the file with this section blanked.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..config.files import FileReadError, parse_toml, read_text
from ..config.locations import config_file
from ..rules.config_check import check_keys, require_table
from .errors import TableConfigError

SECTION = "camera"
KEYS = ("source", "layout", "calibration", "deck", "width", "height", "still_seconds",
        "wait_seconds", "fps", "dice")
_NOT_PATHS = ("camera:", "rtsp://", "http://", "https://", "scene:")
_HEADER = re.compile(r"^\s*\[\s*([A-Za-z0-9_\-\".]+?)\s*\]\s*(#.*)?$")


@dataclass(frozen=True, slots=True)
class CameraConfig:
    """A table's felt camera, checked: the table file it came from, the frame source spec,
    the layout file, the calibration file, the deck (a style name or a folder of faces), the
    resolution asked (or None), and the still-felt timings (seconds) and a recording's fps."""

    table: Path
    source: str
    layout: Path
    calibration: Path
    deck: str | Path | None
    size: tuple[int, int] | None
    still_seconds: float = 0.4
    wait_seconds: float = 10.0
    fps: float = 15.0
    dice: bool = True
    """Whether the camera reads the dice area after each roll, beside the shaker's answer."""


def read_camera_config(table: str | Path) -> CameraConfig:
    """The ``[camera]`` section of the table file ``table``; ``TableConfigError`` names the
    file and key when it is missing or wrong."""
    where = str(table)
    try:
        data = parse_toml(read_text(table, "table file"), where)
    except FileReadError as err:
        raise TableConfigError(str(err)) from err
    if SECTION not in data:
        raise TableConfigError(f"{where}: no [camera] section: add one with source, layout "
                               f"and calibration")
    return parse_camera(data[SECTION], Path(table))


def table_camera(table: str | Path) -> CameraConfig | None:
    """The ``[camera]`` section of the table file ``table``, or None when it has none (a
    table without a camera: the dealer keys every setting)."""
    where = str(table)
    try:
        data = parse_toml(read_text(table, "table file"), where)
    except FileReadError as err:
        raise TableConfigError(str(err)) from err
    return parse_camera(data[SECTION], Path(table)) if SECTION in data else None


def parse_camera(value: object, table: Path) -> CameraConfig:
    """Check a parsed ``[camera]`` table of the table file ``table``."""
    where = str(table)
    section = require_table(value, TableConfigError, f"{where}: [camera]")
    check_keys(section, KEYS, TableConfigError, where, section="in [camera]")
    for key in ("source", "layout", "calibration"):
        if key not in section:
            raise TableConfigError(f"{where}: [camera] {key} is missing")
    base = table.parent
    source = _text(section, "source", where)
    if not source.isdigit() and not source.startswith(_NOT_PATHS):
        source = str(_beside(base, source))
    layout = _text(section, "layout", where)
    layout_file = _beside(base, layout) if layout.endswith(".toml") or "/" in layout \
        else config_file("layouts", f"{layout}.toml")
    if not layout_file.is_file():
        raise TableConfigError(f"{where}: [camera] layout {layout!r}: no layout file at "
                               f"{str(layout_file)!r}")
    deck: str | Path | None = None
    if "deck" in section:
        text = _text(section, "deck", where)
        deck = _beside(base, text) if "/" in text or text.startswith(".") else text
    size = None
    if "width" in section or "height" in section:
        size = (_whole(section, "width", where), _whole(section, "height", where))
    return CameraConfig(table, source, layout_file,
                        _beside(base, _text(section, "calibration", where)), deck, size,
                        _seconds(section, "still_seconds", 0.4, where),
                        _seconds(section, "wait_seconds", 10.0, where, positive=True),
                        _seconds(section, "fps", 15.0, where, positive=True),
                        _flag(section, "dice", True, where))


def hardware_text(text: str, where: str) -> str:
    """A table file's text with its ``[camera]`` section blanked (lines kept, so the hardware
    reader's errors still give the right line); ``TableConfigError`` when the section is not
    written as its own ``[camera]`` table, which blanking could not take out cleanly."""
    try:
        data = parse_toml(text, where)
    except FileReadError as err:
        raise TableConfigError(str(err)) from err
    if SECTION not in data:
        return text
    lines = text.splitlines(keepends=True)
    inside = False
    for i, line in enumerate(lines):
        header = _HEADER.match(line)
        if header is not None:
            name = header.group(1).strip('"')
            inside = name == SECTION or name.startswith(SECTION + ".")
        if inside:
            lines[i] = "\n"
    rest = "".join(lines)
    left = parse_toml(rest, where)
    if left != {k: v for k, v in data.items() if k != SECTION}:
        raise TableConfigError(f"{where}: write the camera's settings as one [camera] table "
                               f"(its own header, after the top-level keys)")
    return rest


def _beside(base: Path, text: str) -> Path:
    path = Path(text).expanduser()
    return path if path.is_absolute() else base / path


def _text(section: dict[str, Any] | Any, key: str, where: str) -> str:
    value = section[key]
    if not isinstance(value, str) or not value.strip():
        raise TableConfigError(f"{where}: [camera] {key} must be non-empty text, not {value!r}")
    return value.strip()


def _whole(section: dict[str, Any] | Any, key: str, where: str) -> int:
    value = section.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or not 16 <= value <= 16384:
        raise TableConfigError(f"{where}: [camera] {key} must be a whole number of pixels "
                               f"(16..16384; width and height go together), not {value!r}")
    return value


def _flag(section: dict[str, Any] | Any, key: str, default: bool, where: str) -> bool:
    value = section.get(key, default)
    if not isinstance(value, bool):
        raise TableConfigError(f"{where}: [camera] {key} must be true or false, not {value!r}")
    return value


def _seconds(section: dict[str, Any] | Any, key: str, default: float, where: str,
             positive: bool = False) -> float:
    value = section.get(key, default)
    ok = not isinstance(value, bool) and isinstance(value, int | float) \
        and math.isfinite(value) and (value > 0 if positive else value >= 0)
    if not ok:
        raise TableConfigError(f"{where}: [camera] {key} must be a number "
                               f"{'> 0' if positive else '>= 0'}, not {value!r}")
    return float(value)


__all__ = ["KEYS", "CameraConfig", "hardware_text", "parse_camera", "read_camera_config"]
