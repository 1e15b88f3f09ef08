"""Replaying a device line: a port that answers the host from a capture, with no device.

``Replay(path).connect`` is a connector (``ShufflerDriver.open(replay.connect)``); each call
plays the capture's next opening. The rules (``docs/recordings.md``):

- The device's bytes recorded before the host's next recorded write become readable at once
  (with ``pace=True``, not before their recorded delay after that write); the rest wait.
- Each host write must equal the next recorded write; writes recorded with no read between
  them may come in any order (two threads of the host wrote them). Anything else raises
  ``ReplayMismatch`` naming the chunk and both byte strings, and ``check_complete`` raises the
  first mismatch again, or names a recorded write the host never made.
- Recorded failures come back as failures: an ``open_failed`` as ``LineLost``, a
  ``read_error`` or ``write_error`` as pyserial's ``SerialException`` at the same point.
- The hello: the port hands the link the session and nonce of its recorded HELLO
  (``serial_driver.RecordedHello``), so the host writes the recorded hello and the recorded
  answer's MAC checks with the table's key. Live lines draw both from ``secrets``.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import serial

from .capture_file import Capture, CaptureFileError, Step, load_capture
from .errors import DeviceError, ProtocolError
from .port import READ_TIMEOUT, LineLost, Port
from .protocol.common import HelloCmd
from .protocol.frame import Frame, Kind
from .protocol.records import Catalogue
from .protocol.stream import StreamDecoder

_HELLO = Catalogue((HelloCmd,))


class ReplayMismatch(DeviceError):
    """The host did not do what the recorded host did at this point of a capture."""


class Replay:
    """A capture played back as a device line; ``connect`` is the driver's connector.

    ``pace=True`` keeps the recorded delay between a host write and the device's answer
    (and its later events); by default the answers are there at once. ``clock``, when given,
    says how far a replay of the whole recording has come, on the captures' ``t`` scale: a
    device chunk waits until ``clock() >= t`` too, so the device's events fall in their place
    among the recording's other parts (frames, operator inputs).
    """

    def __init__(self, path: str | Path, *, pace: bool = False,
                 clock: Callable[[], float] | None = None,
                 timeout: float = READ_TIMEOUT) -> None:
        self.capture = load_capture(path)
        self.pace, self.clock, self.timeout = pace, clock, timeout
        steps = self.capture.steps
        if steps and steps[0].op not in ("open", "open_failed"):
            raise CaptureFileError(f"{self.capture.path}:2: the first step is "
                                   f"{steps[0].op!r}, not an open")
        self._attempts = [i for i, s in enumerate(steps) if s.op in ("open", "open_failed")]
        self._next = 0
        self._ports: list[ReplayPort] = []
        self._lock = threading.Lock()
        self._mismatch: ReplayMismatch | None = None

    def connect(self) -> Port:
        """The line of the capture's next opening; ``LineLost`` where the recorded host could
        not open it, or when every recorded opening has been played."""
        with self._lock:
            if self._next >= len(self._attempts):
                raise LineLost(f"{self.capture.path}: every one of its {len(self._attempts)} "
                               f"recorded openings has been played")
            start = self._attempts[self._next]
            self._next += 1
            end = (self._attempts[self._next] if self._next < len(self._attempts)
                   else len(self.capture.steps))
        opening = self.capture.steps[start]
        if opening.op == "open_failed":
            raise LineLost(opening.error)
        port = ReplayPort(self, range(start + 1, end), opening.t)
        with self._lock:
            self._ports.append(port)
        return port

    def mismatch(self, err: ReplayMismatch) -> ReplayMismatch:
        """Keep the first mismatch (a reader thread may swallow it) and hand it back."""
        with self._lock:
            self._mismatch = self._mismatch or err
        return err

    def check_complete(self) -> None:
        """Raise ``ReplayMismatch`` for the first difference: a write that did not match, an
        opening or a recorded write the host never made. Device bytes left unread are fine."""
        if self._mismatch is not None:
            raise self._mismatch
        if self._next < len(self._attempts):
            raise ReplayMismatch(f"{self.capture.path}: the recorded host opened the line "
                                 f"{len(self._attempts)} times, this host {self._next}")
        for port in self._ports:
            port.check_complete()

    def where(self, index: int) -> str:
        """Step ``index`` named for a message: file, chunk and line."""
        return f"{self.capture.path} chunk {index} (line {Capture.line_of(index)})"


class ReplayPort:
    """One recorded opening of a line, answering the host's writes as the device did."""

    def __init__(self, replay: Replay, steps: range, opened_at: float) -> None:
        self._replay = replay
        self._all = replay.capture.steps
        self._steps = steps
        self._at = 0  # position in _steps of the next step not yet played
        self._matched: set[int] = set()  # writes of the group under way the host has made
        self._buffer = bytearray()
        self._anchor = (time.monotonic(), opened_at)  # (now, recorded t) of the last write
        self._cond = threading.Condition()
        self._closed = False
        self._hello = _recorded_hello([self._all[i] for i in steps])

    # --- the hello's draws (serial_driver.RecordedHello) --------------------------------------

    def hello_session(self) -> str:
        """The session of the HELLO recorded on this opening."""
        return self._recorded_hello()[0]

    def hello_nonce(self) -> str:
        """The nonce of the HELLO recorded on this opening."""
        return self._recorded_hello()[1]

    def _recorded_hello(self) -> tuple[str, str]:
        if self._hello is None:
            raise self._replay.mismatch(ReplayMismatch(
                f"{self._replay.where(self._steps.start - 1)}: the host says hello on a line where "
                f"the recorded host wrote no HELLO with a session and nonce"))
        return self._hello

    # --- Port ---------------------------------------------------------------------------------

    @property
    def in_waiting(self) -> int:
        """Recorded device bytes readable now."""
        with self._cond:
            self._check_open()
            self._release(time.monotonic())
            if not self._buffer:
                self._raise_read_error()
            return len(self._buffer)

    def read(self, size: int = 1, /) -> bytes:
        """Up to ``size`` recorded device bytes, waiting at most the timeout for them."""
        deadline = time.monotonic() + self._replay.timeout
        with self._cond:
            while True:
                self._check_open()
                now = time.monotonic()
                due = self._release(now)
                if self._buffer:
                    data = bytes(self._buffer[:size])
                    del self._buffer[:size]
                    return data
                self._raise_read_error()
                if now >= deadline:
                    return b""
                self._cond.wait((deadline if due is None else min(deadline, due)) - now)

    def write(self, data: bytes, /) -> int | None:
        """Check ``data`` against the recorded writes due now, then let the answer through."""
        data = bytes(data)
        with self._cond:
            self._check_open()
            while (step := self._step()) is not None and step[1].op == "read":
                self._take(step[1])  # the host has moved on: what came before is there
            group = self._group()
            if not group:
                found = "the end of the line" if step is None else f"a {step[1].op}"
                at = step[0] if step is not None else self._steps.stop - 1
                raise self._replay.mismatch(ReplayMismatch(
                    f"{self._replay.where(at)}: the host wrote {data.hex()} where the capture "
                    f"has {found}"))
            chosen = next((i for i in group if i not in self._matched
                           and self._all[i].data == data), None)
            if chosen is None:
                first = next(i for i in group if i not in self._matched)
                raise self._replay.mismatch(ReplayMismatch(
                    f"{self._replay.where(first)}: the host wrote {data.hex()}, the capture "
                    f"has {self._all[first].data.hex()}"))
            self._matched.add(chosen)
            if len(self._matched) == len(group):
                self._matched.clear()
                self._at += len(group)
                self._anchor = (time.monotonic(), self._all[group[-1]].t)
                failed = self._step()
                if failed is not None and failed[1].op == "write_error":
                    self._at += 1
                    raise serial.SerialException(failed[1].error)
            self._release(time.monotonic())
            self._cond.notify_all()
        return len(data)

    def close(self) -> None:
        """Close this line (idempotent); the capture's next opening is the next ``connect``."""
        with self._cond:
            self._closed = True
            self._cond.notify_all()

    def check_complete(self) -> None:
        """Raise ``ReplayMismatch`` naming the first recorded write the host did not make."""
        with self._cond:
            for i in self._steps[self._at:]:
                if self._all[i].op == "write" and i not in self._matched:
                    raise ReplayMismatch(f"{self._replay.where(i)}: the recorded host wrote "
                                         f"{self._all[i].data.hex()}, this host never did")

    # --- playing ------------------------------------------------------------------------------

    def _step(self) -> tuple[int, Step] | None:
        if self._at >= len(self._steps):
            return None
        index = self._steps[self._at]
        return index, self._all[index]

    def _take(self, step: Step) -> None:
        self._buffer += step.data
        self._at += 1

    def _release(self, now: float) -> float | None:
        """Make the recorded reads due by ``now`` readable; the time the next one is due."""
        while (step := self._step()) is not None and step[1].op == "read":
            clock = self._replay.clock
            if clock is not None and clock() < step[1].t:
                return None  # not known when it moves on: the next read looks again
            if self._replay.pace:
                due = self._anchor[0] + (step[1].t - self._anchor[1])
                if due > now:
                    return due
            self._take(step[1])
        return None

    def _group(self) -> list[int]:
        """The recorded writes from here with no read between them."""
        group = []
        for index in self._steps[self._at:]:
            if self._all[index].op != "write":
                break
            group.append(index)
        return group

    def _raise_read_error(self) -> None:
        step = self._step()
        if step is not None and step[1].op == "read_error":
            self._at += 1
            raise serial.SerialException(step[1].error)

    def _check_open(self) -> None:
        if self._closed:
            raise serial.SerialException("the replayed line is closed")


def _recorded_hello(steps: Sequence[Step]) -> tuple[str, str] | None:
    """The session and nonce of the first HELLO the host wrote in ``steps``, if any."""
    decoder = StreamDecoder()
    for step in steps:
        if step.op != "write":
            continue
        for item in decoder.feed(step.data):
            if not isinstance(item, Frame) or item.kind is not Kind.REQUEST:
                continue
            try:
                record = _HELLO.decode(item.payload)
            except ProtocolError:
                continue  # another request
            if isinstance(record, HelloCmd) and record.session and record.nonce:
                return record.session, record.nonce
    return None
