"""Whole rounds on the fakes, step by step, for the round engine's tests."""

from __future__ import annotations

from pathlib import Path

from controller.journal import Journal, StepClock, open_journal
from controller.profiles.poker import load_profile
from controller.profiles.tiles import load_tile_profile
from controller.round import FakeCamera, FakeDice, FakeShuffler, PokerRound, TileRound, Who

DEALER = Who.dealer()
SUPERVISOR = Who.supervisor()
SYSTEM = Who.system()
TILE_HANDS = ["6-6 4-5 1-2 3-3", "2-2 5-6 1-3 4-4", "1-1 5-5 2-4 3-6", "4-6 1-6 2-6 1-4"]


def journal_at(path: Path) -> Journal:
    """A fresh SQLite journal with a step clock."""
    return open_journal(path, clock=StepClock())


def poker(journal: Journal, seed: int = 1, camera: bool = True,
          profile: str = "classic") -> PokerRound:
    """A poker engine on seeded fakes."""
    return PokerRound(journal, load_profile(profile), FakeShuffler(seed), FakeDice(seed),
                      FakeCamera() if camera else None)


def tiles(journal: Journal, seed: int = 1, camera: bool = False) -> TileRound:
    """A tile engine on seeded fake dice."""
    return TileRound(journal, load_tile_profile(), FakeDice(seed),
                     FakeCamera() if camera else None)


def poker_to_dealt(engine: PokerRound, bets: dict[int, int] | None = None) -> None:
    """Open, bet, close, shuffle, seven packets."""
    engine.open_round(DEALER)
    for position, wager in (bets or {2: 2500, 4: 5000, 6: 10000}).items():
        engine.take_bet(DEALER, position, wager)
    engine.close_bets(DEALER)
    engine.shuffle(SYSTEM)
    for _ in range(7):
        engine.deal_packet(SYSTEM)


def poker_to_exposed(engine: PokerRound, bets: dict[int, int] | None = None) -> None:
    """... roll, every player by the house way, the dealer exposed."""
    poker_to_dealt(engine, bets)
    engine.roll(SYSTEM)
    assert engine.round is not None
    for position in engine.round.playing():
        if position != 1:
            engine.set_hand(DEALER, position)
    engine.expose_dealer(DEALER)


def read_all(engine: PokerRound | TileRound) -> None:
    """The camera sees what was entered, then reads every playing position."""
    assert engine.round is not None and isinstance(engine.camera, FakeCamera)
    for position in engine.round.playing():
        engine.camera.see(position, str(engine.entered(position)))
        engine.read_camera(SYSTEM, position)


def tiles_to_setting(engine: TileRound, bets: dict[int, int] | None = None) -> None:
    """Open, bet, close, build the woodpile, roll."""
    engine.open_round(DEALER)
    for position, wager in (bets or {3: 2500, 5: 5000, 8: 2500}).items():
        engine.take_bet(DEALER, position, wager)
    engine.close_bets(DEALER)
    engine.build_woodpile(DEALER)
    engine.roll(SYSTEM)


def tiles_set_all(engine: TileRound) -> None:
    """Every player by the house way on the next tile hand, the dealer too."""
    assert engine.round is not None
    hands = iter(TILE_HANDS)
    for position in engine.round.playing():
        if position != 1:
            engine.set_hand(DEALER, position, hand=next(hands))
    engine.expose_dealer(DEALER, hand=next(hands))


def void_during_fault(engine: PokerRound, round_id: str | None = None) -> None:
    """Open a round, bet, and void it while the shuffler's short count is the active fault."""
    engine.open_round(DEALER, round_id)
    engine.take_bet(DEALER, 3, 2500)
    engine.close_bets(DEALER)
    assert isinstance(engine.shuffler, FakeShuffler)
    engine.shuffler.inject("short_count")
    engine.shuffle(SYSTEM)
    engine.void(SUPERVISOR, "deck short")  # clears the active fault as it voids
