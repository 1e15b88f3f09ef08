"""Whole rounds of both games on the fakes and a real SQLite journal."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.journal import Role
from controller.round import Phase, PhaseError
from controller.rules.records import from_json
from controller.rules.seat import Bet, HandSet

from .helpers import (
    DEALER,
    SYSTEM,
    journal_at,
    poker,
    poker_to_exposed,
    read_all,
    tiles,
    tiles_set_all,
    tiles_to_setting,
)


def test_poker_round_settles_as_the_rules_core(tmp_path: Path) -> None:
    journal = journal_at(tmp_path / "t.db")
    engine = poker(journal, seed=7)
    poker_to_exposed(engine)
    read_all(engine)
    record = engine.settle(DEALER)
    assert record.kind == "settle" and engine.phase is Phase.SETTLED
    assert journal.open_rounds() == []
    state = engine.round
    assert state is not None
    hands = [HandSet(1, engine.entered(1))] + [
        HandSet(p, e.setting, e.by) for p, e in sorted(state.settings.items())]
    direct = engine.game.settle(hands, [b for b, _ in state.bets.values()], 1, None)
    assert from_json(record.payload()) == direct
    kinds = [r.kind for r in journal.round(state.round_id)]
    assert kinds[:4] == ["round_opened", "bet", "bet", "bet"]
    assert kinds.count("packet") == 7 and kinds.count("camera_read") == 4
    recall = journal.last_rounds(1)[0]
    assert recall.round_id == state.round_id
    devices = {r.actor: r.role for r in journal.round(state.round_id)}
    assert devices["shuffler-1"] is Role.DEVICE and devices["camera-1"] is Role.CAMERA
    randomness = {str(r.randomness) for r in journal.round(state.round_id) if r.randomness}
    assert randomness == {"seeded:7"}


def test_poker_round_without_camera_lets_entered_settings_stand(tmp_path: Path) -> None:
    engine = poker(journal_at(tmp_path / "t.db"), camera=False)
    poker_to_exposed(engine)
    assert not engine.can_read_camera(SYSTEM, 1)
    assert engine.settle(DEALER).kind == "settle"


def test_next_round_opens_after_settle_and_ids_are_unique(tmp_path: Path) -> None:
    engine = poker(journal_at(tmp_path / "t.db"), camera=False)
    poker_to_exposed(engine)
    with pytest.raises(PhaseError, match="still open"):
        engine.open_round(DEALER)
    first = engine.round.round_id if engine.round else ""
    engine.settle(DEALER)
    assert not engine.can_open_round(DEALER, first)
    poker_to_exposed(engine)
    assert engine.round is not None and engine.round.round_id != first


def test_tile_round_settles(tmp_path: Path) -> None:
    journal = journal_at(tmp_path / "t.db")
    engine = tiles(journal, camera=True)
    tiles_to_setting(engine)
    tiles_set_all(engine)
    read_all(engine)
    record = engine.settle(DEALER)
    data = record.payload()
    assert data["game"] == "tiles" and sum(data["net"].values()) == 0
    assert [r.kind for r in journal.round(record.round_id or "")][-1] == "settle"


def test_tile_set_refuses_tiles_beyond_one_set(tmp_path: Path) -> None:
    engine = tiles(journal_at(tmp_path / "t.db"))
    tiles_to_setting(engine)
    assert engine.round is not None
    first, second = [p for p in engine.round.playing() if p != 1][:2]
    engine.set_hand(DEALER, first, hand="6-6 6-6 1-2 3-3")
    with pytest.raises(ValueError, match="6-6"):
        engine.verify_set_hand(DEALER, second, hand="6-6 4-5 1-3 5-5")


def test_poker_set_must_use_the_dealt_hand(tmp_path: Path) -> None:
    engine = poker(journal_at(tmp_path / "t.db"))
    poker_to_exposed(engine, bets={2: 2500})
    engine2 = poker(journal_at(tmp_path / "u.db"), seed=2)
    from .helpers import poker_to_dealt
    poker_to_dealt(engine2, {2: 2500, 3: 2500})
    engine2.roll(SYSTEM)
    hand = engine2.known_hand(3)
    assert hand is not None
    other = engine2.known_hand(2)
    assert other is not None
    wrong = f"{other[0]} {other[1]} / {' '.join(other[2:])}"
    with pytest.raises(ValueError, match="not the hand dealt to position 3"):
        engine2.set_hand(DEALER, 3, wrong)
    right = f"{hand[0]} {hand[1]} / {' '.join(hand[2:])}"
    record = engine2.set_hand(DEALER, 3, right)
    assert from_json(record.payload()).by.value == "player"  # type: ignore[union-attr]
    assert Bet(2, 2500) == engine2.round.bets[2][0]  # type: ignore[union-attr]
