"""The one exception root of ``vision`` and its precise subclasses (each also a built-in)."""

from __future__ import annotations


class VisionError(Exception):
    """Root of every error raised by ``vision``; messages are one line naming the bad value."""


class ImageError(VisionError, ValueError):
    """An image that cannot be read or used: missing, corrupt, wrong shape."""


class SourceError(VisionError, OSError):
    """A frame source that cannot be opened or read (camera, folder, video)."""


class LayoutError(VisionError, ValueError):
    """A table layout file that is missing or invalid; the message names the key."""


class CalibrationError(VisionError, ValueError):
    """A deck calibration that cannot be made or loaded; the message names the face or file."""
