"""The engine's ``ShufflerPort`` on a card shuffler driver (a simulator process or the machine).

``shuffle`` returns the cards the machine counted; a deck it counted as 53 but found a
duplicate or a foreign card in counts one good card short, so the engine's card-count fault
pauses the round rather than dealing from a bad deck (``last_shuffle`` keeps the device's own
report).  ``next_packet`` returns the packet's card codes.  Randomness is what the device's
hello says: ``seeded:N`` for a seeded simulator, ``secrets`` otherwise.
"""

from __future__ import annotations

from firmware_interfaces.link_config import Timing
from firmware_interfaces.protocol.shuffler import Packet, ShuffleResult
from firmware_interfaces.shuffler import ShufflerDriver

from ..round.errors import DeviceLostError, PortError
from .device_calls import SerialPort, check_fault, device_call, silence_for

BAD_CARD_STATES = ("duplicate", "foreign")
SHUFFLER_FAULTS = ("lost", "short_count", "duplicate")
"""Faults ``inject`` makes a simulated shuffler produce (the names the round fakes use)."""
DUPLICATED = "As"


class SerialShufflerPort(SerialPort[ShufflerDriver]):
    """A ``ShufflerPort`` on a ``ShufflerDriver``; ``history`` keeps what it answered."""

    def __init__(self, driver: ShufflerDriver, name: str = "shuffler-1",
                 timing: Timing | None = None) -> None:
        if not driver.reads_cards:
            raise PortError(f"{name}: model {driver.hello.model!r} does not read the cards it "
                            f"deals; the table needs a reading shuffler")
        super().__init__(driver, name, timing)
        self.last_shuffle: ShuffleResult | None = None
        self._restore: dict[str, str | int] = {}
        self.calls = {"shuffle": ("shuffle", self._shuffle), "deal_packet": ("deal a packet",
                                                                           self.driver.deal)}

    def shuffle(self) -> int:
        """Shuffle and return the good cards counted (53 when the deck is whole)."""
        result: ShuffleResult = self._call("shuffle")
        self.last_shuffle = result
        count = result.count - 1 if result.deck in BAD_CARD_STATES else result.count
        self.history.append(f"shuffle {result.shuffle}: {result.count} cards, deck "
                            f"{result.deck}" + (f" {' '.join(result.cards)}" if result.cards
                                                else ""))
        return count

    def next_packet(self) -> tuple[str, ...]:
        """Deliver the next packet and return its card codes."""
        packet: Packet = self._call("deal_packet")
        if packet.cards is None:
            raise PortError(f"{self._name}: packet {packet.n} came without its cards")
        self.history.append(f"packet {packet.n}: {' '.join(packet.cards)}")
        return tuple(packet.cards)

    def _shuffle(self) -> ShuffleResult:
        """The device's shuffle, then a whole deck loaded again (unless stopped)."""
        try:
            return self.driver.shuffle()
        finally:
            if not self._interrupted.is_set():
                self._undo_deck_faults()

    def control(self, **settings: str | int | float | bool) -> None:
        """Simulator fault injection (``jam_after=0``, ``cards=52``, ``door=True``)."""
        device_call(self._name, "take a control command",
                    lambda: self.driver.control(**settings))

    def inject(self, fault: str) -> None:
        """Make the simulator fail the next call: ``lost`` (silent through every retry),
        ``short_count`` (52 cards at the next shuffle), ``duplicate`` (a second copy of a card
        at the next shuffle)."""
        check_fault(self._name, fault, SHUFFLER_FAULTS)
        if fault == "lost":
            self.control(silence=silence_for(self._timing))
        elif fault == "short_count":
            self.control(cards=52)
            self._restore["cards"] = 53
        else:
            self.control(duplicate=DUPLICATED)
            self._restore["duplicate"] = "-"
        self.history.append(f"inject {fault}")

    def _undo_deck_faults(self) -> None:
        """After a shuffle, load a whole deck again (the injected fault served once)."""
        if not self._restore:
            return
        try:
            self.control(**self._restore)
        except DeviceLostError:
            return  # still pending: undone after the next shuffle
        self._restore = {}

    def close(self) -> None:
        """Release the line."""
        self.driver.close()
