"""Issue 30 item 2 at the table: a shuffler that ACKs forever blocks neither the display, nor a
supervisor's void, nor the loop's stop.

Before the fix the loop waited on the device while holding ``Table.lock``: ``/api/table`` and
the void waited behind it, and a stop request waited for the call to give up (a shuffle's reply
wait is 60 s). Now the device call is made ahead of its act without the lock, and a stop
interrupts it. Real simulator processes over ptys, a real uvicorn server on 127.0.0.1.
"""

from __future__ import annotations

import json
import random
import socket
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
import uvicorn

from controller.display import DisplaySettings, Table, create_app
from controller.journal import open_journal
from controller.profiles.poker import load_profile
from controller.round import Phase, PokerRound, Who
from controller.simulation.players import Habits, PokerSetter, SimDealer, SimPlayers
from controller.simulation.runner import RunnerSettings, TableRunner
from controller.simulation.table import open_simulated_table
from controller.table import TableDevices
from tests.table.conftest import SIM_TABLE, TIMING, _assets

SUPERVISOR_TOKEN = "supervisor-token-30"
SETTINGS = DisplaySettings({SUPERVISOR_TOKEN: Who.supervisor("sue")})
PROMPT = 5.0
"""Seconds a read, a void or a stop may take: far below the device call's own limit (60 s+)."""


@pytest.fixture
def devices() -> Iterator[TableDevices]:
    if not _assets():
        pytest.skip("card artwork missing and scripts/test_assets.sh failed (no network?)")
    opened = open_simulated_table(SIM_TABLE, "poker", seed=8, timing=TIMING)
    try:
        yield opened
    finally:
        opened.close()


def _serve(table: Table) -> tuple[str, uvicorn.Server, threading.Thread]:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(create_app(table, SETTINGS), host="127.0.0.1",
                                           port=port, log_level="warning",
                                           timeout_graceful_shutdown=1))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        assert time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.02)
    return f"http://127.0.0.1:{port}", server, thread


def _wait_for(check: object, limit: float, what: str) -> None:
    deadline = time.monotonic() + limit
    while not check():  # type: ignore[operator]
        assert time.monotonic() < deadline, f"not within {limit} s: {what}"
        time.sleep(0.02)


def test_a_shuffler_that_acks_forever_blocks_no_read_void_or_stop(
        tmp_path: Path, devices: TableDevices) -> None:
    assert devices.shuffler is not None
    journal = open_journal(tmp_path / "j.sqlite")
    profile = load_profile()
    engine = PokerRound(journal, profile, devices.shuffler, devices.dice, devices.camera)
    table = Table(engine)
    setter = PokerSetter(profile)
    rng = random.Random(8)
    lines: list[str] = []
    runner = TableRunner(table, devices, SimPlayers(setter, profile.settlement.limits,
                                                    Habits(), rng),
                         SimDealer(setter, Habits(), rng), RunnerSettings(None),
                         randomness="seeded 8", out=lines.append)
    url, server, served = _serve(table)
    driver = devices.shuffler.driver
    loop = threading.Thread(target=runner.run, name="table-loop", daemon=True)
    try:
        devices.shuffler.control(ack_forever=1)  # from now on: ACKs, ACKs again, no reply
        sent = driver.stats.requests
        loop.start()
        # The loop opens a round, takes bets and asks the shuffler to shuffle: it hangs there.
        _wait_for(lambda: driver.stats.requests > sent and engine.round is not None
                  and engine.round.phase is Phase.CLOSED, 60, "the shuffle under way")

        started = time.monotonic()
        with urllib.request.urlopen(f"{url}/api/table", timeout=PROMPT) as reply:
            assert reply.status == 200 and json.load(reply)
        voided = urllib.request.Request(
            f"{url}/api/round/void", method="POST",
            data=json.dumps({"reason": "the shuffler hangs"}).encode(),
            headers={"Authorization": f"Bearer {SUPERVISOR_TOKEN}",
                     "Content-Type": "application/json"})
        with urllib.request.urlopen(voided, timeout=PROMPT) as reply:
            assert reply.status == 200
        assert time.monotonic() - started < 2 * PROMPT
        assert engine.round is not None and engine.round.closed
        assert [r.payload()["reason"] for r in journal.records() if r.kind == "round_voided"] \
            == ["the shuffler hangs"]

        runner.stop()  # as Ctrl-C does: the shuffle under way is interrupted
        loop.join(PROMPT)
        assert not loop.is_alive(), "the loop did not stop while the shuffler hung"
        assert engine.round.closed and journal.open_rounds() == []
        assert journal.verify().ok
    finally:
        runner.stop()
        loop.join(PROMPT)
        server.should_exit = True
        served.join(10)
        journal.close()
