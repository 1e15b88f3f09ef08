"""An in-memory line for the in-process fake: a host ``Port`` joined to a device ``Channel``."""

from __future__ import annotations

import queue
import threading
import time

from ..port import READ_TIMEOUT, LineLost
from .channels import Channel


class _Wire:
    """Bytes one way, with a condition to wait on and a cut flag."""

    def __init__(self) -> None:
        self.buf = bytearray()
        self.cond = threading.Condition()
        self.cut = False

    def put(self, data: bytes) -> bool:
        with self.cond:
            if self.cut:
                return False
            self.buf.extend(data)
            self.cond.notify_all()
            return True

    def take(self, size: int, timeout: float) -> bytes | None:
        """Up to ``size`` bytes; ``b""`` on timeout, ``None`` once cut and drained."""
        deadline = time.monotonic() + timeout
        with self.cond:
            while not self.buf:
                left = deadline - time.monotonic()
                if self.cut:
                    return None
                if left <= 0:
                    return b""
                self.cond.wait(left)
            data = bytes(self.buf[:size])
            del self.buf[:size]
            return data

    def close(self) -> None:
        with self.cond:
            self.cut = True
            self.cond.notify_all()


class _Pair:
    def __init__(self) -> None:
        self.to_device = _Wire()
        self.to_host = _Wire()

    def cut(self) -> None:
        self.to_device.close()
        self.to_host.close()


class FakePort:
    """The host's end: a ``Port`` like pyserial's, with a read timeout."""

    def __init__(self, pair: _Pair, timeout: float = READ_TIMEOUT) -> None:
        self._pair = pair
        self.timeout = timeout

    @property
    def in_waiting(self) -> int:
        """Bytes ready to read."""
        return len(self._pair.to_host.buf)

    def read(self, size: int = 1, /) -> bytes:
        """Up to ``size`` bytes within the timeout; ``LineLost`` once the line is cut."""
        data = self._pair.to_host.take(size, self.timeout)
        if data is None:
            raise LineLost("the fake device dropped the line")
        return data

    def write(self, data: bytes, /) -> int | None:
        """Send to the device; ``LineLost`` once the line is cut."""
        if not self._pair.to_device.put(bytes(data)):
            raise LineLost("the fake device dropped the line")
        return len(data)

    def close(self) -> None:
        """Hang up."""
        self._pair.cut()


class PipeChannel:
    """The device's end of the in-memory line."""

    def __init__(self, pair: _Pair) -> None:
        self._pair = pair

    def recv(self, timeout: float) -> bytes:
        """What the host wrote; ``EOFError`` once it hung up."""
        data = self._pair.to_device.take(4096, timeout)
        if data is None:
            raise EOFError("host closed the fake port")
        return data

    def send(self, data: bytes) -> None:
        """Bytes to the host; ``EOFError`` once it hung up."""
        if not self._pair.to_host.put(data):
            raise EOFError("host closed the fake port")

    def close(self) -> None:
        """Cut the line (the host's next read raises ``LineLost``)."""
        self._pair.cut()


class PipeListener:
    """Hands the device each line a host opens with ``connect``."""

    url = "fake://"

    def __init__(self) -> None:
        self._waiting: queue.Queue[_Pair] = queue.Queue()

    def connect(self) -> FakePort:
        """Open a new line to the device (the fake's connector)."""
        pair = _Pair()
        self._waiting.put(pair)
        return FakePort(pair)

    def accept(self, timeout: float) -> Channel | None:
        """The next line a host opened, or ``None`` after ``timeout``."""
        try:
            return PipeChannel(self._waiting.get(timeout=timeout))
        except queue.Empty:
            return None

    def close(self) -> None:
        """Cut every line not yet accepted."""
        while not self._waiting.empty():
            self._waiting.get_nowait().cut()
