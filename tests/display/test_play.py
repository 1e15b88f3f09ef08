"""The display for the tables that play differently, through the JSON API: the tile cut, the
banking rotation, home play's pot and heads-up's repeated wager and "Play the house way"."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from controller.display import Table, create_app
from controller.journal import StepClock, open_journal
from controller.round import FakeDice, FakeShuffler
from controller.round.build import table_engine
from controller.rules.tiles.cuts import CUTS

from .conftest import DEALER, SETTINGS, SUPERVISOR

TILE_HANDS = ["6-6 4-5 1-2 3-3", "2-2 5-6 1-3 4-4", "1-1 5-5 2-4 3-6", "4-6 1-6 2-6 1-4"]


def profile_app(path: Path, profile: str, seed: int = 7) -> FastAPI:
    """The display over a table of ``profile`` on seeded fakes, journal at ``path``."""
    journal = open_journal(path, clock=StepClock())
    engine = table_engine(journal, profile, shuffler=FakeShuffler(seed), dice=FakeDice(seed))
    return create_app(Table(engine), SETTINGS)


@pytest.fixture
def table_for(tmp_path: Path) -> Iterator[Any]:
    """``table_for(profile)``: a TestClient over a fresh table of that profile."""
    opened: list[TestClient] = []

    def make(profile: str) -> TestClient:
        client = TestClient(profile_app(tmp_path / f"{profile}.db", profile))
        opened.append(client.__enter__())
        return client

    yield make
    for client in opened:
        client.__exit__(None, None, None)


def ok(response: Any) -> dict[str, Any]:
    assert response.status_code == 200, response.text
    answer: dict[str, Any] = response.json()
    return answer


def view(client: Any) -> dict[str, Any]:
    answer: dict[str, Any] = client.get("/api/table").json()
    return answer


def seat(client: Any, position: int) -> dict[str, Any]:
    """One position as the dealer sees it (the public is offered no acts)."""
    seats = client.get("/api/table", headers=DEALER).json()["seats"]
    found: dict[str, Any] = next(s for s in seats if s["position"] == position)
    return found


def deal_poker(client: Any) -> None:
    """Close bets, shuffle, every packet, roll."""
    for path in ("close-bets", "shuffle"):
        ok(client.post(f"/api/round/{path}", headers=DEALER))
    for _ in range(view(client)["positions"]):
        ok(client.post("/api/round/packet", headers=DEALER))
    ok(client.post("/api/round/roll", headers=DEALER))


# --- the tile cut --------------------------------------------------------------------------

def test_the_cut_catalogue_is_the_rules_cores(table_for: Any) -> None:
    client = table_for("tiles-classic")
    listed = ok(client.get("/api/cuts"))["cuts"]
    assert [c["cut"] for c in listed] == [spec.key for spec in CUTS]
    tiger = next(c for c in listed if c["cut"] == "cup-say")
    assert tiger["english"] == "Tiger"
    assert tiger["options"] == {"side": ["right", "left"], "level": ["top", "bottom"]}


def test_a_tile_round_with_a_cut(table_for: Any) -> None:
    client = table_for("tiles-classic")
    ok(client.post("/api/round/open", headers=DEALER))
    assert "cut" in view(client)["can"]["dealer"] and view(client)["cut"] is None
    ok(client.post("/api/round/bets", headers=DEALER, json={"position": 3, "wager": 2500}))
    # bad options are refused naming the value, and nothing is journaled
    head = view(client)["last_seq"]
    refused = client.post("/api/round/cut", headers=DEALER,
                          json={"cut": "cup-say", "options": {"side": "up", "level": "top"}})
    assert refused.status_code == 409 and "'up'" in refused.json()["detail"]
    unknown = client.post("/api/round/cut", headers=DEALER, json={"cut": "no-such-cut"})
    assert unknown.status_code == 409 and "unknown cut 'no-such-cut'" in unknown.json()["detail"]
    assert view(client)["last_seq"] == head
    assert client.post("/api/round/cut", json={"cut": "foot-say"}).status_code == 401

    done = ok(client.post("/api/round/cut", headers=DEALER,
                          json={"cut": "cup-say", "options": {"side": "right", "level": "top"}}))
    [record] = done["records"]
    assert record["kind"] == "cut" and record["actor"] == "ann"
    shown = view(client)
    assert shown["cut"]["cut"] == "cup-say" and shown["cut"]["seq"] == record["seq"]
    assert shown["cut"]["options"] == {"side": "right", "level": "top"}
    assert shown["cut"]["text"].startswith("Cup Say (Tiger): side right, level top")
    assert "cut" not in shown["can"]["dealer"]  # once a round
    again = client.post("/api/round/cut", headers=DEALER, json={"cut": "foot-say"})
    assert again.status_code == 409 and "already called" in again.json()["detail"]

    for path in ("close-bets", "woodpile", "roll"):
        built = ok(client.post(f"/api/round/{path}", headers=DEALER))
        if path == "woodpile":
            [pile] = built["records"]
            assert pile["event"]["cut"]["cut"] == "cup-say"
    dealers = client.get("/api/table", headers=DEALER).json()["seats"]
    playing = [p for p in dealers if p["acts"] and p["position"] != 1]
    hands = iter(TILE_HANDS)
    for entry in playing:
        ok(client.post("/api/round/hands", headers=DEALER,
                       json={"position": entry["position"], "hand": next(hands)}))
    ok(client.post("/api/round/dealer", headers=DEALER, json={"hand": next(hands)}))
    ok(client.post("/api/round/settle", headers=DEALER))
    settled = view(client)
    assert settled["phase"] == "settled" and settled["cut"]["cut"] == "cup-say"


def test_a_poker_table_has_no_cut(client: TestClient) -> None:
    client.post("/api/round/open", headers=DEALER)
    assert "cut" not in view(client)["can"]["dealer"] and view(client)["cut"] is None
    refused = client.post("/api/round/cut", headers=DEALER, json={"cut": "foot-say"})
    assert refused.status_code == 409 and "this table plays poker" in refused.json()["detail"]


# --- banking rotation ----------------------------------------------------------------------

def test_rotation_offer_decline_and_the_next_turn(table_for: Any) -> None:
    client = table_for("rotation")
    before = view(client)
    assert before["play"]["banking"] == "rotation" and before["bank"]["turn"] == 2
    ok(client.post("/api/round/open", headers=DEALER))
    shown = view(client)
    assert "offer_bank" in shown["can"]["dealer"] and "take_bet" not in seat(client, 3)["acts"]
    assert "position 2 (in turn)" in shown["bank"]["text"]
    ok(client.post("/api/round/offer-bank", headers=DEALER))
    shown = view(client)
    assert shown["bank"]["offered"] == 2 and seat(client, 2)["offered"]
    assert "decline_bank" in shown["can"]["dealer"] and "offer_bank" not in shown["can"]["dealer"]
    assert "bank" in shown["can"]["supervisor"]  # position 2 may take it
    ok(client.post("/api/round/decline-bank", headers=DEALER))
    shown = view(client)
    assert shown["bank"]["declined"] and shown["bank"]["banker"] is None
    assert "declined" in shown["bank"]["text"] and not seat(client, 2)["offered"]
    assert seat(client, 1)["banker"]  # the house banks
    ok(client.post("/api/round/bets", headers=DEALER, json={"position": 4, "wager": 1000}))
    ok(client.post("/api/round/void", headers=SUPERVISOR, json={"reason": "test"}))
    after = view(client)["bank"]  # the next round offers to the next position
    assert after["turn"] == 3 and after["text"] == ("the bank is to be offered to position 3 "
                                                    "(in turn)")


def test_rotation_a_player_takes_the_bank(table_for: Any) -> None:
    client = table_for("rotation")
    ok(client.post("/api/round/open", headers=DEALER))
    out_of_turn = client.post("/api/round/bank", headers=SUPERVISOR,
                              json={"position": 3, "amount": 50000})
    assert out_of_turn.status_code == 409
    ok(client.post("/api/round/offer-bank", headers=DEALER, json={"position": 3}))
    assert view(client)["bank"]["offered"] == 3
    ok(client.post("/api/round/bank", headers=SUPERVISOR, json={"position": 3, "amount": 50000}))
    shown = view(client)
    assert shown["bank"]["banker"] == 3 and shown["bank"]["text"] == "position 3 banks (500.00)"
    assert seat(client, 3)["banker"] and not seat(client, 1)["banker"]
    assert "decline_bank" not in shown["can"]["dealer"]
    # the house bets at position 1 against the player's bank; its hand is the dealer's
    ok(client.post("/api/round/bets", headers=DEALER, json={"position": 1, "wager": 2500}))
    ok(client.post("/api/round/bets", headers=DEALER, json={"position": 4, "wager": 1000}))
    deal_poker(client)
    assert seat(client, 1)["acts"] == []  # the dealer's hand is exposed once the others set
    assert seat(client, 3)["acts"] == ["set_hand", "play_house_way"]  # the player-banker sets
    for position in (3, 4):
        ok(client.post("/api/round/hands", headers=DEALER, json={"position": position}))
    assert seat(client, 1)["acts"] == ["expose_dealer"]
    ok(client.post("/api/round/dealer", headers=DEALER))
    done = ok(client.post("/api/round/settle", headers=DEALER))
    [settle] = [r["event"] for r in done["records"] if r["kind"] == "settle"]
    settled = view(client)
    assert settle["banker"] == 3
    assert settled["dealer"]["position"] == 1 and settled["dealer"]["setting"] is not None
    results = {s["position"]: s["result"] for s in settled["seats"] if s["result"]}
    assert results[3]["outcome"] == "bank" and sorted(results) == [1, 3, 4]
    assert {str(p): r["net"] for p, r in results.items()} == settle["net"]


# --- home play -----------------------------------------------------------------------------

def _home_deal(client: Any, players: list[int]) -> dict[str, Any]:
    ok(client.post("/api/round/open", headers=DEALER))
    for position in players:
        due = seat(client, position)["ante_due"]
        ok(client.post("/api/round/bets", headers=DEALER,
                       json={"position": position, "wager": due}))
    deal_poker(client)
    for position in players:
        ok(client.post("/api/round/hands", headers=DEALER, json={"position": position}))
    assert "expose_dealer" not in seat(client, 1)["acts"]
    return ok(client.post("/api/round/settle", headers=DEALER))


def play_home_deal(client: Any, players: list[int]) -> dict[str, Any]:
    """One home deal through the API (a TestClient or an httpx2.Client): its ``pot`` block."""
    done = _home_deal(client, players)
    [settle] = [r for r in done["records"] if r["kind"] == "settle"]
    pot: dict[str, Any] = settle["event"]["pot"]
    return pot


def test_home_play_pot_antes_and_settle(table_for: Any) -> None:
    client = table_for("home")
    shown = view(client)
    assert shown["play"]["mode"] == "pot" and shown["fortune"] is False
    assert shown["pot"]["pot"] == 0 and shown["pot"]["ante"] == 500
    assert not any(s["banker"] for s in shown["seats"]) and not shown["dealer"]["plays"]
    assert seat(client, 3)["ante_due"] == 500 and seat(client, 1)["ante_due"] is None
    assert "bank" not in shown["can"]["supervisor"]
    players = [2, 3, 4, 5]
    deals = []
    for _ in range(4):  # until a deal carries the pot, or four deals
        done = _home_deal(client, players)
        [settle] = [r for r in done["records"] if r["kind"] == "settle"]
        pot = settle["event"]["pot"]
        deals.append(pot)
        shown = view(client)
        assert shown["pot"]["winner"] == pot["winner"]
        results = {s["position"]: s["result"] for s in shown["seats"] if s["result"]}
        assert sorted(results) == players
        assert sum(r["net"] for r in results.values()) + pot["carry"] - pot["carried"] == 0
        if pot["winner"] is not None:
            assert shown["pot"]["text"] == (f"position {pot['winner']} takes the pot of "
                                            f"{pot['total'] // 100}.{pot['total'] % 100:02d}")
            assert results[pot["winner"]]["outcome"] == "pot"
        else:
            assert "is carried" in shown["pot"]["text"]
            assert shown["pot"]["carry"] == pot["carry"]
            exempt = set(pot["exempt_next"])
            for position in players:  # the next deal's ante, as the engine says
                assert seat(client, position)["ante_due"] == (0 if position in exempt else 500)
    assert all(d["total"] == d["carried"] + d["antes"] for d in deals)
    assert {d["winner"] is None for d in deals} == {True, False}  # seed 7: a win and carries


def test_home_play_refuses_a_wrong_ante(table_for: Any) -> None:
    client = table_for("home")
    ok(client.post("/api/round/open", headers=DEALER))
    refused = client.post("/api/round/bets", headers=DEALER, json={"position": 2, "wager": 600})
    assert refused.status_code == 409 and "ante 600" in refused.json()["detail"]
    assert seat(client, 2)["wager"] is None


# --- heads-up ------------------------------------------------------------------------------

def test_heads_up_deal_repeats_the_last_wager_and_play_the_house_way(table_for: Any) -> None:
    client = table_for("heads-up")
    assert view(client)["play"]["repeat_wager"] and view(client)["positions"] == 2
    ok(client.post("/api/round/open", headers=DEALER))
    assert seat(client, 2)["last_wager"] is None and "repeat_bet" not in seat(client, 2)["acts"]
    nothing = client.post("/api/round/repeat-bet", headers=DEALER, json={"position": 2})
    assert nothing.status_code == 409 and "no last wager" in nothing.json()["detail"]
    ok(client.post("/api/round/bets", headers=DEALER, json={"position": 2, "wager": 3500}))
    deal_poker(client)
    assert "play_house_way" in seat(client, 2)["acts"]
    done = ok(client.post("/api/round/house-way", headers=DEALER, json={"position": 2}))
    [record] = done["records"]
    assert record["event"]["by"] == "house_way" and record["event"]["request"] == "player"
    ok(client.post("/api/round/dealer", headers=DEALER))
    ok(client.post("/api/round/settle", headers=DEALER))

    ok(client.post("/api/round/open", headers=DEALER))
    assert seat(client, 2)["last_wager"] == 3500 and "repeat_bet" in seat(client, 2)["acts"]
    [bet] = ok(client.post("/api/round/repeat-bet", headers=DEALER,
                           json={"position": 2}))["records"]
    assert bet["kind"] == "bet" and bet["event"]["wager"] == 3500 and bet["actor"] == "ann"
    assert "repeat_bet" not in seat(client, 2)["acts"]


def test_repeat_bet_is_refused_where_wagers_are_not_repeated(client: TestClient) -> None:
    client.post("/api/round/open", headers=DEALER)
    refused = client.post("/api/round/repeat-bet", headers=DEALER, json={"position": 2})
    assert refused.status_code == 409 and "does not repeat wagers" in refused.json()["detail"]


# --- the API's documentation -----------------------------------------------------------------

def test_docs_are_served_by_the_table(client: TestClient) -> None:
    page = client.get("/docs")
    assert page.status_code == 200 and "/static/docs.js" in page.text
    assert "cdn" not in page.text.lower() and "https://" not in page.text
    assert client.get("/redoc").status_code == 404
    for asset in ("/static/docs.js", "/static/docs.css"):
        served = client.get(asset)
        assert served.status_code == 200 and "https://" not in served.text
    paths = client.get("/openapi.json").json()["paths"]
    assert {"/api/cuts", "/api/round/cut", "/api/round/offer-bank", "/api/round/decline-bank",
            "/api/round/house-way", "/api/round/repeat-bet"} <= set(paths)
