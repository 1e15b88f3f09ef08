"""Recall of the issue-8 table profiles: home play's pot deals, banking rotation and heads-up,
played through the round engine into a journal on each back end, read back by
``Journal.last_rounds`` and printed by ``paigow journal show``."""

from __future__ import annotations

import json

import pytest

from controller.commands.journal import main
from controller.journal import Journal
from controller.round import Who
from controller.rules.poker.home_pot import PotResult
from controller.rules.poker.settlement import Settlement
from controller.rules.records import from_json, to_json
from tests.journal.helpers import Store, deal_and_set, profile_round

D, S, SYS = Who.dealer(), Who.supervisor(), Who.system()


def _home_deals(journal: Journal, deals: int) -> list[dict[str, object]]:
    engine = profile_round(journal, "home", seed=3)
    made = []
    for _ in range(deals):
        engine.open_round(D)
        for position in range(2, 8):
            engine.take_bet(D, position, engine.ante_due(position))
        deal_and_set(engine)
        made.append(engine.settle(D).payload())
    return made


def _rotation_rounds(journal: Journal) -> None:
    engine = profile_round(journal, "rotation", seed=4)
    for take in (False, True):
        engine.open_round(D)
        engine.offer_bank(D, 5 if not take else None)  # the first passes over 2, 3 and 4
        if take:
            engine.bank(S, engine.round.bank_offer, 10_000)  # type: ignore[union-attr]
            engine.take_bet(D, 1, 2_500)
        else:
            engine.decline_bank(D)
        for position in (2, 3):
            engine.take_bet(D, position, 2_500)
        deal_and_set(engine)
        engine.expose_dealer(D)
        engine.settle(D)


def _heads_up_round(journal: Journal) -> None:
    engine = profile_round(journal, "heads-up", seed=5)
    engine.open_round(D)
    engine.take_bet(D, 2, 1_500)
    deal_and_set(engine)
    engine.expose_dealer(D)
    engine.settle(D)


def test_pot_deals_recall_who_took_the_pot_or_that_it_carried(store: Store) -> None:
    journal = store.open()
    played = _home_deals(journal, 8)
    recalled = journal.last_rounds(8)
    assert len(recalled) == 8
    outcomes = set()
    for recall, data in zip(recalled, played, strict=True):
        assert recall.is_pot
        result = recall.settlement()
        assert isinstance(result, PotResult) and result == from_json(data)
        assert to_json(result) == data  # the engine's record is the rules core's form
        view = recall.to_json()
        pot = data["pot"]
        assert isinstance(pot, dict)
        assert (view["mode"], view["profile"], view["banker"]) == ("pot", "home", None)
        assert view["pot"] == {k: pot[k] for k in view["pot"]}
        by_position = {s["position"]: s for s in view["seats"]}
        assert sorted(by_position) == [h["position"] for h in pot["hands"]]
        for hand in pot["hands"]:
            seat = by_position[hand["position"]]
            assert seat["ante"] == hand["ante"] and seat["net"] == data["net"][  # type: ignore[index]
                str(hand["position"])]
            assert " / ".join(" ".join(seat["setting"][k]) for k in ("low", "high")) \
                == hand["setting"]
            if pot["winner"] is None:
                assert seat["outcome"] == "carry"
                assert seat["antes_next"] == (hand["position"] not in pot["exempt_next"])
            else:
                assert seat["outcome"] == ("pot" if hand["position"] == pot["winner"] else "loss")
        outcomes.add(pot["winner"] is None)
        assert sum(s["net"] for s in view["seats"]) + pot["carry"] - pot["carried"] == 0
    assert outcomes == {True, False}  # both a carried pot and a taken one were recalled


def test_journal_show_prints_pot_rotation_and_heads_up_rounds(
        store: Store, capsys: pytest.CaptureFixture[str]) -> None:
    journal = store.open()
    played = _home_deals(journal, 8)
    _rotation_rounds(journal)
    _heads_up_round(journal)
    assert main(["journal", "show", store.url, "--last", "11"]) == 0
    out = capsys.readouterr().out
    assert "None" not in out
    blocks = ["round " + b for b in out.split("round ")[1:]]
    assert len(blocks) == 11
    for block, data in zip(blocks[:8], played, strict=True):
        pot = data["pot"]
        assert isinstance(pot, dict)
        assert "home  home play (pot)" in block.splitlines()[0] and "banker" not in block
        if pot["winner"] is None:
            assert "carried over" in block and "skip the next ante" in block
        else:
            assert f"taken by position {pot['winner']} (both highest hands)" in block
        assert block.count("  seat ") == len(pot["hands"]) and "ante 5.00" in block
    declined, taken, heads_up = blocks[8:]
    assert "rotation" in declined.splitlines()[0]
    assert "bank offered to position 5 (passed over 2, 3, 4): declined, the house banks" \
        in declined and "banker 1 (the house)" in declined
    assert "bank offered to position 6: position 6 banks 100.00" in taken
    assert "banker 6 (a player)" in taken
    assert "heads-up  dealer and one seat" in heads_up.splitlines()[0]
    assert "banker 1 (the house)" in heads_up and "seat 2" in heads_up \
        and "wager 15.00" in heads_up and "seat 3" not in heads_up

    assert main(["journal", "show", store.url, "--last", "3", "--json"]) == 0
    views = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [v["profile"] for v in views] == ["rotation", "rotation", "heads-up"]
    assert views[0]["bank"] == {"offered": 5, "skipped": [2, 3, 4], "declined": True,
                                "taken_by": None, "amount": None}
    assert views[1]["bank"] == {"offered": 6, "skipped": [], "declined": False,
                                "taken_by": 6, "amount": 10_000}
    assert (views[1]["banker"], views[2]["banker"], views[2]["positions"]) == (6, 1, 2)
    assert [s["position"] for s in views[2]["seats"]] == [2]
    for recall in journal.last_rounds(3):
        assert not recall.is_pot and isinstance(recall.settlement(), Settlement)
