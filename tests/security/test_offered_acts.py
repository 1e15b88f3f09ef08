"""What the display offers each role comes from the engine's ``can_x`` for that role.

Issue 30 item 6 made the engine refuse a dealer's setting correction once the hands are exposed
(only a supervisor corrects then, with a reason), but the table view still listed
``correct_setting`` at every set position for every viewer: its seat acts restated the rule
for a dealer.  Now each sight's seat acts are asked of the engine for that role: after exposure a
dealer's view offers no correction and a supervisor's does, and what is offered is what the
engine then takes."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.display.conftest import DEALER, SUPERVISOR, make_app


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(make_app(tmp_path / "table.db")) as made:
        yield made


def seats(client: TestClient, headers: dict[str, str] | None) -> dict[int, dict[str, Any]]:
    """The view's seats, by position, as the holder of ``headers`` sees them."""
    view = client.get("/api/table", headers=headers or {}).json()
    return {s["position"]: s for s in view["seats"]}


def to_exposed(client: TestClient) -> None:
    """A round with one bet at 4, set by the house way, and the dealer's hand exposed."""
    for path, body in (("open", None), ("bets", {"position": 4, "wager": 2500}),
                       ("close-bets", None), ("shuffle", None), *[("packet", None)] * 7,
                       ("roll", None), ("hands", {"position": 4})):
        done = client.post(f"/api/round/{path}", headers=DEALER, json=body)
        assert done.status_code == 200, (path, done.text)
    before = seats(client, DEALER)
    assert "correct_setting" in before[4]["acts"]  # face down: the dealer fixes a keying slip
    assert client.post("/api/round/dealer", headers=DEALER).status_code == 200


def test_after_exposure_a_dealer_is_not_offered_a_correction(client: TestClient) -> None:
    to_exposed(client)
    dealer = seats(client, DEALER)
    assert all("correct_setting" not in s["acts"] for s in dealer.values()), dealer
    refused = client.post("/api/round/correct", headers=DEALER,
                          json={"ref": dealer[4]["setting_seq"],
                                "setting": dealer[4]["setting"]["text"], "reason": "slip"})
    assert refused.status_code == 403  # the engine agrees with what was (not) offered


def test_after_exposure_a_supervisor_is_offered_it_and_the_engine_takes_it(
        client: TestClient) -> None:
    to_exposed(client)
    supervisor = seats(client, SUPERVISOR)
    for position in (1, 4):  # the dealer's own exposed hand and the player's
        assert "correct_setting" in supervisor[position]["acts"], supervisor[position]
    low, high = supervisor[4]["setting"]["low"], supervisor[4]["setting"]["high"]
    done = client.post("/api/round/correct", headers=SUPERVISOR,
                       json={"ref": supervisor[4]["setting_seq"],
                             "setting": f"{low[1]} {low[0]} / {' '.join(high)}",
                             "reason": "player's hand misread"})
    assert done.status_code == 200, done.text


def test_the_public_is_offered_no_seat_act(client: TestClient) -> None:
    assert client.post("/api/round/open", headers=DEALER).status_code == 200
    assert "take_bet" in seats(client, DEALER)[3]["acts"]
    assert "take_bet" in seats(client, SUPERVISOR)[3]["acts"]
    assert all(s["acts"] == [] for s in seats(client, None).values())
