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
    """A deck or camera calibration that cannot be made or loaded; the message names the
    face, marker, file or key."""


class MarkerError(VisionError, LookupError):
    """A layout's markers not found in a frame, or seen where they cannot be; ``missing``
    holds the ids not found."""

    def __init__(self, message: str, missing: tuple[int, ...] = ()) -> None:
        super().__init__(message)
        self.missing = missing


class CameraMoved(VisionError, RuntimeError):
    """The camera no longer sees the felt as it was calibrated: its markers moved or are
    hidden. A fault: nothing read by it can be placed until it is calibrated again.
    ``missing`` holds the ids not seen, ``shifts`` each seen marker's largest corner shift
    (pixels)."""

    def __init__(self, message: str, missing: tuple[int, ...] = (),
                 shifts: dict[int, float] | None = None) -> None:
        super().__init__(message)
        self.missing = missing
        self.shifts = dict(shifts or {})
