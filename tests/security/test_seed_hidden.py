"""Issue 30 item 7: the seed is never published.

Before the fix ``paigow display`` always seeded its fakes (a seed drawn at start) and every
draw record went out as ``seeded:N`` on ``/api/events``, ``/api/rounds?records=true`` and the
acts' answers, so the next round's packets could be computed.  Now the fakes draw from
``secrets`` unless ``--seed N`` is given, a seeded table shows a banner, and no viewer of any
role is sent the seed (the journal itself still records it, for replay and audit).
"""

from __future__ import annotations

import json
from pathlib import Path

import httpx2
import pytest
from fastapi.testclient import TestClient

from controller.cli import build_parser
from controller.commands.display import engine_on_fakes
from controller.display import Table
from controller.journal import StepClock, open_journal
from controller.round import Who
from tests.display.conftest import DEALER, SUPERVISOR, make_app, play_round, serve

SEED = 7  # make_app's


def test_display_draws_from_secrets_unless_seeded(tmp_path: Path) -> None:
    with open_journal(tmp_path / "t.db", clock=StepClock()) as journal:
        table = Table(engine_on_fakes(journal, "poker"))
        table.act("open_round", Who.dealer())
        table.act("take_bet", Who.dealer(), 2, 2500)
        table.act("close_bets", Who.dealer())
        [shuffled] = table.act("shuffle", Who.dealer())
        assert str(shuffled.randomness) == "secrets"
        assert table.view()["seeded"] is False
    with open_journal(tmp_path / "s.db", clock=StepClock()) as journal:
        table = Table(engine_on_fakes(journal, "poker", 12345))
        assert table.view()["seeded"] is True


def test_seed_is_an_explicit_option() -> None:
    parser = build_parser()
    assert parser.parse_args(["display", "--journal", "j.db"]).seed is None
    assert parser.parse_args(["display", "--journal", "j.db", "--seed", "5"]).seed == 5
    with pytest.raises(SystemExit):
        parser.parse_args(["display", "--journal", "j.db", "--seed", "-1"])


def test_no_viewer_of_any_role_is_sent_the_seed(tmp_path: Path) -> None:
    path = tmp_path / "table.db"
    seen: list[str] = []
    with TestClient(make_app(path, seed=SEED)) as client:
        acts = [client.post("/api/round/open", headers=DEALER)]
        acts.append(client.post("/api/round/bets", headers=DEALER,
                                json={"position": 2, "wager": 2500}))
        for act in ("close-bets", "shuffle", "roll"):
            acts.append(client.post(f"/api/round/{act}", headers=DEALER))
        seen += [a.text for a in acts]
        shuffled = [r for a in acts for r in a.json().get("records", [])
                    if r["kind"] in ("shuffled", "roll")]
        assert shuffled and all(r["randomness"] == "seeded" for r in shuffled)
    with serve(make_app(path, seed=SEED)) as url, httpx2.Client(base_url=url, timeout=10) as c:
        c.post("/api/round/void", headers=SUPERVISOR, json={"reason": "test"})
        play_round(c)
        for headers in ({}, DEALER, SUPERVISOR):
            view = c.get("/api/table", headers=headers).json()
            assert view["seeded"] is True
            seen.append(json.dumps(view))
            seen.append(c.get("/api/rounds?records=true", headers=headers).text)
        for headers in (DEALER, SUPERVISOR):
            with c.stream("GET", "/api/events", headers={**headers, "Last-Event-ID": "0"}) as s:
                seen.append(next(chunk for chunk in s.iter_text() if "data: " in chunk))
    text = "\n".join(seen)
    assert '"seeded"' in text  # the source is told, so the page can show the banner
    assert "seeded:" not in text and f"seeded:{SEED}" not in text
    with open_journal(path) as journal:  # offline, the journal keeps it for replay
        assert any(str(r.randomness) == f"seeded:{SEED}" for r in journal.iter_records())
