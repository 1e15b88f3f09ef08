"""The Pai Gow cut as a dealer's act: verify / can / do, journaled, carried by the woodpile
record, replayed; no stack order is known for any cut, so the deal is unchanged."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.journal import open_journal
from controller.replay.journal import replay_journal
from controller.round import IllegalActError, Phase, PhaseError, RoleError, TileRound
from controller.rules.tiles.cuts import Cut

from .helpers import DEALER, SUPERVISOR, SYSTEM, journal_at, tiles, tiles_set_all


def _open(engine: TileRound) -> None:
    engine.open_round(DEALER)
    for position, wager in {3: 2500, 5: 5000}.items():
        engine.take_bet(DEALER, position, wager)


def test_a_cut_is_journaled_and_rides_on_the_woodpile_record(tmp_path: Path) -> None:
    engine = tiles(journal_at(tmp_path / "t.db"))
    _open(engine)
    assert engine.can_cut(DEALER, "tiger:right,top")
    record = engine.cut(DEALER, "Tiger: top, right")
    data = record.payload()
    assert record.kind == "cut" and record.actor == DEALER.actor
    assert data["cut"] == "cup-say" and data["english"] == "Tiger"
    assert data["options"] == {"side": "right", "level": "top"}
    assert data["source"] == "[D1] l.34" and data["effect"] == "recorded only"
    assert engine.phase is Phase.BETTING  # a cut changes no phase
    engine.close_bets(DEALER)
    woodpile = engine.build_woodpile(DEALER).payload()
    assert woodpile["cut"] == {k: v for k, v in data.items() if k not in ("type", "v")}
    assert Cut.from_json(woodpile["cut"]) == Cut.parse("cup-say:right,top")


def test_the_cut_may_also_come_once_bets_are_closed_with_named_options(tmp_path: Path) -> None:
    engine = tiles(journal_at(tmp_path / "t.db"))
    _open(engine)
    engine.close_bets(DEALER)
    record = engine.cut(SUPERVISOR, "one stack", {"side": "left"})
    assert record.payload()["options"] == {"side": "left"}


def test_refusals_name_why_and_journal_nothing(tmp_path: Path) -> None:
    journal = journal_at(tmp_path / "t.db")
    engine = tiles(journal)
    with pytest.raises(PhaseError):
        engine.verify_cut(DEALER, "foot-say")  # no round open
    _open(engine)
    head = journal.head()
    with pytest.raises(RoleError, match="needs dealer or supervisor"):
        engine.verify_cut(SYSTEM, "foot-say")
    with pytest.raises(IllegalActError, match="unknown cut 'shuffle'"):
        engine.cut(DEALER, "shuffle")
    with pytest.raises(IllegalActError, match="needs its side: right or left"):
        engine.cut(DEALER, "kangaroo jump")
    assert not engine.can_cut(DEALER, "tiger:left")
    assert journal.head() == head
    first = engine.cut(DEALER, "sydney tower")
    with pytest.raises(IllegalActError, match=f"'sydney-tower' was already called \\(record "
                                              f"{first.seq}\\)"):
        engine.cut(DEALER, "china bank")
    engine.close_bets(DEALER)
    engine.build_woodpile(DEALER)
    assert not engine.can_cut(DEALER, "china bank")  # the woodpile is out: too late
    with pytest.raises(PhaseError, match="'dealt'"):
        engine.verify_cut(DEALER, "china bank")


def test_no_cut_changes_the_deal_it_is_recorded_only(tmp_path: Path) -> None:
    plans = []
    for name, cut in (("plain", None), ("cut", "flying dragon:left")):
        engine = tiles(journal_at(tmp_path / f"{name}.db"), seed=7)
        _open(engine)
        if cut:
            engine.cut(DEALER, cut)
        engine.close_bets(DEALER)
        woodpile = engine.build_woodpile(DEALER).payload()
        assert ("cut" in woodpile) == bool(cut)
        engine.roll(SYSTEM)
        assert engine.round is not None and engine.round.plan is not None
        plans.append(engine.round.plan)
    assert plans[0] == plans[1]


def test_a_round_with_a_cut_replays_and_recovers(tmp_path: Path) -> None:
    path = tmp_path / "t.db"
    journal = journal_at(path)
    engine = tiles(journal)
    _open(engine)
    engine.cut(DEALER, "double bridge:right")
    engine.close_bets(DEALER)
    engine.build_woodpile(DEALER)
    engine.roll(SYSTEM)
    tiles_set_all(engine)
    engine.settle(DEALER)
    assert engine.round is not None
    again = tiles(journal)
    again.load(engine.round.records)
    cut = again.cut_record()
    assert cut is not None and cut.payload()["cut"] == "gum-un-que"
    journal.close()
    report = replay_journal(open_journal(path))
    assert report.ok, [r.difference for r in report.rounds]
    assert [r.ended for r in report.rounds] == ["settle"]
    # replayed into the same journal, every record gets a new number: still the same round
    same = open_journal(path)
    again_report = replay_journal(same, engine.round.round_id, into=same)
    assert again_report.ok, [r.difference for r in again_report.rounds]
    replayed = same.round(again_report.rounds[0].replay_id)
    assert [r.kind for r in replayed].count("cut") == 1
