"""The round engine's exceptions: one root, a refused act naming why, and port failures."""

from __future__ import annotations

from ..errors import ControllerError


class RoundError(ControllerError):
    """Root of the errors raised by the round engine; the message is one line."""


class IllegalActError(RoundError, ValueError):
    """An act refused in the round's current state; ``act`` names it and the message says why."""

    def __init__(self, act: str, reason: str) -> None:
        super().__init__(f"cannot {act}: {reason}")
        self.act = act
        self.reason = reason


class RoleError(IllegalActError, PermissionError):
    """An act refused because the one asking has not the role it needs."""


class PhaseError(IllegalActError):
    """An act refused because the round is not at the step that allows it."""


class PiecesUnknownError(IllegalActError):
    """An act refused only for want of a position's pieces, which no device told: the operator
    gives them with the act (the display still offers it)."""


class FaultActiveError(IllegalActError):
    """An act refused because a fault that affects the outcome is active."""


class PortError(RoundError):
    """A device or the camera failed to answer as its port promises."""


class DeviceLostError(PortError, ConnectionError):
    """A device stopped answering (unplugged, powered off, timed out)."""
