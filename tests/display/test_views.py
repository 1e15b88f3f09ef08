"""What the table view offers the page: limits, the acts each role could do now, per-seat acts,
the records a correction names and the alerts (faults, unknown reads, misdeals); and
``/api/operator`` for signing in."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from controller.display import Table, create_app
from controller.journal import StepClock, open_journal
from controller.profiles.poker import load_profile
from controller.round import FakeCamera, FakeDice, FakeShuffler, PokerRound

from .conftest import DEALER, SETTINGS, SUPERVISOR


def seats(client: TestClient) -> dict[int, dict[str, Any]]:
    return {s["position"]: s for s in client.get("/api/table", headers=DEALER).json()["seats"]}


def test_the_operator_behind_a_token(client: TestClient) -> None:
    ann = client.get("/api/operator", headers=DEALER).json()
    assert (ann["actor"], ann["role"]) == ("ann", "dealer")
    assert "take_bet" in ann["acts"] and "void" not in ann["acts"]
    sue = client.get("/api/operator", headers=SUPERVISOR).json()
    assert {"void", "bank", "clear_fault"} <= set(sue["acts"])
    assert client.get("/api/operator").status_code == 401
    refused = client.get("/api/operator", headers={"Authorization": "Bearer nobody-at-all"})
    assert refused.status_code == 401 and "unknown token" in refused.json()["detail"]


def test_limits_and_bet_entry_follow_the_profile_and_the_phase(client: TestClient) -> None:
    limits = load_profile("classic").settlement.limits
    view = client.get("/api/table", headers=DEALER).json()
    assert view["limits"] == {"min_bet": limits.min_bet, "max_bet": limits.max_bet,
                              "fortune_min": limits.fortune_min,
                              "fortune_max": limits.fortune_max}
    assert view["fortune"] is True and view["camera"] is False
    assert all(s["acts"] == [] for s in view["seats"])  # no round open
    client.post("/api/round/open", headers=DEALER)
    now = seats(client)
    assert "take_bet" not in now[1]["acts"]  # the house banks
    assert all("take_bet" in now[p]["acts"] for p in range(2, 8))
    bet = client.post("/api/round/bets", headers=DEALER, json={"position": 3, "wager": 2500})
    seq = bet.json()["records"][0]["seq"]
    now = seats(client)
    assert now[3]["bet_seq"] == seq and now[3]["acts"] == ["correct_bet"]
    corrected = client.post("/api/round/correct", headers=DEALER,
                            json={"ref": seq, "wager": 5000}).json()["records"][0]["seq"]
    assert seats(client)[3]["bet_seq"] == corrected


def test_can_lists_per_role(client: TestClient) -> None:
    client.post("/api/round/open", headers=DEALER)
    can = client.get("/api/table", headers=DEALER).json()["can"]
    assert "void" in can["supervisor"] and "void" not in can["dealer"]
    assert "bank" in can["supervisor"] and "bank" not in can["dealer"]
    assert "close_bets" not in can["dealer"]  # nobody has bet
    client.post("/api/round/bets", headers=DEALER, json={"position": 2, "wager": 2500})
    can = client.get("/api/table", headers=DEALER).json()["can"]
    assert "close_bets" in can["dealer"] and "bank" not in can["supervisor"]  # bets are down


def test_a_fault_can_be_cleared_by_a_supervisor_only(client: TestClient) -> None:
    client.post("/api/round/open", headers=DEALER)
    client.post("/api/round/bets", headers=DEALER, json={"position": 2, "wager": 2500})
    client.post("/api/round/close-bets", headers=DEALER)
    table = client.app.state.table  # type: ignore[attr-defined]
    table.engine.shuffler.inject("short_count")
    client.post("/api/round/shuffle", headers=DEALER)
    view = client.get("/api/table", headers=DEALER).json()
    [fault] = [a for a in view["alerts"] if a["kind"] == "fault"]
    assert fault["critical"] and "52" in fault["text"]
    assert "clear_fault" in view["can"]["supervisor"] and "clear_fault" not in view["can"]["dealer"]
    assert "deal_packet" not in view["can"]["dealer"]
    url = f"/api/round/faults/{fault['fault']}/clear"
    assert client.post(url, headers=DEALER).status_code == 403
    done = client.post(url, headers=SUPERVISOR, json={"text": "deck recounted"})
    assert done.status_code == 200 and done.json()["records"][0]["actor"] == "sue"
    alerts = client.get("/api/table", headers=DEALER).json()["alerts"]
    assert not [a for a in alerts if a["kind"] == "fault"]


def test_seat_acts_through_setting_and_correction(client: TestClient) -> None:
    client.post("/api/round/open", headers=DEALER)
    client.post("/api/round/bets", headers=DEALER, json={"position": 4, "wager": 2500})
    for path in ("close-bets", "shuffle", *["packet"] * 7, "roll"):
        assert client.post(f"/api/round/{path}", headers=DEALER).status_code == 200, path
    now = seats(client)
    playing = [p for p, s in now.items() if "set_hand" in s["acts"]]
    assert playing == [4] and now[1]["acts"] == []  # exposed once position 4 has set
    assert len(now[4]["hand"]) == 7  # the dealer sees a player's hand to key it in
    assert now[1]["hand"] == [] and now[1]["face_down"]  # not his own before exposure
    assert all(now[p]["hand"] == [] for p in (2, 3, 5, 6, 7))  # vacant: collected unseen
    done = client.post("/api/round/hands", headers=DEALER, json={"position": 4})
    seq = done.json()["records"][0]["seq"]
    now = seats(client)
    assert now[4]["setting_seq"] == seq and now[4]["acts"] == ["correct_setting"]
    assert now[1]["acts"] == ["expose_dealer"]
    exposed = client.post("/api/round/dealer", headers=DEALER).json()["records"][0]["seq"]
    assert seats(client)[1]["setting_seq"] == exposed
    client.post("/api/round/settle", headers=DEALER)
    assert all(s["acts"] == [] for s in seats(client).values())


def camera_client(path: Path) -> TestClient:
    """A poker table with a camera the test tells what it sees."""
    journal = open_journal(path, clock=StepClock())
    engine = PokerRound(journal, load_profile("classic"), FakeShuffler(7), FakeDice(7),
                        FakeCamera())
    return TestClient(create_app(Table(engine), SETTINGS))


def to_exposed(client: TestClient) -> None:
    client.post("/api/round/open", headers=DEALER)
    client.post("/api/round/bets", headers=DEALER, json={"position": 4, "wager": 2500})
    for path in ("close-bets", "shuffle", *["packet"] * 7, "roll"):
        assert client.post(f"/api/round/{path}", headers=DEALER).status_code == 200, path
    client.post("/api/round/hands", headers=DEALER, json={"position": 4})
    client.post("/api/round/dealer", headers=DEALER)


def test_unknown_reads_and_camera_mismatches_are_alerts(journal_path: Path) -> None:
    with camera_client(journal_path) as client:
        to_exposed(client)
        assert client.get("/api/table", headers=DEALER).json()["camera"] is True
        assert "read_camera" in seats(client)[4]["acts"]
        camera = client.app.state.table.engine.camera  # type: ignore[attr-defined]
        camera.see(1, None)  # the camera cannot tell
        entered = seats(client)[4]["setting"]
        low, high = entered["low"], entered["high"]
        camera.see(4, f"{high[0]} {high[1]} / {' '.join(low + high[2:])}")  # another setting
        for position in (1, 4):
            assert client.post("/api/round/camera", headers=DEALER,
                               json={"position": position}).status_code == 200
        alerts = client.get("/api/table", headers=DEALER).json()["alerts"]
        kinds = {a["kind"] for a in alerts}
        assert kinds == {"unknown_read", "fault"}
        [unknown] = [a for a in alerts if a["kind"] == "unknown_read"]
        assert unknown["text"].startswith("position 1:")
        [mismatch] = [a for a in alerts if a["kind"] == "fault"]
        assert mismatch["critical"] and "position 4" in mismatch["text"]
        refused = client.post("/api/round/settle", headers=DEALER)
        assert refused.status_code == 409 and "is active" in refused.json()["detail"]


def test_a_misdeal_is_an_alert(client: TestClient) -> None:
    client.post("/api/round/open", headers=DEALER)
    client.post("/api/round/bets", headers=DEALER, json={"position": 4, "wager": 2500})
    client.post("/api/round/close-bets", headers=DEALER)
    client.post("/api/round/shuffle", headers=DEALER)
    client.post("/api/round/packet", headers=DEALER)
    client.app.state.table.engine.shuffler.inject("duplicate")  # type: ignore[attr-defined]
    assert client.post("/api/round/packet", headers=DEALER).status_code == 200
    view = client.get("/api/table", headers=DEALER).json()
    [misdeal] = [a for a in view["alerts"] if a["kind"] == "misdeal"]
    assert view["phase"] == "voided" and "misdeal: packet 2" in misdeal["text"]
