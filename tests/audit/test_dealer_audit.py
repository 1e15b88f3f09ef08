"""The dealer audit on a journal of real rounds with planted deviations, overrides, fouls,
corrections and a void."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from controller.audit import RoundAudit, Scope, audit_journal, summarize
from controller.audit.tabular import findings
from controller.journal import open_journal
from controller.round import FakeCamera
from controller.rules.poker.setting import Setting
from tests.audit.conftest import ANN, Planted
from tests.audit.helpers import (
    SUPERVISOR,
    SYSTEM,
    deal_and_roll,
    journal_at,
    off_the_way,
    players_by_house_way,
    poker_engine,
)


def _audits(planted: Planted, scope: Scope | None = None,
            costs: bool = True) -> list[RoundAudit]:
    with open_journal(planted.path, create=False) as journal:
        return audit_journal(journal, str(planted.path), scope or Scope(), costs=costs,
                             samples=500)


def test_every_round_is_audited_with_its_dealer_and_status(planted: Planted) -> None:
    audits = {a.round_id: a for a in _audits(planted, costs=False)}
    rounds = planted.rounds
    assert set(audits) == set(rounds.values())
    assert {audits[rounds[k]].dealer for k in ("entered", "camera", "void")} == {"ann"}
    assert {audits[rounds[k]].dealer for k in ("clean", "players")} == {"bob"}
    assert audits[rounds["void"]].status == "voided"
    assert all(a.table == "table7" for a in audits.values())


def test_entered_deviation_is_found_with_the_setting_and_rule(planted: Planted) -> None:
    audits = {a.round_id: a for a in _audits(planted)}
    dev = audits[planted.rounds["entered"]].deviation
    assert dev is not None and dev.flagged
    assert Setting.parse(dev.actual) == Setting.parse(planted.dealer_settings["entered"])
    assert Setting.parse(dev.house_way) != Setting.parse(dev.actual)
    assert dev.rule.startswith("trump-plaza.")
    assert audits[planted.rounds["clean"]].deviation is None
    assert audits[planted.rounds["players"]].deviation is None


def test_realized_cost_matches_the_same_deal_played_by_the_house_way(planted: Planted,
                                                                      tmp_path: Path) -> None:
    # The first round of an engine seeded 11 again, this time the dealer plays the house way.
    journal = journal_at(tmp_path / "twin.db")
    engine = poker_engine(journal, seed=11, camera=False)
    deal_and_roll(engine)
    players_by_house_way(engine)
    engine.expose_dealer(ANN)
    record = engine.settle(ANN)
    journal.close()
    house_way_net = record.payload()["net"]["1"]
    audits = {a.round_id: a for a in _audits(planted, costs=False)}
    dev = audits[planted.rounds["entered"]].deviation
    assert dev is not None
    assert dev.realized_cents == house_way_net - planted.net_house["entered"]


def test_camera_only_deviation_is_found_but_cost_nothing_realized(planted: Planted) -> None:
    audits = {a.round_id: a for a in _audits(planted)}
    dev = audits[planted.rounds["camera"]].deviation
    assert dev is not None
    assert dev.source == "camera" and not dev.flagged
    assert Setting.parse(dev.actual) == Setting.parse(planted.dealer_settings["camera"])
    assert dev.realized_cents == 0  # the entered house way stood at the settlement
    assert dev.expected is not None and not dev.expected.exact
    assert dev.expected.error_cents > 0


def test_override_foul_correction_and_void_are_listed(planted: Planted) -> None:
    audits = {a.round_id: a for a in _audits(planted, costs=False)}
    players = audits[planted.rounds["players"]]
    assert [o.position for o in players.overrides] == [planted.override_position]
    override = players.overrides[0]
    assert Setting.parse(override.actual) != Setting.parse(override.house_way)
    assert [(f.position, f.result) for f in players.fouls] == [(planted.foul_position, "lost")]
    assert Setting.parse(players.fouls[0].setting) == Setting.parse(planted.foul)
    assert len(players.corrections) == 1
    correction = players.corrections[0]
    assert correction.target == "set" and correction.position == planted.override_position
    assert Setting.parse(correction.after) == Setting.parse(override.actual)
    assert correction.actor == "bob"
    void = audits[planted.rounds["void"]]
    assert void.void_reason == "cards exposed during the deal" and not void.void_auto
    clean = audits[planted.rounds["clean"]]
    assert not (clean.overrides or clean.fouls or clean.corrections)


def test_groups_per_dealer_shift_and_table(planted: Planted) -> None:
    groups = {g.dealer: g for g in summarize(_audits(planted, costs=False))}
    ann, bob = groups["ann"], groups["bob"]
    assert (ann.rounds, ann.exposed, ann.deviations, ann.voids) == (3, 2, 2, 1)
    assert ann.deviation_rate == 1.0
    assert ann.top_rule is not None and ann.top_rule_count >= 1
    assert (bob.rounds, bob.exposed, bob.deviations, bob.deviation_rate) == (2, 2, 0, 0.0)
    assert (bob.overrides, bob.fouls, bob.corrections) == (1, 1, 1)
    assert ann.shift == bob.shift == "2026-11-22 06-14"


def test_filters_by_dealer_and_time(planted: Planted) -> None:
    everything = _audits(planted, costs=False)
    only_bob = _audits(planted, Scope(dealer="bob"), costs=False)
    assert {a.dealer for a in only_bob} == {"bob"} and len(only_bob) == 2
    camera = next(a for a in everything if a.round_id == planted.rounds["camera"])
    late = _audits(planted, Scope(start=camera.opened), costs=False)
    assert [a.round_id for a in late] == [a.round_id for a in everything
                                          if a.opened >= camera.opened]
    early = _audits(planted, Scope(end=camera.opened + timedelta(microseconds=1)),
                    costs=False)
    assert early[-1].round_id == planted.rounds["camera"]
    assert _audits(planted, Scope(table="table9"), costs=False) == []


def test_expected_cost_is_repeatable(planted: Planted) -> None:
    first = {a.round_id: a.deviation for a in _audits(planted) if a.deviation}
    again = {a.round_id: a.deviation for a in _audits(planted) if a.deviation}
    assert first == again


def test_a_camera_reading_of_other_cards_is_a_misread_not_a_deviation(tmp_path: Path) -> None:
    journal = journal_at(tmp_path / "misread.db")
    engine = poker_engine(journal, seed=5, camera=True)
    deal_and_roll(engine, ANN)
    players_by_house_way(engine, ANN)
    engine.expose_dealer(ANN)
    state = engine.round
    assert state is not None and isinstance(engine.camera, FakeCamera)
    theirs = engine.known_hand(state.playing()[1])  # another position's cards
    assert theirs is not None
    engine.camera.see(1, f"{theirs[0]} {theirs[1]} / {' '.join(theirs[2:])}")
    for position in state.playing():
        if position != 1:
            engine.camera.see(position, str(engine.entered(position)))
        engine.read_camera(SYSTEM, position)
    engine.clear_fault(SUPERVISOR, state.critical_faults[0])
    engine.settle(ANN)
    (audit,) = audit_journal(journal, str(tmp_path / "misread.db"), Scope())
    journal.close()
    assert audit.status == "settled" and audit.deviation is None


def test_a_player_who_asked_for_the_house_way_is_marked_so(tmp_path: Path) -> None:
    journal = journal_at(tmp_path / "asked.db")
    engine = poker_engine(journal, seed=12)
    if not hasattr(engine, "play_house_way"):
        pytest.skip("this engine has no play_house_way act")
    deal_and_roll(engine, ANN)
    state = engine.round
    assert state is not None
    first, *others = [p for p in state.playing() if p != 1]
    record = engine.play_house_way(ANN, first)
    for position in others:
        engine.set_hand(ANN, position)
    engine.correct(ANN, record.seq, setting=off_the_way(engine, first))
    engine.expose_dealer(ANN)
    engine.settle(ANN)
    (audit,) = audit_journal(journal, str(tmp_path / "asked.db"), Scope(), costs=False)
    journal.close()
    (override,) = audit.overrides
    assert override.position == first and override.requested and override.source == "entered"
    (row,) = [f for f in findings([audit]) if f["kind"] == "override"]
    assert row["detail"] == "asked for the house way, set otherwise"
