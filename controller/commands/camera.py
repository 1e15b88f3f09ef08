"""``paigow camera calibrate --table FILE [--frame IMAGE] [--json]``: calibrate a table's camera
by its layout's printed markers; ``paigow camera sheet --layout NAME --out FILE.svg``: the
printable sheet that carries them.

It takes one frame from the ``[camera]`` source of the table file (or reads IMAGE), finds the
layout's ArUco markers (``vision.markers.calibrate``), writes the calibration file the table
names and prints one line: the markers found and the fit's error in pixels.  A marker not
found, or any bad input, is one ``paigow: error: ...`` line and exit status 2.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..errors import ControllerError
from .common import run_alone

# The camera's modules (numpy, OpenCV) are imported by the handler, not when ``paigow``
# starts: the process's thread settings must come before numpy loads (``commands.startup``).


class CameraCommandError(ControllerError, ValueError):
    """A camera command that could not be done; the message is one line."""


def cmd_calibrate(args: argparse.Namespace) -> int:
    """Calibrate the table's camera from one frame; write the calibration the table names."""
    from vision.errors import VisionError
    from vision.layout import Layout
    from vision.markers import calibrate
    from vision.sources import read_image

    from ..table.camera_config import read_camera_config
    from ..table.camera_source import open_camera_source

    config = read_camera_config(args.table)
    try:
        layout = Layout.load(config.layout)
        if args.frame is not None:
            image, taken = read_image(args.frame), str(args.frame)
        else:
            source = open_camera_source(config)
            try:
                frame = source.read()
            finally:
                source.close()
            if frame is None:
                raise CameraCommandError(f"[camera] source {config.source!r} gave no frame")
            image, taken = frame.image, frame.name
        calibration = calibrate(image, layout)
        config.calibration.parent.mkdir(parents=True, exist_ok=True)
        calibration.save(config.calibration)
    except VisionError as err:
        raise CameraCommandError(f"{args.table}: {err}") from err
    except OSError as err:
        raise CameraCommandError(f"{args.table}: cannot write the calibration "
                                 f"{str(config.calibration)!r}: {err.strerror or err}") from err
    ids = [i for i, _ in calibration.markers]
    report: dict[str, Any] = {"table": str(args.table), "layout": layout.name, "frame": taken,
                              "markers": ids, "error_px": round(calibration.error_px, 3),
                              "image_size": list(calibration.image_size),
                              "calibration": str(config.calibration)}
    if args.json:
        print(json.dumps(report))
    else:
        w, h = calibration.image_size
        print(f"{layout.name}: markers {', '.join(map(str, ids))} found in {w} x {h}, fit "
              f"error {calibration.error_px:.2f} px; wrote {config.calibration}")
    return 0


def layout_path(name: str) -> Path:
    """A layout given as a file, or by name among the config folders (``paigow-poker``)."""
    from ..config.locations import config_file

    given = Path(name)
    if given.suffix == ".toml" or given.is_file():
        return given
    return config_file("layouts", f"{name}.toml")


def cmd_sheet(args: argparse.Namespace) -> int:
    """Write the layout's printable sheet (SVG, true scale in mm) with its ArUco markers."""
    from vision.errors import VisionError
    from vision.layout import Layout
    from vision.layout_sheet import sheet_svg

    path = layout_path(args.layout)
    try:
        layout = Layout.load(path)
        text = sheet_svg(layout)
    except VisionError as err:
        raise CameraCommandError(f"layout {args.layout!r}: {err}") from err
    try:
        args.out.write_text(text, encoding="utf-8")
    except OSError as err:
        raise CameraCommandError(f"cannot write {str(args.out)!r}: "
                                 f"{err.strerror or err}") from err
    print(f"{layout.name}: sheet written to {args.out} (print at 100 %; check the 100 mm bar)")
    return 0


def add_parsers(subparsers: Any) -> None:
    """Register ``camera calibrate`` and ``camera sheet`` on an ``add_subparsers()`` object."""
    camera = subparsers.add_parser("camera", help="the table's camera on the felt")
    sub = camera.add_subparsers(dest="camera_command", required=True, metavar="COMMAND")
    p = sub.add_parser("calibrate", help="find the layout's markers, write the calibration")
    p.add_argument("--table", required=True, type=Path, metavar="FILE",
                   help="the table file whose [camera] section names source, layout and "
                        "calibration")
    p.add_argument("--frame", type=Path, metavar="IMAGE",
                   help="calibrate from this image instead of a frame of the source")
    p.add_argument("--json", action="store_true", help="one JSON object")
    p.set_defaults(handler=cmd_calibrate)
    p = sub.add_parser("sheet", help="write the layout's printable sheet with its markers (SVG)")
    p.add_argument("--layout", required=True, metavar="NAME",
                   help="a layout name (paigow-poker, paigow-tiles) or a layout file")
    p.add_argument("--out", required=True, type=Path, metavar="FILE.svg")
    p.set_defaults(handler=cmd_sheet)


def main(argv: Sequence[str] | None = None) -> int:
    """Run this subcommand alone (``python -m controller.commands.camera``)."""
    return run_alone(add_parsers, argv)


if __name__ == "__main__":
    raise SystemExit(main())
