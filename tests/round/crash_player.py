"""Child process for the crash tests: play a round up to a step, say so, then wait to be killed.

``python -m tests.round.crash_player JOURNAL GAME STEP`` (JOURNAL: an SQLite path or a
PostgreSQL URL) prints ``READY <last seq>`` once every act up to STEP has returned (so is
committed) and then sleeps until SIGKILL.
"""

from __future__ import annotations

import sys
import time

from controller.journal import StepClock, open_journal
from controller.round import FakeCamera, PokerRound, TileRound

from .helpers import DEALER, SYSTEM, TILE_HANDS, poker, tiles

POKER_STEPS = ("opened", "bet", "closed", "shuffled", "dealing", "dealt", "rolled", "set",
               "exposed", "read", "mismatch", "settled")
TILE_STEPS = ("opened", "bet", "closed", "woodpile", "rolled", "set", "exposed", "settled")


def play_poker(engine: PokerRound, stop: str) -> None:
    """Play to ``stop``."""
    acts = {
        "opened": lambda: engine.open_round(DEALER),
        "bet": lambda: (engine.take_bet(DEALER, 2, 2500), engine.take_bet(DEALER, 5, 5000)),
        "closed": lambda: engine.close_bets(DEALER),
        "shuffled": lambda: engine.shuffle(SYSTEM),
        "dealing": lambda: [engine.deal_packet(SYSTEM) for _ in range(3)],
        "dealt": lambda: [engine.deal_packet(SYSTEM) for _ in range(4)],
        "rolled": lambda: engine.roll(SYSTEM),
        "set": lambda: [engine.set_hand(DEALER, p) for p in _players(engine)],
        "exposed": lambda: engine.expose_dealer(DEALER),
        "read": lambda: _read(engine, mismatch=False),
        "mismatch": lambda: _read(engine, mismatch=True),
        "settled": lambda: engine.settle(DEALER),
    }
    for step in POKER_STEPS:
        if step == "mismatch" and stop != "mismatch":
            continue
        if step == "read" and stop == "mismatch":
            continue
        acts[step]()
        if step == stop:
            return


def _players(engine: PokerRound | TileRound) -> list[int]:
    assert engine.round is not None
    return [p for p in engine.round.playing() if p != 1]


def _read(engine: PokerRound, mismatch: bool) -> None:
    assert engine.round is not None and isinstance(engine.camera, FakeCamera)
    for position in engine.round.playing():
        text = str(engine.entered(position))
        if mismatch and position != 1:
            low, high = text.split(" / ")
            cards = high.split()
            text = f"{cards[0]} {cards[1]} / {low} {' '.join(cards[2:])}"
        engine.camera.see(position, text)
        engine.read_camera(SYSTEM, position)


def play_tiles(engine: TileRound, stop: str) -> None:
    """Play to ``stop``."""
    hands = iter(TILE_HANDS)
    acts = {
        "opened": lambda: engine.open_round(DEALER),
        "bet": lambda: (engine.take_bet(DEALER, 3, 2500), engine.take_bet(DEALER, 6, 2500)),
        "closed": lambda: engine.close_bets(DEALER),
        "woodpile": lambda: engine.build_woodpile(DEALER),
        "rolled": lambda: engine.roll(SYSTEM),
        "set": lambda: [engine.set_hand(DEALER, p, hand=next(hands)) for p in _players(engine)],
        "exposed": lambda: engine.expose_dealer(DEALER, hand=next(hands)),
        "settled": lambda: engine.settle(DEALER),
    }
    for step in TILE_STEPS:
        acts[step]()
        if step == stop:
            return


def main(where: str, game: str, stop: str) -> None:
    """Play, report, wait."""
    journal = open_journal(where, clock=StepClock())
    if game == "poker":
        engine = poker(journal, seed=5)
        assert isinstance(engine.camera, FakeCamera)
        play_poker(engine, stop)
    else:
        play_tiles(tiles(journal, seed=5), stop)
    print(f"READY {journal.head()[0]}", flush=True)
    while True:
        time.sleep(1)


if __name__ == "__main__":
    main(*sys.argv[1:4])
