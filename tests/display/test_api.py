"""The display's JSON API through TestClient: reading, roles, journaling, recall, restarts."""

from __future__ import annotations

from pathlib import Path

from fastapi.testclient import TestClient

from controller.journal import open_journal

from .conftest import DEALER, SUPERVISOR, make_app, play_round


def test_table_is_open_to_read_before_any_round(client: TestClient) -> None:
    view = client.get("/api/table").json()
    assert view["game"] == "poker" and view["phase"] is None
    assert len(view["seats"]) == 7 and view["house_way"]
    assert "open_round" in view["can"]["dealer"]
    assert client.get("/openapi.json").status_code == 200


def test_acts_need_a_token(client: TestClient) -> None:
    refused = client.post("/api/round/open")
    assert refused.status_code == 401 and "Bearer" in refused.json()["detail"]
    assert refused.headers["www-authenticate"] == "Bearer"
    unknown = client.post("/api/round/open", headers={"Authorization": "Bearer nope-nope"})
    assert unknown.status_code == 401 and "unknown token" in unknown.json()["detail"]


def test_a_dealer_may_not_void_a_supervisor_may(client: TestClient, journal_path: Path) -> None:
    assert client.post("/api/round/open", headers=DEALER).status_code == 200
    refused = client.post("/api/round/void", headers=DEALER, json={"reason": "test"})
    assert refused.status_code == 403
    assert "'ann' (dealer) may not void: it needs supervisor" in refused.json()["detail"]
    done = client.post("/api/round/void", headers=SUPERVISOR, json={"reason": "test"})
    assert done.status_code == 200
    [record] = [r for r in done.json()["records"] if r["kind"] == "round_voided"]
    assert (record["actor"], record["role"]) == ("sue", "supervisor")
    view = client.get("/api/table").json()
    assert view["phase"] == "voided"
    assert any(a["kind"] == "void" for a in view["alerts"])


def test_refused_act_is_409_with_the_reason(client: TestClient) -> None:
    refused = client.post("/api/round/settle", headers=DEALER)
    assert refused.status_code == 409
    assert refused.json()["detail"] == "cannot settle: no round is open"
    assert client.post("/api/round/woodpile", headers=DEALER).status_code == 409


def test_a_whole_round_is_journaled_with_who_did_it(client: TestClient,
                                                    journal_path: Path) -> None:
    play_round(client)
    view = client.get("/api/table", headers=DEALER).json()
    assert view["phase"] == "settled"
    assert view["dealer"]["house_way"]["high"] and view["dealer"]["rule"]
    seats = {s["position"]: s for s in view["seats"]}
    assert seats[4]["result"]["text"].startswith(("WIN", "LOSE", "PUSH"))
    assert len(seats[4]["setting"]["high"]) == 5 and seats[4]["wager"] == 5000
    assert seats[1]["banker"] and seats[1]["result"]["outcome"] == "bank"
    with open_journal(journal_path) as journal:
        records = list(journal.iter_records())
    by_kind = {r.kind: r for r in records}
    assert (by_kind["bet"].actor, by_kind["bet"].role.value) == ("ann", "dealer")
    assert by_kind["settle"].actor == "ann"


def test_recall_survives_a_restart(journal_path: Path) -> None:
    with TestClient(make_app(journal_path)) as first:
        play_round(first)
        before = first.get("/api/rounds?last=10").json()["rounds"]
    with TestClient(make_app(journal_path, seed=8)) as second:
        after = second.get("/api/rounds", params={"last": 10}).json()["rounds"]
        assert after == before and len(after) == 1
        assert after[0]["replay"] is False and "records" not in after[0]
        full = second.get("/api/rounds?last=1&records=true").json()["rounds"][0]
        assert full["records"][0]["kind"] == "round_opened"
        assert second.get("/api/rounds?last=0").status_code == 422


def test_restart_resumes_an_open_round(journal_path: Path) -> None:
    with TestClient(make_app(journal_path)) as first:
        first.post("/api/round/open", headers=DEALER)
        first.post("/api/round/bets", headers=DEALER, json={"position": 3, "wager": 2500})
    with TestClient(make_app(journal_path)) as second:
        view = second.get("/api/table").json()
        assert view["phase"] == "betting"
        assert view["seats"][2]["wager"] == 2500
