"""Helpers of the device tests: back ends (the in-process fake, the simulator over a pty and over
TCP as real processes that are always stopped, real hardware from ``--hardware URL``) and
bounded waits."""

from __future__ import annotations

import contextlib
import queue
import selectors
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, TypeVar

import pytest

from firmware_interfaces.device import SerialDevice
from firmware_interfaces.errors import DeviceError
from firmware_interfaces.events import DeviceEvent
from firmware_interfaces.identity import Expected
from firmware_interfaces.port import Connector
from firmware_interfaces.probe import probe
from firmware_interfaces.serial_driver import Timing
from firmware_interfaces.sim import FakeDevice, fake_shaker, fake_shuffler

# Short limits so fault tests finish quickly; generous enough for a loaded CI machine.
TIMING = Timing(ack_timeout=0.3, reply_timeout=3.0, retries=5, backoff_initial=0.02,
                backoff_max=0.25)
BACKENDS = ["fake", "pty", "tcp", "hardware"]
START_LIMIT = 20.0
D = TypeVar("D", bound=SerialDevice[Any, Any])


class SimProcess:
    """``python -m firmware_interfaces.sim`` as a child process; its first stdout line is read
    with a bounded wait, and ``stop`` always ends it."""

    def __init__(self, device: str, transport: str, *options: str,
                 command: tuple[str, ...] = ("firmware_interfaces.sim",)) -> None:
        where = ["--pty"] if transport == "pty" else ["--tcp", "127.0.0.1:0"]
        self._stderr = tempfile.TemporaryFile()  # noqa: SIM115 (closed by stop)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", *command, device, *where, *options],
            stdout=subprocess.PIPE, stderr=self._stderr, stdin=subprocess.DEVNULL,
        )
        try:
            self.url = self._first_line()
        except BaseException:
            self.stop()
            raise

    def _first_line(self) -> str:
        assert self.proc.stdout is not None
        selector = selectors.DefaultSelector()
        selector.register(self.proc.stdout, selectors.EVENT_READ)
        deadline = time.monotonic() + START_LIMIT
        line = b""
        while not line.endswith(b"\n"):
            left = deadline - time.monotonic()
            if left <= 0 or not selector.select(left):
                raise RuntimeError(f"simulator printed no URL within {START_LIMIT} s")
            chunk = self.proc.stdout.read1(256)  # type: ignore[attr-defined]
            if not chunk:
                raise RuntimeError(f"simulator exited: {self.stderr()}")
            line += chunk
        return line.decode().splitlines()[0]

    def stderr(self) -> str:
        """What the simulator wrote to stderr so far."""
        self._stderr.seek(0)
        return self._stderr.read().decode(errors="replace")

    def stop(self) -> int:
        """Terminate (then kill if needed) and return the exit status."""
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        if self.proc.stdout is not None:
            self.proc.stdout.close()
        self._stderr.close()
        return self.proc.returncode


@dataclass
class Backend:
    """Where the contract tests find a device, and what they may do to it."""

    name: str
    target: str | Connector
    controllable: bool = True
    fake: FakeDevice | None = None
    _opened: list[SerialDevice[Any, Any]] = field(default_factory=list)

    def open(self, driver: type[D], expected: Expected | None = None,
             on_event: Callable[[DeviceEvent], None] | None = None,
             timing: Timing = TIMING) -> D:
        """Open ``driver`` on this back end; closed at the end of the test."""
        device = driver.open(self.target, expected, timing=timing, on_event=on_event)
        self._opened.append(device)
        return device

    def require_control(self) -> None:
        """Skip a fault-injection test on real hardware."""
        if not self.controllable:
            pytest.skip("fault injection needs a simulator")

    def close(self) -> None:
        for device in self._opened:
            device.close()


def _hardware(config: pytest.Config, kind: str) -> str:
    for url in config.getoption("--hardware"):
        with contextlib.suppress(DeviceError):
            if probe(url).hello.device == kind:
                return str(url)
    pytest.skip(f"no --hardware URL with a {kind} (give --hardware URL to run on a device)")


@contextlib.contextmanager
def backend(kind: str, device: str, config: pytest.Config) -> Iterator[Backend]:
    """A back end of ``kind`` serving a seeded ``device``; everything started is stopped."""
    if kind == "hardware":
        b = Backend(kind, _hardware(config, device), controllable=False)
        try:
            yield b
        finally:
            b.close()
        return
    if kind == "fake":
        fake = fake_shuffler(11) if device == "shuffler" else fake_shaker(11)
        b = Backend(kind, fake.connect, fake=fake)
        try:
            yield b
        finally:
            b.close()
            fake.close()
        return
    sim = SimProcess(device, kind, "--seed", "11")
    b = Backend(kind, sim.url)
    try:
        yield b
    finally:
        b.close()
        sim.stop()


def next_event(device: SerialDevice[Any, Any], match: Callable[[DeviceEvent], bool],
               timeout: float = 5.0) -> DeviceEvent:
    """The first queued event that ``match``es, waiting at most ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    seen = []
    while (left := deadline - time.monotonic()) > 0:
        try:
            event = device.events.get(timeout=left)
        except queue.Empty:
            break
        if match(event):
            return event
        seen.append(str(event))
    raise AssertionError(f"no matching event within {timeout} s; saw {seen}")


def eventually(check: Callable[[], bool], timeout: float = 5.0, every: float = 0.02) -> None:
    """Wait until ``check()`` holds, at most ``timeout`` seconds (a bounded wait, not a sleep)."""
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"condition not met within {timeout} s")
        time.sleep(every)


Start = Callable[..., SimProcess]
"""The ``start_sim`` fixture's type."""
