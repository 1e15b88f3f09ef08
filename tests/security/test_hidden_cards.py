"""No card of an unexposed hand reaches a viewer who may not see it.

Before the fix ``GET /api/table`` listed the dealer's seven cards and every unset hand to anyone,
``/api/events`` streamed each packet, and ``Last-Event-ID: 0`` paged through the journal without
a token.  Here every readable GET route and the stream are asked per role mid-round (hands dealt
face down, some set, nothing exposed), and the cards are looked for as JSON strings.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest
from fastapi.testclient import TestClient

from controller.journal import open_journal
from controller.live.visibility import Sight, event_for
from tests.display.conftest import DEALER, SUPERVISOR, make_app, play_round, serve

BETS = ((2, 2500), (4, 5000))


def deal_to_setting(client: Any) -> None:
    """Open, bets at 2 and 4, close, shuffle, seven packets, roll; position 4 is set."""
    ok = [client.post("/api/round/open", headers=DEALER)]
    for position, wager in BETS:
        ok.append(client.post("/api/round/bets", headers=DEALER,
                              json={"position": position, "wager": wager}))
    for path in ("close-bets", "shuffle", *["packet"] * 7, "roll"):
        ok.append(client.post(f"/api/round/{path}", headers=DEALER))
    ok.append(client.post("/api/round/hands", headers=DEALER, json={"position": 4}))
    assert all(r.status_code == 200 for r in ok), [r.text for r in ok if r.status_code != 200]


def dealt(path: Path) -> dict[int, list[str]]:
    """The open round's packets by number, read from the journal itself (offline)."""
    with open_journal(path) as journal:
        records = list(journal.iter_records())
    last_open = max(r.seq for r in records if r.kind == "round_opened")
    return {r.payload()["n"]: list(r.payload()["cards"]) for r in records
            if r.kind == "packet" and r.seq > last_open}


def quoted(text: str, cards: list[str]) -> list[str]:
    """The cards that appear in ``text`` as JSON strings."""
    return [card for card in cards if f'"{card}"' in text]


@pytest.fixture
def table(journal_path: Path) -> Iterator[TestClient]:
    with TestClient(make_app(journal_path)) as client:
        play_round(client)  # a settled round for the recall
        deal_to_setting(client)
        yield client


@pytest.fixture
def journal_path(tmp_path: Path) -> Path:
    return tmp_path / "table.db"


def _readable_routes(client: TestClient) -> list[str]:
    """Every GET route the API documents (but the stream, asked below), and the pages."""
    paths = client.get("/openapi.json").json()["paths"]
    return sorted([path for path, methods in paths.items() if "get" in methods
                   and "{" not in path and path != "/api/events"]
                  + ["/", "/audit", "/docs", "/openapi.json"])


def test_no_route_shows_the_public_a_card_before_exposure(table: TestClient,
                                                          journal_path: Path) -> None:
    cards = [card for packet in dealt(journal_path).values() for card in packet]
    assert len(cards) == 49
    routes = _readable_routes(table)
    assert {"/api/table", "/api/rounds", "/api/cuts"} <= set(routes)
    asked = [*routes, "/api/rounds?records=true&last=100", "/", "/static/display.js"]
    for path in asked:
        answer = table.get(path)
        assert answer.status_code in (200, 401, 403), (path, answer.status_code)
        if path.startswith("/api/rounds"):  # the settled round's hands are all public
            rounds = answer.json()["rounds"]
            assert all("hash" not in r for step in rounds for r in step.get("records", []))
            text = json.dumps([r for step in rounds for r in step.get("records", [])
                               if r["kind"] == "packet"])
        else:
            text = answer.text
        assert quoted(text, cards) == [], path
    view = table.get("/api/table").json()
    assert view["sight"] == "public" and view["phase"] == "setting"
    seats = {s["position"]: s for s in view["seats"]}
    assert seats[4]["face_down"] and seats[1]["face_down"] and seats[2]["face_down"]
    assert seats[4]["setting"] is None and seats[4]["set_by"] is None
    assert view["seats"][1]["wager"] == 2500  # bets are on the layout


def test_the_dealer_sees_the_players_hands_not_his_own(table: TestClient) -> None:
    view = table.get("/api/table", headers=DEALER).json()
    seats = {s["position"]: s for s in view["seats"]}
    assert view["sight"] == "dealer"
    assert len(seats[2]["hand"]) == 7 and seats[4]["setting"] is not None
    assert seats[1]["hand"] == [] and seats[1]["face_down"]
    text = table.get("/api/table", headers=DEALER).text
    supervisor = table.get("/api/table", headers=SUPERVISOR).json()
    house_hand = next(s for s in supervisor["seats"] if s["position"] == 1)["hand"]
    assert len(house_hand) == 7 and quoted(text, house_hand) == []


def test_exposure_turns_the_hands_up_for_the_public(table: TestClient) -> None:
    before = table.get("/api/table", headers=SUPERVISOR).json()
    house_hand = next(s for s in before["seats"] if s["position"] == 1)["hand"]
    assert table.post("/api/round/hands", headers=DEALER, json={"position": 2}).status_code == 200
    assert table.post("/api/round/dealer", headers=DEALER).status_code == 200
    view = table.get("/api/table").json()
    seats = {s["position"]: s for s in view["seats"]}
    assert sorted(seats[1]["hand"]) == sorted(house_hand) and not seats[1]["face_down"]
    assert seats[2]["setting"] and seats[4]["setting"] and seats[4]["set_by"] == "house_way"
    assert view["dealer"]["setting"] and view["dealer"]["house_way"] is None  # the house's
    assert not any(s["face_down"] for s in view["seats"])


def test_an_operator_needs_a_token_to_catch_up_and_sees_by_role(journal_path: Path) -> None:
    app = make_app(journal_path)
    with serve(app) as url, httpx2.Client(base_url=url, timeout=10) as client:
        deal_to_setting(client)
        cards = [c for packet in dealt(journal_path).values() for c in packet]
        refused = client.get("/api/events", headers={"Last-Event-ID": "0"})
        assert refused.status_code == 401 and "Last-Event-ID" in refused.json()["detail"]
        for headers, sight in ((DEALER, "dealer"), (SUPERVISOR, "supervisor")):
            text = _catch_up(client, {**headers, "Last-Event-ID": "0"})
            records = [json.loads(line[6:]) for line in text.splitlines()
                       if line.startswith("data: ")]
            assert records[0]["seq"] == 1 and len(records) > 10
            assert all(not str(r["randomness"] or "").startswith("seeded:") for r in records)
            if sight == "dealer":
                assert sorted(quoted(text, cards)) == sorted(_set_cards(records)) != []
                assert all("hash" not in r for r in records)
            else:
                assert quoted(text, cards) == cards and all("hash" in r for r in records)


def _set_cards(records: list[dict[str, Any]]) -> list[str]:
    out = []
    for record in records:
        setting = record["event"].get("setting")
        if record["kind"] == "set" and isinstance(setting, dict):
            out += setting["low"] + setting["high"]
    return out


def _catch_up(client: httpx2.Client, headers: dict[str, str]) -> str:
    """The catch-up batch a stream sends first (up to its first keepalive-free pause)."""
    with client.stream("GET", "/api/events", headers=headers) as stream:
        assert stream.status_code == 200
        for chunk in stream.iter_text():
            if "data: " in chunk:
                return chunk
    raise AssertionError("no catch-up")


def test_the_public_stream_carries_no_card_before_exposure(journal_path: Path) -> None:
    app = make_app(journal_path)
    with serve(app) as url, httpx2.Client(base_url=url, timeout=10) as client, \
            client.stream("GET", "/api/events") as stream:
        lines = stream.iter_lines()
        assert next(lines).startswith("retry:")
        deal_to_setting(client)
        client.post("/api/round/hands", headers=DEALER, json={"position": 2})
        events: list[dict[str, Any]] = []
        for line in lines:
            if line.startswith("data: "):
                events.append(json.loads(line[6:]))
                if events[-1]["kind"] == "set" and events[-1]["event"]["position"] == 2:
                    break
        cards = [c for packet in dealt(journal_path).values() for c in packet]
        text = json.dumps(events)
        assert quoted(text, cards) == []
        assert next(e["event"] for e in events if e["kind"] == "packet") == {
            "type": "packet", "v": 1, "n": 1}
        assert all("hash" not in e and "prev_hash" not in e for e in events)
        assert re.search(r"seeded:\d", text) is None
        assert any(e["kind"] == "bet" and e["event"]["wager"] == 2500 for e in events)


def test_an_unknown_kind_is_hidden_by_default() -> None:
    secret = {"type": "mystery", "v": 1, "cards": ["As", "Kd"], "note": "new"}
    assert event_for(Sight.PUBLIC, "mystery", secret) == {"type": "mystery", "v": 1}
    assert event_for(Sight.PUBLIC, "mystery", secret, shown=True) == {"type": "mystery", "v": 1}
    assert event_for(Sight.DEALER, "mystery", secret) == {"type": "mystery", "v": 1}
    assert event_for(Sight.SUPERVISOR, "mystery", secret) == secret


def test_a_stream_ticket_opens_the_operators_stream(journal_path: Path) -> None:
    app = make_app(journal_path)
    with serve(app) as url, httpx2.Client(base_url=url, timeout=10) as client:
        assert client.post("/api/events/ticket").status_code == 401
        ticket = client.post("/api/events/ticket", headers=DEALER).json()
        assert ticket["role"] == "dealer" and ticket["expires_in"] > 0
        assert client.get("/api/events", params={"ticket": "made-up-ticket"}).status_code == 401
        client.post("/api/round/open", headers=DEALER)
        with client.stream("GET", "/api/events", params={"ticket": ticket["ticket"]},
                           headers={"Last-Event-ID": "0"}) as stream:
            assert stream.status_code == 200
            text = next(chunk for chunk in stream.iter_text() if "data: " in chunk)
        assert '"round_opened"' in text
