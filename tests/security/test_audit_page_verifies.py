"""The supervisor's audit at the display verifies the journal first, like ``paigow audit``.

``paigow audit`` refuses a journal whose chain fails (issue 30 item 4), but the display's
``/api/audit`` and ``/api/audit/randomness`` reported on whatever the journal held.  Now both
verify first (the journal's keyed chain, under the suite's test key) and refuse a journal that
fails with 409 naming the first bad record, unless asked ``unverified=true``; the report then
opens with ``unverified``.  The journal is tampered while the display runs on it, as a person with
the database file could: a wager raised, or a round deleted, and the chain recomputed without
the key."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from controller.journal import open_journal
from tests.display.conftest import SUPERVISOR, make_app, play_round
from tests.security.forge import first_of, rechain, rows

ROUTES = ("/api/audit", "/api/audit/randomness")


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "table.db"


@pytest.fixture
def client(path: Path) -> Iterator[TestClient]:
    """The display over a keyed journal of two whole rounds, the audit still trusting it."""
    with TestClient(make_app(path)) as made:
        play_round(made)
        play_round(made)
        for route in ROUTES:
            reply = made.get(route, headers=SUPERVISOR, params={"samples": 50} if
                             route == "/api/audit" else {})
            assert reply.status_code == 200 and "unverified" not in reply.json(), reply.text
        yield made


def first_bad(path: Path) -> int | None:
    """The first bad record the whole journal's verify names (``paigow journal verify``)."""
    with open_journal(path, create=False) as journal:
        return journal.verify().first_bad


def test_a_raised_wager_is_refused_naming_the_record(client: TestClient, path: Path) -> None:
    found = rows(path)
    i = first_of(found, "bet")
    bet = found[i]._replace(event=found[i].event.replace('"wager":2500', '"wager":250000'))
    assert bet.event != found[i].event
    rechain(path, lambda old: [*old[:i], bet, *old[i + 1:]])
    seq = found[i].seq
    assert first_bad(path) == seq
    for route in ROUTES:
        reply = client.get(route, headers=SUPERVISOR)
        assert reply.status_code == 409, reply.text
        body = reply.json()
        assert body["detail"] == (
            f"{path}: record {seq}: contents do not match its hash (edited, moved or "
            f"inserted); refusing to audit a journal that does not verify (unverified=true "
            f"to go on)")
        assert (body["first_bad"], body["reason"]) == (
            seq, "contents do not match its hash (edited, moved or inserted)")
        assert "groups" not in body and "checks" not in body  # no report at all


def test_a_deleted_round_is_refused(client: TestClient, path: Path) -> None:
    found = rows(path)
    first_round = found[first_of(found, "round_opened")].round_id
    rechain(path, lambda old: [r for r in old if r.round_id != first_round])
    seq = first_bad(path)
    assert seq is not None
    reply = client.get("/api/audit", headers=SUPERVISOR)
    assert reply.status_code == 409 and reply.json()["first_bad"] == seq
    assert f"record {seq}: " in reply.json()["detail"]


def test_unverified_reports_say_so_first(client: TestClient, path: Path) -> None:
    found = rows(path)
    i = first_of(found, "bet")
    bet = found[i]._replace(event=found[i].event.replace('"wager":2500', '"wager":250000'))
    rechain(path, lambda old: [*old[:i], bet, *old[i + 1:]])
    for route in ROUTES:
        reply = client.get(route, headers=SUPERVISOR, params={"unverified": "true"})
        assert reply.status_code == 200, reply.text
        first, *_ = reply.json()  # the report's first member
        assert first == "unverified"
        assert reply.json()["unverified"] == (
            f"UNVERIFIED: the chain of {path} was not checked (unverified=true); nothing here "
            f"is proven to be what the table wrote")
    # asking for it is no way round the supervisor's role
    assert client.get("/api/audit", params={"unverified": "true"}).status_code == 401


def test_verify_reads_in_batches_and_agrees_with_the_whole_scan(path: Path) -> None:
    with TestClient(make_app(path)) as client:
        for _ in range(3):
            play_round(client)
    found = rows(path)
    i = len(found) - 5  # late in the journal: past the first batches of 7
    edited = found[i]._replace(actor="mallory")
    rechain(path, lambda old: [*old[:i], edited, *old[i + 1:]])
    with open_journal(path, create=False) as journal:
        whole, batched = journal.verify(), journal.verify(batch=7)
    assert whole.first_bad == batched.first_bad == found[i].seq
    assert whole.reason == batched.reason
