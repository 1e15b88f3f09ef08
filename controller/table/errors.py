"""The table package's exceptions: one root, a bad table file, a device that cannot serve."""

from __future__ import annotations

from ..errors import ConfigError, ControllerError


class TableError(ControllerError):
    """Root of the errors raised by ``controller.table``; the message is one line."""


class TableConfigError(TableError, ConfigError):
    """A table file or argument that cannot work (names the file, section and key)."""


class TableDeviceError(TableError, ConnectionError):
    """A device that cannot be opened, or is refused because its hello does not match."""


class SimulatorError(TableError, RuntimeError):
    """A simulator process that did not start or report where to open it."""


class CameraInputError(TableError, ValueError):
    """A position or setting text the camera is told about that cannot be on the felt."""


class AssetsMissingError(TableError, FileNotFoundError):
    """The camera's card artwork is missing or cannot be drawn (``controller.table.artwork``)."""
