"""Server-sent events from a live uvicorn: an act's records arrive as ``record`` events."""

from __future__ import annotations

import json

import httpx2

from .conftest import DEALER


def test_an_act_is_pushed_as_one_event_per_record(live: str) -> None:
    with httpx2.Client(base_url=live, timeout=10) as client, \
            client.stream("GET", "/api/events") as stream:
        assert stream.headers["content-type"].startswith("text/event-stream")
        lines = stream.iter_lines()
        assert next(lines).startswith("retry:")
        assert client.post("/api/round/open", headers=DEALER).status_code == 200
        event: dict[str, str] = {}
        for line in lines:
            if not line:
                if "data" in event:
                    break
                continue
            key, _, value = line.partition(": ")
            event[key] = value
        record = json.loads(event["data"])
        assert event["event"] == "record" and event["id"] == str(record["seq"])
        assert record["kind"] == "round_opened" and record["actor"] == "ann"


def test_last_event_id_catches_up(live: str) -> None:
    with httpx2.Client(base_url=live, timeout=10) as client:
        client.post("/api/round/open", headers=DEALER)
        client.post("/api/round/bets", headers=DEALER, json={"position": 2, "wager": 2500})
        with client.stream("GET", "/api/events",
                           headers={**DEALER, "Last-Event-ID": "1"}) as stream:
            first = next(line for line in stream.iter_lines() if line.startswith("data: "))
    record = json.loads(first.removeprefix("data: "))
    assert (record["seq"], record["kind"]) == (2, "bet")
