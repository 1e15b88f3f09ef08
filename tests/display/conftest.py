"""Fixtures for the display: a table on fakes over an SQLite file, tokens, a live server."""

from __future__ import annotations

import dataclasses
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from fastapi import FastAPI
from fastapi.testclient import TestClient

from controller.display import DisplaySettings, Table, create_app
from controller.display.sign_in import Desk
from controller.journal import Role, StepClock, open_journal
from controller.profiles.poker import load_profile
from controller.round import FakeDice, FakeShuffler, PokerRound, Who
from controller.staff import Member, PinHash, Staff

DEALER_TOKEN = "dealer-token-1"
SUPERVISOR_TOKEN = "super-token-1"
DEALER_PIN = "246810"
SUPERVISOR_PIN = "135791"
STAFF = Staff({"ann": Member("ann", "Ann", Role.DEALER, PinHash.make(DEALER_PIN)),
               "sue": Member("sue", "Sue", Role.SUPERVISOR, PinHash.make(SUPERVISOR_PIN))})
"""Who may sign in with a PIN (the browser tests do); the API tests use the standing tokens."""
SETTINGS = DisplaySettings({DEALER_TOKEN: Who.dealer("ann"),
                            SUPERVISOR_TOKEN: Who.supervisor("sue")},
                           hosts=("testserver",), staff=STAFF)  # TestClient's Host
DEALER = {"Authorization": f"Bearer {DEALER_TOKEN}"}
SUPERVISOR = {"Authorization": f"Bearer {SUPERVISOR_TOKEN}"}


def make_app(path: Path | str, seed: int = 7, replay: bool = False,
             settings: DisplaySettings = SETTINGS) -> FastAPI:
    """A new app over the journal at ``path`` or URL (a restart when it exists)."""
    journal = open_journal(path, clock=StepClock())
    engine = PokerRound(journal, load_profile("classic"), FakeShuffler(seed), FakeDice(seed),
                        replay=replay)
    return create_app(Table(engine), settings)


class ManualClock:
    """A clock the test moves on (monotonic seconds), for sessions' expiry."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def staffed_app(path: Path, staff: Staff, clock: ManualClock | None = None, *,
                tokens: bool = True) -> FastAPI:
    """An app whose ``staff`` sign in with PINs, their sessions timed by ``clock``; without
    ``tokens`` no standing token opens an act."""
    settings = dataclasses.replace(SETTINGS, staff=staff,
                                   tokens=SETTINGS.tokens if tokens else {})
    app = make_app(path, settings=settings)
    if clock is not None:
        app.state.desk = Desk(app.state.table, settings, clock=clock)
    return app


def play_round(client: Any) -> None:
    """Open, three bets, close, shuffle, seven packets, roll, house way everywhere, settle
    (``client``: a TestClient or an httpx2.Client)."""
    do = client.post
    ok = [do("/api/round/open", headers=DEALER)]
    for position, wager in ((2, 2500), (4, 5000), (6, 10000)):
        ok.append(do("/api/round/bets", headers=DEALER,
                     json={"position": position, "wager": wager}))
    ok.append(do("/api/round/close-bets", headers=DEALER))
    ok.append(do("/api/round/shuffle", headers=DEALER))
    ok += [do("/api/round/packet", headers=DEALER) for _ in range(7)]
    ok.append(do("/api/round/roll", headers=DEALER))
    for position in (2, 4, 6):
        ok.append(do("/api/round/hands", headers=DEALER, json={"position": position}))
    ok.append(do("/api/round/dealer", headers=DEALER))
    ok.append(do("/api/round/settle", headers=DEALER))
    bad = [r.text for r in ok if r.status_code != 200]
    assert not bad, bad


@pytest.fixture
def journal_path(tmp_path: Path) -> Path:
    return tmp_path / "table.db"


@pytest.fixture
def client(journal_path: Path) -> Iterator[TestClient]:
    with TestClient(make_app(journal_path)) as made:
        yield made


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@contextmanager
def serve(app: FastAPI) -> Iterator[str]:
    """``app`` served by uvicorn on a free 127.0.0.1 port, in a thread; yields its base URL."""
    port = free_port()
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning",
                            timeout_graceful_shutdown=1)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        assert time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)


@pytest.fixture
def live(journal_path: Path) -> Iterator[str]:
    """The app over ``journal_path`` served on a free port; yields its base URL."""
    with serve(make_app(journal_path)) as url:
        yield url
