"""A live table holds a dealer's hand set off the house way for the supervisor: a critical
fault at its exposure, before anything is settled; the supervisor corrects it (the fault
clears) or lets it stand (clears the fault, and the settlement records the deviation)."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.journal import Journal
from controller.profiles.poker import load_profile
from controller.round import IllegalActError, PokerRound
from controller.round.showdown import DEALER_OFF_HOUSE_WAY
from controller.rules.poker.setting import legal_settings, seven

from .helpers import DEALER, SUPERVISOR, journal_at, poker, poker_to_dealt, read_all


@pytest.fixture
def journal(tmp_path: Path) -> Journal:
    return journal_at(tmp_path / "j.sqlite")


def _off_house_way(engine: PokerRound) -> tuple[str, str]:
    """Set the players by the house way; the dealer's hand: another legal setting, and the
    house way's."""
    engine.roll(DEALER)
    state = engine.round
    assert state is not None
    for position in state.playing():
        if position != 1:
            engine.set_hand(DEALER, position)
    pieces = engine.known_hand(1)
    assert pieces is not None
    house_way, _ = engine.game.house_way(pieces)
    others = [r.setting for r in legal_settings(seven(list(pieces)), load_profile().evaluator())
              if str(r.setting) != str(house_way)]
    assert others, "every seven-card hand has more than one legal setting"
    return str(others[0]), str(house_way)


def _faults(engine: PokerRound) -> list[dict[str, object]]:
    assert engine.round is not None
    return [data for data in engine.round.faults.values()
            if data.get("code") == DEALER_OFF_HOUSE_WAY]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_off_the_house_way_is_held_until_the_supervisor_corrects_it(journal: Journal,
                                                                    seed: int) -> None:
    engine = poker(journal, seed)
    engine.hold_deviations = True
    poker_to_dealt(engine)
    setting, house_way = _off_house_way(engine)
    engine.expose_dealer(DEALER, setting)
    [fault] = _faults(engine)
    assert house_way in str(fault["text"]) and fault["position"] == 1
    read_all(engine)
    assert not engine.can_settle(DEALER)
    with pytest.raises(IllegalActError, match="dealer_off_house_way"):
        engine.settle(DEALER)
    state = engine.round
    assert state is not None and state.exposure is not None
    engine.correct(SUPERVISOR, state.exposure.seq, setting=house_way,
                   reason="dealer's hand set to the house way before payment")
    assert _faults(engine) == []
    read_all(engine)
    engine.settle(DEALER)
    assert "deviation" not in [r.kind for r in journal.records()]


def test_off_the_house_way_let_stand_settles_with_the_deviation(journal: Journal) -> None:
    engine = poker(journal, 2)
    engine.hold_deviations = True
    poker_to_dealt(engine)
    setting, _ = _off_house_way(engine)
    engine.expose_dealer(DEALER, setting)
    assert engine.round is not None
    [fault_id] = [f for f, d in engine.round.faults.items()
                  if d.get("code") == DEALER_OFF_HOUSE_WAY]
    engine.clear_fault(SUPERVISOR, fault_id, "the hand stands as the dealer set it")
    read_all(engine)
    engine.settle(DEALER)
    assert "deviation" in [r.kind for r in journal.records()]


def test_without_the_hold_nothing_is_raised(journal: Journal) -> None:
    engine = poker(journal, 2)
    poker_to_dealt(engine)
    setting, _ = _off_house_way(engine)
    engine.expose_dealer(DEALER, setting)
    assert _faults(engine) == []
