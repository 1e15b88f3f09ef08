"""The display's body limit and token-before-body, against a real uvicorn in its own process.

The probe that took the table's process to 1.4 GB, kept as tests: a huge ``Content-Length`` or
an endless chunked body, with and without a token, must be answered before the client has
finished sending, with the body unread and the server's memory flat.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx2
import pytest

from controller.display.guard import BODY_LIMIT
from tests.display.conftest import DEALER_TOKEN, SUPERVISOR_TOKEN, free_port

ROOT = Path(__file__).resolve().parents[2]
SERVER = """
import sys, uvicorn
from tests.display.conftest import make_app
uvicorn.run(make_app(sys.argv[1]), host="127.0.0.1", port=int(sys.argv[2]), log_level="warning")
"""
CHUNK = b"x" * 65536
MAX_GROWTH_KB = 8 * 1024
"""How much the server's peak memory may grow over a probe: a few MB, not the body."""


@dataclass
class Server:
    """A display served by uvicorn in its own process."""

    process: subprocess.Popen[bytes]
    port: int

    def peak_kb(self) -> int:
        """The process's peak resident memory so far (``VmHWM``), in kB."""
        status = Path(f"/proc/{self.process.pid}/status").read_text()
        line = next(x for x in status.splitlines() if x.startswith("VmHWM:"))
        return int(line.split()[1])


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    port = free_port()
    journal = tmp_path_factory.mktemp("limits") / "table.db"
    process = subprocess.Popen([sys.executable, "-c", SERVER, str(journal), str(port)],
                               cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        deadline = time.monotonic() + 60
        while True:
            assert process.poll() is None, "the display did not start"
            assert time.monotonic() < deadline, "the display did not start in time"
            try:
                if httpx2.get(f"http://127.0.0.1:{port}/api/table", timeout=5).status_code == 200:
                    break
            except httpx2.TransportError:
                time.sleep(0.1)
        yield Server(process, port)
    finally:
        process.terminate()
        process.wait(10)


@dataclass
class Probe:
    """What came back from a request whose body never ends, and how much of it was sent."""

    status: int
    head: str
    sent: int


def probe(port: int, head: str, chunked: bool, token: str | None = None) -> Probe:
    """Send ``head`` then body bytes without end (as chunks when ``chunked``) from a thread,
    read the answer on this one, stop sending once it came; ``sent`` counts the body bytes."""
    lines = [head, f"Host: 127.0.0.1:{port}", "Content-Type: application/json"]
    lines.append("Transfer-Encoding: chunked" if chunked else "Content-Length: 400000000")
    if token is not None:
        lines.append(f"Authorization: Bearer {token}")
    sock = socket.create_connection(("127.0.0.1", port), timeout=20)
    sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
    answered = threading.Event()
    sent = 0
    piece = (b"%x\r\n" % len(CHUNK)) + CHUNK + b"\r\n" if chunked else CHUNK

    def send() -> None:
        nonlocal sent
        try:
            while not answered.is_set() and sent < 400_000_000:
                sock.sendall(piece)
                sent += len(CHUNK)
        except OSError:  # the server hung up: what a refused body should get
            pass

    sender = threading.Thread(target=send, daemon=True)
    sender.start()
    reply = b""
    try:
        while b"\r\n\r\n" not in reply:
            got = sock.recv(4096)
            if not got:
                break
            reply += got
    finally:
        answered.set()
        sender.join(20)
        sock.close()
    head_text = reply.partition(b"\r\n\r\n")[0].decode("latin-1")
    assert head_text.startswith("HTTP/1.1 "), reply[:200]
    return Probe(int(head_text.split()[1]), head_text.lower(), sent)


@pytest.mark.parametrize("chunked", [False, True], ids=["content-length", "chunked"])
def test_a_write_without_a_token_is_refused_before_its_body_is_read(server: Server,
                                                                    chunked: bool) -> None:
    before = server.peak_kb()
    got = probe(server.port, "POST /api/round/void HTTP/1.1", chunked)
    assert got.status == 401 and "www-authenticate: bearer" in got.head
    assert "connection: close" in got.head
    assert got.sent < 64 * 1024 * 1024, got.sent  # answered long before 400 MB went out
    assert server.peak_kb() - before < MAX_GROWTH_KB


@pytest.mark.parametrize("chunked", [False, True], ids=["content-length", "chunked"])
def test_a_body_over_the_limit_is_refused_with_a_token(server: Server, chunked: bool) -> None:
    before = server.peak_kb()
    got = probe(server.port, "POST /api/round/void HTTP/1.1", chunked, SUPERVISOR_TOKEN)
    assert got.status == 413 and "connection: close" in got.head
    assert got.sent < 64 * 1024 * 1024, got.sent
    assert server.peak_kb() - before < MAX_GROWTH_KB


def test_an_act_that_reads_no_body_hangs_up_on_one(server: Server) -> None:
    """A route that takes no body answers, and the endless body after it is never read."""
    got = probe(server.port, "POST /api/round/settle HTTP/1.1", True, DEALER_TOKEN)
    assert got.status == 409 and "connection: close" in got.head
    assert got.sent < 64 * 1024 * 1024, got.sent


def test_a_body_at_the_limit_is_read_and_one_past_it_is_not(server: Server) -> None:
    url = f"http://127.0.0.1:{server.port}/api/round/void"
    headers = {"Authorization": f"Bearer {SUPERVISOR_TOKEN}",
               "Content-Type": "application/json"}
    padding = b'{"reason": "no round", "pad": "'
    at_limit = padding + b"p" * (BODY_LIMIT - len(padding) - 2) + b'"}'
    assert len(at_limit) == BODY_LIMIT
    reply = httpx2.post(url, content=at_limit, headers=headers, timeout=10)
    assert reply.status_code == 409, reply.text  # read and parsed: no round to void

    def stream(body: bytes) -> Iterator[bytes]:  # no Content-Length: counted as it comes
        yield body[:1000]
        yield body[1000:]

    reply = httpx2.post(url, content=stream(at_limit + b" "), headers=headers, timeout=10)
    assert reply.status_code == 413, reply.text


def test_a_bad_content_length_is_refused(server: Server) -> None:
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=10)
    with sock:
        sock.sendall(b"POST /api/round/void HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                     b"Authorization: Bearer x\r\nContent-Length: 99999999999999999999999\r\n\r\n")
        reply = sock.recv(4096)
    assert reply.split()[1] in (b"400", b"413"), reply[:200]
