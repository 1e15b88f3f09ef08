"""Recording a device line: a port that passes every byte through and writes it to a capture.

``Recorder(url, path, device).connect`` is a connector (``ShufflerDriver.open(rec.connect)``):
each call opens the real line and wraps it, so a reconnect is recorded in the same file as a
new ``open``. The format is ``capture_file``'s; ``replay_port`` plays it back.
"""

from __future__ import annotations

import contextlib
import time
from pathlib import Path
from types import TracebackType
from typing import Self

from .capture_file import CaptureFileError, CaptureWriter, Op, Step
from .port import Connector, LineLost, Port, url_connector


class Recorder:
    """One device line recorded to a new capture file at ``path`` (never overwritten).

    ``target`` is a pyserial URL or a connector (a fake's); ``device`` names the kind
    (``shuffler``, ``shaker``) in the header. ``start`` is the ``time.monotonic()`` that is
    ``t = 0`` (default: now): the parts of one recording share it, so their times compare.
    Close it after the driver that uses it.
    """

    def __init__(self, target: str | Connector, path: str | Path, device: str, *,
                 start: float | None = None) -> None:
        url = target if isinstance(target, str) else getattr(target, "__qualname__", "connector")
        self._connect = url_connector(target) if isinstance(target, str) else target
        self._start = time.monotonic() if start is None else start
        self.writer = CaptureWriter(path, device, url)

    @property
    def path(self) -> Path:
        """The capture file."""
        return self.writer.path

    def connect(self) -> Port:
        """Open the line and return it wrapped; a line that cannot be opened now is recorded
        as ``open_failed`` and its ``LineLost`` raised."""
        try:
            port = self._connect()
        except LineLost as err:
            self.note("open_failed", error=str(err))
            raise
        try:
            self.note("open")
        except BaseException:
            port.close()  # not left open when the capture cannot be written
            raise
        return RecordingPort(port, self)

    def note(self, op: Op, data: bytes = b"", error: str = "") -> None:
        """Append one step, timed now (to the microsecond: finer is noise on a serial line)."""
        self.writer.append(Step(round(time.monotonic() - self._start, 6), op, data, error))

    def close(self) -> None:
        """Close the capture file."""
        self.writer.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, kind: type[BaseException] | None, err: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()


class RecordingPort:
    """A line that records each chunk it writes and reads (and each failure) as it passes.

    A write is noted before it is sent, and a read before it is returned: whatever the host
    read before it wrote lies before that write in the file, whichever thread did what.
    """

    def __init__(self, inner: Port, recorder: Recorder) -> None:
        self._inner = inner
        self._recorder = recorder
        self._closed = False

    @property
    def in_waiting(self) -> int:
        """Bytes ready on the real line (a failure here is noted as a ``read_error``)."""
        try:
            return self._inner.in_waiting
        except Exception as err:
            self._recorder.note("read_error", error=_describe(err))
            raise

    def read(self, size: int = 1, /) -> bytes:
        """Read from the real line and note what came."""
        try:
            data = self._inner.read(size)
        except Exception as err:
            self._recorder.note("read_error", error=_describe(err))
            raise
        if data:
            self._recorder.note("read", bytes(data))
        return data

    def write(self, data: bytes, /) -> int | None:
        """Note ``data``, then send it on the real line."""
        if data:
            self._recorder.note("write", bytes(data))
        try:
            return self._inner.write(data)
        except Exception as err:
            self._recorder.note("write_error", error=_describe(err))
            raise

    def close(self) -> None:
        """Note the close once and close the real line."""
        if not self._closed:
            self._closed = True
            # A recorder closed before its driver loses only this line; the driver's close
            # must still release the real port.
            with contextlib.suppress(CaptureFileError):
                self._recorder.note("close")
        self._inner.close()


def _describe(err: Exception) -> str:
    return str(err) or type(err).__name__
