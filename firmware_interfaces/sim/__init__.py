"""Simulated devices with fault injection: as processes (pty, TCP) or as an in-process fake."""

from .base import firmware_hash
from .fake import FakeDevice, fake_shaker, fake_shuffler
from .link import LinkFaults
from .shaker import ShakerFaults, ShakerSim
from .shuffler import ShufflerFaults, ShufflerSim

__all__ = [
    "FakeDevice",
    "LinkFaults",
    "ShakerFaults",
    "ShakerSim",
    "ShufflerFaults",
    "ShufflerSim",
    "fake_shaker",
    "fake_shuffler",
    "firmware_hash",
]
