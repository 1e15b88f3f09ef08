"""The display over a PostgreSQL journal on the real server: a whole round through the API,
recall and resuming an open round after a restart.  Skipped, with the reason, only when the
server cannot be reached."""

from __future__ import annotations

from fastapi import FastAPI
from fastapi.testclient import TestClient

from controller.display import Table, create_app
from controller.journal import StepClock, open_journal
from controller.profiles.tiles import load_tile_profile
from controller.round import FakeDice, TileRound

from .conftest import DEALER, SETTINGS, make_app, play_round


def tiles_app(url: str) -> FastAPI:
    """A tile table's display over the journal at ``url``."""
    journal = open_journal(url, clock=StepClock())
    return create_app(Table(TileRound(journal, load_tile_profile(), FakeDice(3))), SETTINGS)


def test_a_poker_round_on_postgres_and_its_recall_after_a_restart(pg_url: str) -> None:
    with TestClient(make_app(pg_url)) as first:
        play_round(first)
        view = first.get("/api/table").json()
        before = first.get("/api/rounds").json()["rounds"]
    assert view["phase"] == "settled" and len(before) == 1
    with TestClient(make_app(pg_url)) as second:
        assert second.get("/api/rounds").json()["rounds"] == before
    with open_journal(pg_url) as journal:
        assert journal.verify().ok
        assert {r.actor for r in journal.records() if r.kind == "bet"} == {"ann"}


def test_a_tile_round_resumes_on_postgres_after_a_restart(pg_url: str) -> None:
    with TestClient(tiles_app(pg_url)) as first:
        first.post("/api/round/open", headers=DEALER)
        for position in (3, 5):
            first.post("/api/round/bets", headers=DEALER,
                       json={"position": position, "wager": 2500})
        for path in ("close-bets", "woodpile", "roll"):
            assert first.post(f"/api/round/{path}", headers=DEALER).status_code == 200
    with TestClient(tiles_app(pg_url)) as second:
        view = second.get("/api/table", headers=DEALER).json()  # the dealer's acts
        assert view["game"] == "tiles" and view["phase"] == "setting"
        hands = iter(["6-6 4-5 1-2 3-3", "2-2 5-6 1-3 4-4", "1-1 5-5 2-4 3-6"])
        for seat in view["seats"]:
            if "set_hand" in seat["acts"]:
                done = second.post("/api/round/hands", headers=DEALER,
                                   json={"position": seat["position"], "hand": next(hands)})
                assert done.status_code == 200, done.text
        assert second.post("/api/round/dealer", headers=DEALER,
                           json={"hand": next(hands)}).status_code == 200
        assert second.post("/api/round/settle", headers=DEALER).status_code == 200
        settled = second.get("/api/table").json()
        assert settled["phase"] == "settled"
        results = [s["result"] for s in settled["seats"] if s["result"]]
        assert sum(r["net"] for r in results) == 0 and len(results) >= 2
