"""Issue 30 item 5, the event stream's part: caps on viewers and on catch-up, catch-up encoded
off the event loop, and a ``Last-Event-ID`` that is no record number is a 422 naming it.

Before the fix any number of streams could open, one ``Last-Event-ID: 0`` sent up to a thousand
records encoded on the event loop (300 such clients froze ``/api/table`` for 29 s), and a huge
or malformed ``Last-Event-ID`` was a 500.
"""

from __future__ import annotations

import os
import selectors
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

import httpx2
import pytest
from fastapi import FastAPI

from controller.display import Table, create_app
from controller.display.table import EventLimits
from controller.journal import StepClock, open_journal
from controller.profiles.poker import load_profile
from controller.round import FakeDice, FakeShuffler, PokerRound
from tests.display.conftest import DEALER, SETTINGS, free_port, play_round, serve

ROOT = Path(__file__).resolve().parents[2]


def limited_app(path: Path | str, limits: EventLimits) -> FastAPI:
    """The conftest's table with these caps."""
    journal = open_journal(path, clock=StepClock())
    engine = PokerRound(journal, load_profile("classic"), FakeShuffler(7), FakeDice(7))
    return create_app(Table(engine, limits), SETTINGS)


def _data_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("data: ")]


def test_viewers_beyond_the_cap_are_refused(tmp_path: Path) -> None:
    app = limited_app(tmp_path / "t.db", EventLimits(max_viewers=2))
    with serve(app) as url, httpx2.Client(base_url=url, timeout=10) as client, ExitStack() as open_:
        readers = []  # kept: dropping a reader closes its stream
        for _ in range(2):
            stream = open_.enter_context(client.stream("GET", "/api/events"))
            assert stream.status_code == 200
            readers.append(stream.iter_lines())
            assert next(readers[-1]).startswith("retry:")
        refused = client.get("/api/events")
        assert refused.status_code == 503 and "takes 2" in refused.json()["detail"]
        open_.close()  # a place frees when a viewer leaves
        for _ in range(50):
            with client.stream("GET", "/api/events") as again:
                if again.status_code == 200:
                    break
            time.sleep(0.05)  # the server notices the closed streams
        assert again.status_code == 200


def test_catch_up_sends_a_bounded_batch_then_the_next(tmp_path: Path) -> None:
    app = limited_app(tmp_path / "t.db", EventLimits(catch_up=5))
    with serve(app) as url, httpx2.Client(base_url=url, timeout=10) as client:
        play_round(client)
        with client.stream("GET", "/api/events", headers={**DEALER, "Last-Event-ID": "0"}) as s:
            first = "".join(s.iter_text())  # a full batch: the stream ends, to be resumed
        ids = [int(line[4:]) for line in first.splitlines() if line.startswith("id: ")]
        assert ids == [1, 2, 3, 4, 5]
        with client.stream("GET", "/api/events", headers={**DEALER, "Last-Event-ID": "5"}) as s:
            second = "".join(s.iter_text())
        assert [int(line[4:]) for line in second.splitlines() if line.startswith("id: ")] == [
            6, 7, 8, 9, 10]


@pytest.mark.parametrize("bad", ["abc", "-1", "1.5", "9" * 40, "1e9", "0x10"])
def test_a_bad_last_event_id_is_a_422_naming_it(tmp_path: Path, bad: str) -> None:
    app = limited_app(tmp_path / "t.db", EventLimits())
    with serve(app) as url, httpx2.Client(base_url=url, timeout=10) as client:
        answer = client.get("/api/events", headers={**DEALER, "Last-Event-ID": bad})
        assert answer.status_code == 422
        assert "Last-Event-ID" in answer.json()["detail"] and bad[:40] in answer.json()["detail"]


# --- many catch-ups at once against a real server ------------------------------------------

SERVER = """
import sys, uvicorn
from tests.security.test_event_caps import limited_app
from controller.display.table import EventLimits
app = limited_app(sys.argv[1], EventLimits(max_viewers=1000, catch_up=500))
uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[2]), log_level="warning")
"""

CLIENTS = 300


@contextmanager
def table_process(path: Path) -> Iterator[str]:
    """The table served by uvicorn in its own process (the clients cannot slow it through
    this process's interpreter lock)."""
    port = free_port()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-c", SERVER, str(path), str(port)], cwd=ROOT,
                            env=env)
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(200):
            try:
                httpx2.get(url + "/api/cuts", timeout=1)
                break
            except httpx2.TransportError:
                time.sleep(0.05)
        yield url
    finally:
        proc.terminate()
        proc.wait(10)


def _read_all(socks: list[socket.socket], responded: set[int], received: dict[int, bytes],
              lock: threading.Lock) -> None:
    """Read every socket to its end, noting when each first answers."""
    selector = selectors.DefaultSelector()
    for index, sock in enumerate(socks):
        selector.register(sock, selectors.EVENT_READ, index)
    deadline = time.monotonic() + 120
    while selector.get_map() and time.monotonic() < deadline:
        for key, _ in selector.select(1):
            index = key.data
            data = key.fileobj.recv(65536)  # type: ignore[union-attr]
            with lock:
                responded.add(index)
                received[index] = received.get(index, b"") + data
            if not data:
                selector.unregister(key.fileobj)


def test_many_catch_ups_leave_the_table_answering(tmp_path: Path) -> None:
    """300 operators ask to catch up at once; an act and ``/api/table`` are answered while
    most of them still wait for their batch (before the fix the catch-ups took the thread pool
    and the event loop, and the table answered only once nearly all had been served)."""
    path = tmp_path / "t.db"
    with serve(limited_app(path, EventLimits())) as url, httpx2.Client(base_url=url) as c:
        for _ in range(30):  # some 600 records, more than one batch each
            play_round(c)
    responded: set[int] = set()
    received: dict[int, bytes] = {}
    lock = threading.Lock()
    with table_process(path) as url:
        port = int(url.rsplit(":", 1)[1])
        request = (f"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                   f"Authorization: {DEALER['Authorization']}\r\nLast-Event-ID: 0\r\n"
                   f"Connection: close\r\n\r\n").encode()
        socks = []
        for _ in range(CLIENTS):
            sock = socket.create_connection(("127.0.0.1", port), timeout=10)
            sock.sendall(request)
            socks.append(sock)
        reader = threading.Thread(target=_read_all, args=(socks, responded, received, lock))
        reader.start()
        with httpx2.Client(base_url=url, timeout=60) as client:
            assert client.post("/api/round/open", headers=DEALER).status_code == 200
            answer = client.get("/api/table")  # made afresh: the act emptied the cache
            with lock:
                waiting = CLIENTS - len(responded)
            assert answer.status_code == 200 and answer.json()["phase"] == "betting"
        reader.join(150)
        for sock in socks:
            sock.close()
    assert waiting >= CLIENTS // 2, f"only {waiting} catch-ups were still waiting"
    batches = [received[i].count(b"\nid: ") + received[i].startswith(b"id: ")
               for i in range(CLIENTS)]
    assert all(b"200 OK" in received[i][:20] for i in range(CLIENTS))
    assert set(batches) == {500}  # one capped batch each; the rest on reconnecting
