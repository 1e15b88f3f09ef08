"""The round engine: one state machine per game, the only owner of round state.

``PokerRound`` and ``TileRound`` offer every act as ``verify_x`` / ``can_x`` / ``x``, each act
appending records to the journal and folding them into ``RoundState``.  Devices and the camera
sit behind the ports in ``ports`` (fakes in ``fakes``); ``recovery.recover`` resumes or voids a
round left open by a crash.
"""

from __future__ import annotations

from .acts import ROLES, Who
from .errors import (
    DeviceLostError,
    FaultActiveError,
    IllegalActError,
    PhaseError,
    PiecesUnknownError,
    PortError,
    RoleError,
    RoundError,
)
from .fakes import FakeCamera, FakeDice, FakeShuffler
from .poker import PokerRound
from .ports import CameraPort, DicePort, DiceRoll, ShufflerPort
from .state import Phase, RoundState
from .tiles import TileRound

__all__ = [
    "ROLES", "CameraPort", "DeviceLostError", "DicePort", "DiceRoll",
    "FakeCamera", "FakeDice", "FakeShuffler", "FaultActiveError", "IllegalActError",
    "Phase", "PhaseError", "PiecesUnknownError", "PokerRound", "PortError", "RoleError",
    "RoundError", "RoundState", "ShufflerPort", "TileRound", "Who",
]
