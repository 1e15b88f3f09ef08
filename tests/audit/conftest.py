"""Fixtures of the audit tests: a journal of planted dealer deviations, built once."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from controller.journal import Journal
from controller.round import FakeCamera, PokerRound, Who
from tests.audit.helpers import (
    SUPERVISOR,
    SYSTEM,
    deal_and_roll,
    foul_setting,
    journal_at,
    off_the_way,
    players_by_house_way,
    poker_engine,
)

ANN = Who.dealer("ann")
BOB = Who.dealer("bob")


@dataclass
class Planted:
    """The planted journal and what was planted in it."""

    path: Path
    rounds: dict[str, str]  # scenario -> round id
    dealer_settings: dict[str, str]  # scenario -> the dealer's off-the-way setting
    net_house: dict[str, int]  # scenario -> position 1's net in the settle record
    override_position: int
    foul_position: int
    foul: str


def _read_all(engine: PokerRound) -> None:
    assert engine.round is not None and isinstance(engine.camera, FakeCamera)
    for position in engine.round.playing():
        if position not in engine.camera.seen:
            engine.camera.see(position, str(engine.entered(position)))
        engine.read_camera(SYSTEM, position)


def build_planted(journal: Journal, path: Path) -> Planted:
    """Five rounds: an entered deviation (ann), a clean round (bob), a deviation only the
    camera saw (ann), an override, a correction and a foul (bob), a void (ann)."""
    engine = poker_engine(journal, seed=11, camera=True)
    rounds: dict[str, str] = {}
    settings: dict[str, str] = {}
    nets: dict[str, int] = {}

    def settle(name: str) -> None:
        record = engine.settle(engine_who[name])
        nets[name] = record.payload()["net"]["1"]

    engine_who = {"entered": ANN, "clean": BOB, "camera": ANN, "players": BOB}

    # 1. ann sets her hand off the house way and enters it so.
    deal_and_roll(engine, ANN)
    players_by_house_way(engine, ANN)
    settings["entered"] = off_the_way(engine)
    engine.expose_dealer(ANN, setting=settings["entered"])
    _read_all(engine)
    settle("entered")
    rounds["entered"] = engine.round.round_id  # type: ignore[union-attr]

    # 2. bob by the house way.
    assert isinstance(engine.camera, FakeCamera)
    engine.camera.seen.clear()
    deal_and_roll(engine, BOB)
    players_by_house_way(engine, BOB)
    engine.expose_dealer(BOB)
    _read_all(engine)
    settle("clean")
    rounds["clean"] = engine.round.round_id  # type: ignore[union-attr]

    # 3. ann enters the house way but sets otherwise: the camera sees it; the supervisor
    # clears the mismatch and the entered setting stands.
    engine.camera.seen.clear()
    deal_and_roll(engine, ANN)
    players_by_house_way(engine, ANN)
    engine.expose_dealer(ANN)
    settings["camera"] = off_the_way(engine)
    engine.camera.see(1, settings["camera"])
    _read_all(engine)
    state = engine.round
    assert state is not None and state.critical_faults
    engine.clear_fault(SUPERVISOR, state.critical_faults[0], "entered setting stands")
    settle("camera")
    rounds["camera"] = state.round_id

    # 4. bob: a player asks for the house way and is corrected to another setting; another
    # player sets a foul hand.
    engine.camera.seen.clear()
    deal_and_roll(engine, BOB, {2: 2500, 4: 5000, 6: 10000})
    state = engine.round
    assert state is not None
    players = [p for p in state.playing() if p != 1]
    override_position, foul_position = players[0], players[1]
    record = engine.set_hand(BOB, override_position)
    other = off_the_way(engine, override_position)
    foul = foul_setting(engine, foul_position)
    engine.set_hand(BOB, foul_position, setting=foul)
    for position in players[2:]:
        engine.set_hand(BOB, position)
    engine.correct(BOB, record.seq, setting=other)
    engine.expose_dealer(BOB)
    _read_all(engine)
    settle("players")
    rounds["players"] = state.round_id

    # 5. ann's round voided by the supervisor.
    engine.camera.seen.clear()
    deal_and_roll(engine, ANN)
    engine.void(SUPERVISOR, "cards exposed during the deal")
    rounds["void"] = engine.round.round_id  # type: ignore[union-attr]
    return Planted(path, rounds, settings, nets, override_position, foul_position, foul)


@pytest.fixture(scope="module")
def planted(tmp_path_factory: pytest.TempPathFactory) -> Planted:
    """The planted journal (built once per test module)."""
    path = tmp_path_factory.mktemp("audit") / "table7.db"
    journal = journal_at(path)
    try:
        return build_planted(journal, path)
    finally:
        journal.close()
