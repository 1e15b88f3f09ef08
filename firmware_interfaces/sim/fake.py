"""The in-process fake: a simulated device and its link behind a Python object, no serial.

``FakeDevice.connect`` is a connector, so ``ShufflerDriver.open(fake.connect)`` runs the
driver against the very device logic the simulator process runs, over an in-memory line.
"""

from __future__ import annotations

from types import TracebackType
from typing import Self

from ..port import Port
from .base import SimDevice
from .link import DeviceLink, LinkFaults
from .pipe import PipeListener
from .runner import Runner
from .shaker import ShakerFaults, ShakerSim
from .shuffler import ShufflerFaults, ShufflerSim

INJECT_WAIT = 2.0


class FakeDevice:
    """A simulated device served in a background thread; ``connect`` opens a line to it."""

    def __init__(self, device: SimDevice, faults: LinkFaults | None = None) -> None:
        self.device = device
        self.link = DeviceLink(device, faults)
        self._listener = PipeListener()
        self._runner = Runner(self.link, self._listener).start()

    def connect(self) -> Port:
        """Open a new line to the device (use as the driver's connector)."""
        return self._listener.connect()

    def inject(self, **settings: str | int | float | bool) -> None:
        """Apply control settings as the ``CTRL`` command would (faults, door, lid, button).

        Applied by the serving thread while a host is connected; waits until then (bounded).
        """
        pairs = tuple((k, _text(v)) for k, v in settings.items())
        self.link.post(pairs).wait(INJECT_WAIT)

    @property
    def seen(self) -> list[str]:
        """Every request the device received, as text, in order (its history)."""
        return list(self.link.seen)

    @property
    def drops(self) -> int:
        """How many times the device dropped the line (fault)."""
        return self._runner.drops

    def close(self) -> None:
        """Stop the device."""
        self._runner.stop()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, kind: type[BaseException] | None, err: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()


def fake_shuffler(seed: int | None = None, *, reads_cards: bool = True,
                  faults: ShufflerFaults | None = None,
                  line: LinkFaults | None = None) -> FakeDevice:
    """A fake card shuffler (seeded for repeatable decks, else ``secrets``)."""
    return FakeDevice(ShufflerSim(seed, faults, reads_cards), line)


def fake_shaker(seed: int | None = None, *, faults: ShakerFaults | None = None,
                line: LinkFaults | None = None) -> FakeDevice:
    """A fake dice shaker (seeded for repeatable dice, else ``secrets``)."""
    return FakeDevice(ShakerSim(seed, faults), line)


def _text(value: str | int | float | bool) -> str:
    if isinstance(value, bool):
        return "1" if value else "0"
    return str(value)
