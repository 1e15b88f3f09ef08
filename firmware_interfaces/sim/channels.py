"""Where a simulator listens: a pseudo-terminal (stable symlink) or a TCP port.

A listener hands out one channel at a time; after the simulator drops the line, the next
``accept`` gives a fresh one (a new pty behind the same symlink, or the next TCP client).
"""

from __future__ import annotations

import contextlib
import errno
import os
import pty
import select
import socket
import tempfile
import tty
from typing import Protocol


class Channel(Protocol):
    """One connection, seen from the device."""

    def recv(self, timeout: float) -> bytes:
        """Bytes from the host (``b""`` after ``timeout``); ``EOFError`` when it hung up."""
        ...

    def send(self, data: bytes) -> None:
        """Bytes to the host; ``EOFError`` when it hung up."""
        ...

    def close(self) -> None:
        """Drop this connection."""
        ...


class Listener(Protocol):
    """Hands out channels to the device loop."""

    url: str

    def accept(self, timeout: float) -> Channel | None:
        """The next connection, or ``None`` after ``timeout``."""
        ...

    def close(self) -> None:
        """Stop listening and release everything."""
        ...


class PtyChannel:
    """The master side of a pty whose slave the host opens as a serial port."""

    def __init__(self) -> None:
        self.master, self._slave = pty.openpty()
        tty.setraw(self._slave)  # no echo, no line discipline: a byte-clean line
        os.set_blocking(self.master, False)
        self.slave_path = os.ttyname(self._slave)
        self.closed = False

    def recv(self, timeout: float) -> bytes:
        """Read what the host wrote (``b""`` on timeout)."""
        ready, _, _ = select.select([self.master], [], [], timeout)
        if not ready:
            return b""
        try:
            return os.read(self.master, 4096)
        except BlockingIOError:
            return b""
        except OSError as err:  # EIO: no slave open (cannot happen while we hold one)
            if err.errno == errno.EIO:
                return b""
            raise EOFError(str(err)) from err

    def send(self, data: bytes) -> None:
        """Write to the host; bytes that do not fit while nobody reads are lost, as on a wire."""
        with contextlib.suppress(BlockingIOError):
            os.write(self.master, data)

    def close(self) -> None:
        """Close both ends: the host's next read fails, as when a cable is pulled."""
        if not self.closed:
            self.closed = True
            os.close(self.master)
            os.close(self._slave)


class PtyListener:
    """A pty behind a stable symlink (Klipper style), renewed after each dropped line."""

    def __init__(self, link: str | None = None) -> None:
        self._tmpdir = None if link else tempfile.mkdtemp(prefix="paigow-sim-")
        self.url = link or os.path.join(self._tmpdir or "", "tty")
        self._current: PtyChannel | None = None
        self._renew()

    def _renew(self) -> None:
        self._current = PtyChannel()
        staging = f"{self.url}.new"
        with contextlib.suppress(FileNotFoundError):
            os.unlink(staging)
        os.symlink(self._current.slave_path, staging)
        os.replace(staging, self.url)  # atomic: the path never points nowhere

    def accept(self, timeout: float) -> Channel | None:
        """The current pty, or a new one if the last was dropped."""
        if self._current is None or self._current.closed:
            self._renew()
        return self._current

    def close(self) -> None:
        """Close the pty and remove the symlink (and its temporary folder)."""
        if self._current is not None:
            self._current.close()
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.url)
        if self._tmpdir:
            with contextlib.suppress(OSError):
                os.rmdir(self._tmpdir)


class SocketChannel:
    """One accepted TCP client."""

    def __init__(self, sock: socket.socket) -> None:
        self._sock = sock
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def recv(self, timeout: float) -> bytes:
        """Read what the client sent; ``EOFError`` when it closed."""
        ready, _, _ = select.select([self._sock], [], [], timeout)
        if not ready:
            return b""
        try:
            data = self._sock.recv(4096)
        except OSError as err:
            raise EOFError(str(err)) from err
        if not data:
            raise EOFError("client closed the connection")
        return data

    def send(self, data: bytes) -> None:
        """Send to the client; ``EOFError`` when it is gone."""
        try:
            self._sock.sendall(data)
        except OSError as err:
            raise EOFError(str(err)) from err

    def close(self) -> None:
        """Hang up on the client."""
        with contextlib.suppress(OSError):
            self._sock.shutdown(socket.SHUT_RDWR)
        self._sock.close()


class TcpListener:
    """A TCP port (port 0 picks a free one; ``url`` names the one bound)."""

    def __init__(self, host: str, port: int) -> None:
        self._server = socket.create_server((host, port))
        bound_host, bound_port = self._server.getsockname()[:2]
        self.url = f"socket://{bound_host}:{bound_port}"

    def accept(self, timeout: float) -> Channel | None:
        """The next client, or ``None`` after ``timeout``."""
        ready, _, _ = select.select([self._server], [], [], timeout)
        if not ready:
            return None
        sock, _ = self._server.accept()
        return SocketChannel(sock)

    def close(self) -> None:
        """Stop listening."""
        self._server.close()
