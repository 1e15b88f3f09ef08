"""Every value an act or the audit takes is bounded: a NaN, infinite, absurd or overlong value
is a 422 naming the field (never a 500), and free text the journal would keep for ever is
printable and short."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from controller.display.inputs import TEXT_MAX
from controller.journal import open_journal
from tests.display.conftest import DEALER, SUPERVISOR, make_app

JSON = {"Content-Type": "application/json"}


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(make_app(tmp_path / "t.db"), raise_server_exceptions=False) as made:
        assert made.post("/api/round/open", headers=DEALER).status_code == 200
        yield made


def refused(reply: Any, field: str) -> str:
    """The 422's message for ``field``; the answer must be valid JSON naming it."""
    assert reply.status_code == 422, (reply.status_code, reply.text[:300])
    detail = reply.json()["detail"]
    named = [d for d in detail if d["loc"][-1] == field]
    assert named, detail
    assert len(reply.content) < 2000  # a bad value is named, not echoed whole
    return str(named[0]["msg"])


@pytest.mark.parametrize("raw", [b"NaN", b"Infinity", b"-Infinity", b"1e308", b"25.5", b"true",
                                 b'"2500"', b"-1", b"10000000000000", b"1" * 4000])
def test_a_wager_that_is_no_amount_is_a_422(client: TestClient, raw: bytes) -> None:
    body = b'{"position": 2, "wager": ' + raw + b"}"
    reply = client.post("/api/round/bets", headers={**DEALER, **JSON}, content=body)
    if raw == b"1" * 4000:  # past Python's digit limit: the JSON itself is refused, no 500
        assert reply.status_code in (400, 422), reply.text[:200]
        return
    refused(reply, "wager")


@pytest.mark.parametrize(("path", "body", "field"), [
    ("/api/round/bets", {"position": 2**70, "wager": 2500}, "position"),
    ("/api/round/bets", {"position": 0, "wager": 2500}, "position"),
    ("/api/round/bets", {"position": 2, "wager": 2500, "fortune": -5}, "fortune"),
    ("/api/round/bank", {"position": 2, "amount": 0}, "amount"),
    ("/api/round/hands", {"position": 2, "setting": "x" * 10_000}, "setting"),
    ("/api/round/hands", {"position": 2, "hand": "As\u0000Kd"}, "hand"),
    ("/api/round/dealer", {"setting": "As Kd\n"}, "setting"),
    ("/api/round/camera", {"position": -3}, "position"),
    ("/api/round/correct", {"ref": 0, "wager": 100}, "ref"),
    ("/api/round/correct", {"ref": 2**60, "wager": 100}, "ref"),
    ("/api/round/correct", {"ref": 2, "setting": "As Kd / Qh", "reason": "r" * 600}, "reason"),
    ("/api/round/offer-bank", {"position": 99}, "position"),
    ("/api/round/cut", {"cut": "c" * 100}, "cut"),
    ("/api/round/house-way", {"position": 9}, "position"),
    ("/api/round/repeat-bet", {"position": "2"}, "position"),
    ("/api/round/faults/shuffler/clear", {"text": "t" * (TEXT_MAX + 1)}, "text"),
    ("/api/round/faults/shuffler/clear", {"text": "line\nbreak"}, "text"),
    ("/api/round/open", {"round_id": "r\r\nX-Injected: 1"}, "round_id"),
    ("/api/round/void", {"reason": ""}, "reason"),
    ("/api/round/void", {"reason": "v" * (TEXT_MAX + 1)}, "reason"),
    ("/api/round/void", {"reason": "\u001b[2Jgone"}, "reason"),
])
def test_every_act_bounds_its_input(client: TestClient, path: str, body: dict[str, Any],
                                    field: str) -> None:
    refused(client.post(path, headers=SUPERVISOR, json=body), field)


def test_too_many_cut_options_and_an_overlong_fault_name(client: TestClient) -> None:
    options = {f"k{i}": "v" for i in range(9)}
    refused(client.post("/api/round/cut", headers=DEALER, json={"cut": "x", "options": options}),
            "options")
    reply = client.post(f"/api/round/faults/{'f' * 100}/clear", headers=SUPERVISOR)
    refused(reply, "fault")


def test_a_long_void_reason_is_refused_and_nothing_kept(client: TestClient,
                                                        tmp_path: Path) -> None:
    """The 20 MB reason cannot come in (body limit); one just past ``TEXT_MAX`` is refused
    and the round stays open; one at it is journaled."""
    huge = client.post("/api/round/void", headers=SUPERVISOR,
                       json={"reason": "x" * 20_000_000})
    assert huge.status_code == 413
    refused(client.post("/api/round/void", headers=SUPERVISOR,
                        json={"reason": "x" * (TEXT_MAX + 1)}), "reason")
    assert client.get("/api/table").json()["phase"] == "betting"
    done = client.post("/api/round/void", headers=SUPERVISOR, json={"reason": "y" * TEXT_MAX})
    assert done.status_code == 200, done.text
    client.close()
    with open_journal(tmp_path / "t.db", create=False) as journal:
        voids = [r.payload() for r in journal.records() if "reason" in r.payload()]
    assert [len(p["reason"]) for p in voids] == [TEXT_MAX]


def test_the_audit_bounds_samples_and_its_filters(client: TestClient) -> None:
    assert "less than or equal" in refused(
        client.get("/api/audit", headers=SUPERVISOR, params={"samples": 100_000}), "samples")
    refused(client.get("/api/audit", headers=SUPERVISOR, params={"dealer": "d" * 200}),
            "dealer")
    refused(client.get("/api/audit", headers=SUPERVISOR, params={"from": "2" * 100}), "from")
    refused(client.get("/api/audit/randomness", headers=SUPERVISOR,
                       params={"shifts": "1," * 100}), "shifts")


def test_a_body_nested_past_any_parser_is_refused_not_a_500(client: TestClient) -> None:
    reply = client.post("/api/round/bets", headers={**DEALER, **JSON}, content=b"[" * 16_000)
    assert reply.status_code in (400, 422), reply.text[:200]
