"""Item 8: operators are people.  Staff sign in at the display with their id and PIN; each act is
journaled with the staff id; a dealer change, a sign-out and an expiry are journaled; the audit
tells dealers apart; ``paigow display`` prints no token.  Before: tokens were made at each start
and printed, and every act was ``dealer-1`` or ``supervisor-1``."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from controller.audit import Scope, audit_journal, summarize
from controller.display.sign_in import SIGNED_IN, SIGNED_OUT
from controller.journal import Record, Role
from controller.staff import Member, PinHash, Staff, save_staff
from tests.display.conftest import ManualClock as Clock
from tests.display.conftest import free_port, staffed_app

PINS = {"ann": "246810", "bob": "112358", "sue": "135791"}
STAFF = Staff({"ann": Member("ann", "Ann Lee", Role.DEALER, PinHash.make(PINS["ann"])),
               "bob": Member("bob", "Bob Ng", Role.DEALER, PinHash.make(PINS["bob"])),
               "sue": Member("sue", "Sue Roe", Role.SUPERVISOR, PinHash.make(PINS["sue"]))})
ROOT = Path(__file__).resolve().parents[2]


def _app(path: Path, clock: Clock) -> FastAPI:
    return staffed_app(path, STAFF, clock, tokens=False)  # no standing tokens


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def client(tmp_path: Path, clock: Clock) -> Iterator[TestClient]:
    with TestClient(_app(tmp_path / "table.db", clock)) as made:
        yield made


def sign_in(client: Any, staff: str, pin: str | None = None) -> dict[str, str]:
    """Sign ``staff`` in; the headers that carry the session's token."""
    answer = client.post("/api/session", json={"staff": staff, "pin": pin or PINS[staff]})
    assert answer.status_code == 200, answer.text
    return {"Authorization": f"Bearer {answer.json()['token']}"}


def table_records(client: TestClient) -> list[Record]:
    journal = client.app.state.table.journal  # type: ignore[attr-defined]
    return [r for r in journal.records() if r.kind in (SIGNED_IN, SIGNED_OUT)]


def play_round(client: Any, who: dict[str, str]) -> None:
    """A whole round of three bets, house way everywhere, every act by ``who``."""
    do = client.post
    ok = [do("/api/round/open", headers=who)]
    for position, wager in ((2, 2500), (4, 5000), (6, 10000)):
        ok.append(do("/api/round/bets", headers=who, json={"position": position,
                                                           "wager": wager}))
    ok += [do("/api/round/close-bets", headers=who), do("/api/round/shuffle", headers=who)]
    ok += [do("/api/round/packet", headers=who) for _ in range(7)]
    ok.append(do("/api/round/roll", headers=who))
    ok += [do("/api/round/hands", headers=who, json={"position": p}) for p in (2, 4, 6)]
    ok += [do("/api/round/dealer", headers=who), do("/api/round/settle", headers=who)]
    bad = [r.text for r in ok if r.status_code != 200]
    assert not bad, bad


def test_sign_in_with_id_and_pin_acts_as_that_person(client: TestClient) -> None:
    ann = sign_in(client, "ann")
    me = client.get("/api/operator", headers=ann).json()
    assert (me["actor"], me["name"], me["role"]) == ("ann", "Ann Lee", "dealer")
    assert client.post("/api/round/open", headers=ann).status_code == 200
    opened = client.app.state.table.journal.records_of_kind("round_opened")  # type: ignore
    assert [(r.actor, r.role) for r in opened] == [("ann", Role.DEALER)]
    (signed,) = table_records(client)
    assert (signed.kind, signed.actor, signed.round_id) == (SIGNED_IN, "ann", None)
    assert signed.payload()["name"] == "Ann Lee"


def test_a_wrong_pin_and_an_unknown_id_get_the_same_401(client: TestClient) -> None:
    wrong = client.post("/api/session", json={"staff": "ann", "pin": "000000"})
    nobody = client.post("/api/session", json={"staff": "zed", "pin": "000000"})
    assert wrong.status_code == nobody.status_code == 401
    assert wrong.json() == nobody.json() == {"detail": "unknown staff id or wrong PIN"}
    assert "token" not in wrong.text and not table_records(client)


def test_repeated_failures_are_throttled_known_id_or_not(client: TestClient,
                                                         clock: Clock) -> None:
    for staff in ("ann", "zed"):
        codes = [client.post("/api/session", json={"staff": staff, "pin": "999999"}).status_code
                 for _ in range(6)]
        assert codes == [401] * 5 + [429]
    refused = client.post("/api/session", json={"staff": "ann", "pin": PINS["ann"]})
    assert refused.status_code == 429 and int(refused.headers["Retry-After"]) > 0
    assert client.post("/api/session", json={"staff": "sue", "pin": PINS["sue"]}).is_success
    clock.now += 61  # the lockout over, the right PIN works
    assert client.post("/api/session", json={"staff": "ann", "pin": PINS["ann"]}).is_success


def test_a_token_one_character_off_is_refused(client: TestClient) -> None:
    token = sign_in(client, "ann")["Authorization"].removeprefix("Bearer ")
    last = "A" if token[-1] != "A" else "B"
    forged = {"Authorization": f"Bearer {token[:-1]}{last}"}
    assert client.get("/api/operator", headers=forged).status_code == 401
    assert client.post("/api/round/open", headers=forged).status_code == 401


def test_signing_out_ends_the_token_and_is_journaled(client: TestClient) -> None:
    sue = sign_in(client, "sue")
    out = client.delete("/api/session", headers=sue)
    assert out.json() == {"signed_out": "sue", "role": "supervisor"}
    assert client.get("/api/operator", headers=sue).status_code == 401
    last = table_records(client)[-1]
    assert (last.kind, last.actor, last.payload()["reason"]) == (SIGNED_OUT, "sue", "signed out")


def test_sessions_expire_idle_and_at_their_longest(client: TestClient, clock: Clock) -> None:
    rules = STAFF.sessions
    ann = sign_in(client, "ann")
    clock.now += rules.idle - 1
    assert client.get("/api/operator", headers=ann).status_code == 200  # used: idle restarts
    clock.now += rules.idle - 1
    assert client.get("/api/operator", headers=ann).status_code == 200
    clock.now += rules.idle
    assert client.get("/api/operator", headers=ann).status_code == 401
    expired = table_records(client)[-1]
    assert (expired.kind, expired.actor, expired.role) == (SIGNED_OUT, "table", Role.SYSTEM)
    assert expired.payload()["staff"] == "ann" and expired.payload()["reason"] == "expired (idle)"

    sue = sign_in(client, "sue")
    for _ in range(int(rules.longest // (rules.idle / 2)) + 1):  # kept busy, yet it ends
        clock.now += rules.idle / 2
        client.get("/api/operator", headers=sue)
    assert client.get("/api/operator", headers=sue).status_code == 401
    assert table_records(client)[-1].payload()["reason"] == "expired (longest)"


def test_a_dealer_change_is_journaled_and_relieves_the_last_dealer(client: TestClient) -> None:
    ann, sue = sign_in(client, "ann"), sign_in(client, "sue")
    bob = sign_in(client, "bob")
    assert client.get("/api/operator", headers=ann).status_code == 401  # relieved
    assert client.get("/api/operator", headers=sue).status_code == 200  # supervisors stay
    assert client.get("/api/operator", headers=bob).json()["actor"] == "bob"
    moves = [(r.kind, r.actor, r.payload()["staff"], r.payload().get("reason"))
             for r in table_records(client)]
    assert moves == [(SIGNED_IN, "ann", "ann", None), (SIGNED_IN, "sue", "sue", None),
                     (SIGNED_OUT, "bob", "ann", "relieved by bob"),
                     (SIGNED_IN, "bob", "bob", None)]


def test_the_audit_has_a_row_per_real_dealer(client: TestClient, tmp_path: Path) -> None:
    play_round(client, sign_in(client, "ann"))
    play_round(client, sign_in(client, "bob"))  # bob relieves ann mid-shift
    journal = client.app.state.table.journal  # type: ignore[attr-defined]
    groups = summarize(audit_journal(journal, str(tmp_path / "table.db"), Scope(),
                                     costs=False))
    assert sorted((g.dealer, g.rounds) for g in groups) == [("ann", 1), ("bob", 1)]


def test_paigow_display_prints_no_token_and_signs_in_over_http(tmp_path: Path) -> None:
    staff_file = tmp_path / "staff.toml"
    save_staff(STAFF, staff_file)
    port = free_port()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "controller.cli", "display", "--journal",
         str(tmp_path / "t.db"), "--port", str(port), "--staff", str(staff_file)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=ROOT)
    try:
        base = f"http://127.0.0.1:{port}"
        for _ in range(300):
            try:
                httpx.get(f"{base}/api/table", timeout=1)
                break
            except httpx.TransportError:
                if proc.poll() is not None:
                    break
                subprocess.run(["sleep", "0.05"], check=True)  # waiting to start, not timing
        answer = httpx.post(f"{base}/api/session", json={"staff": "ann", "pin": PINS["ann"]})
        assert answer.status_code == 200, answer.text
        token = answer.json()["token"]
        who = httpx.get(f"{base}/api/operator", headers={"Authorization": f"Bearer {token}"})
        assert who.json()["actor"] == "ann"
    finally:
        proc.terminate()
        out, err = proc.communicate(timeout=20)
    assert token not in out + err
    assert not re.search(r"token", out + err, re.IGNORECASE), err
    assert "staff: 3 from" in err


def _paigow(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "controller.cli", *args], capture_output=True,
                          text=True, cwd=ROOT, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})


def test_tokens_files_are_refused_and_a_bad_staff_file_stops_the_start(tmp_path: Path) -> None:
    tokens = _paigow("display", "--journal", str(tmp_path / "t.db"), "--tokens", "x.toml")
    assert tokens.returncode == 2 and tokens.stderr.count("\n") == 1
    assert "--tokens is replaced by --staff" in tokens.stderr
    bad = tmp_path / "staff.toml"
    bad.write_text('[[staff]]\nid = "ann"\nname = "Ann"\nrole = "dealer"\npin = "1234"\n')
    for args in (("display", "--journal", str(tmp_path / "t.db")),
                 ("run", "--table", str(ROOT / "config" / "tables" / "sim-table.toml"),
                  "--no-display", "--rounds", "1", "--journal", str(tmp_path / "r.db"))):
        done = _paigow(*args, "--staff", str(bad))
        assert done.returncode == 2, done.stderr
        assert done.stderr.startswith("paigow: error: ") and done.stderr.count("\n") == 1
        assert "staff entry 1" in done.stderr and "PIN hash" in done.stderr
