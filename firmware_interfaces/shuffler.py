"""The card shuffler driver: shuffle, deal the next packet, status, counters.

Its API has no way to learn the order of cards not yet dealt: a packet's cards are known only
once it is delivered (``tests/devices/test_secrecy.py``).
"""

from __future__ import annotations

from .device import SerialDevice
from .protocol.shuffler import (
    DEVICE_CATALOGUE,
    DealCmd,
    Packet,
    ShuffleCmd,
    ShufflerCounters,
    ShuffleResult,
    ShufflerStatus,
)

SHUFFLE_TIMEOUT = 60.0
DEAL_TIMEOUT = 10.0


class ShufflerDriver(SerialDevice[ShufflerStatus, ShufflerCounters]):
    """A Pai Gow Poker card shuffler on a serial line."""

    DEVICE = "shuffler"
    CATALOGUE = DEVICE_CATALOGUE
    STATUS = ShufflerStatus
    COUNTERS = ShufflerCounters

    @property
    def reads_cards(self) -> bool:
        """True when this model names the cards of each packet it deals."""
        return "read_cards" in self.hello.caps

    def shuffle(self) -> ShuffleResult:
        """Shuffle and count the deck; check ``result.ok`` (53 distinct cards) before dealing."""
        return self._link.call(ShuffleCmd(), ShuffleResult, SHUFFLE_TIMEOUT)

    def deal(self) -> Packet:
        """Deliver the next packet of seven; ``DeviceFault`` (code ``jam``...) if it cannot."""
        return self._link.call(DealCmd(), Packet, DEAL_TIMEOUT)
