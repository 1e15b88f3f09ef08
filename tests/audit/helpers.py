"""Journals for the audit tests: real rounds through the round engine, with planted faults.

The card rounds take their cards and dice from the project's simulators run as processes over
a pty (``tests.devices.helpers.SimProcess``) through the real drivers; the dealer-audit rounds
use the engine's seeded fakes, as ``tests/round/helpers.py`` does.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path

from controller.journal import Journal, StepClock, open_journal
from controller.profiles.poker import load_profile
from controller.round import FakeCamera, FakeDice, FakeShuffler, PokerRound, Who
from controller.rules.poker.comparison import PokerHands
from controller.rules.poker.setting import Setting
from controller.table.dice_port import SerialDicePort
from controller.table.shuffler_port import SerialShufflerPort
from firmware_interfaces.shaker import ShakerDriver
from firmware_interfaces.shuffler import ShufflerDriver
from tests.devices.helpers import SimProcess

DEALER = Who.dealer("ann")
SUPERVISOR = Who.supervisor("sue")
SYSTEM = Who.system()
START = datetime(2026, 11, 22, 7, 0, tzinfo=UTC)


def journal_at(path: Path, start: datetime = START, step: float = 1.0) -> Journal:
    """A fresh SQLite journal whose clock starts at ``start`` and ticks ``step`` seconds."""
    return open_journal(path, clock=StepClock(start, timedelta(seconds=step)))


@contextmanager
def simulated_devices(seed: int, rig: str = "none") -> Iterator[tuple[SerialShufflerPort,
                                                                      SerialDicePort]]:
    """A shuffler and a shaker simulator, each its own process on a pty; ``rig`` is set on
    the shuffler at run time with the ``CTRL rig=...`` command."""
    shuffler_sim = SimProcess("shuffler", "pty", "--seed", str(seed))
    try:
        shaker_sim = SimProcess("shaker", "pty", "--seed", str(seed + 1))
        try:
            shuffler = ShufflerDriver.open(shuffler_sim.url)
            shaker = ShakerDriver.open(shaker_sim.url)
            try:
                if rig != "none":
                    shuffler.control(rig=rig)
                yield SerialShufflerPort(shuffler), SerialDicePort(shaker)
            finally:
                shuffler.close()
                shaker.close()
        finally:
            shaker_sim.stop()
    finally:
        shuffler_sim.stop()


def shuffled_rounds(journal: Journal, shuffler: SerialShufflerPort, dice: SerialDicePort,
                    rounds: int) -> None:
    """Whole poker rounds: one bet, the deal, the roll, the house way everywhere, settle."""
    engine = PokerRound(journal, load_profile("classic"), shuffler, dice)
    for _ in range(rounds):
        engine.open_round(DEALER)
        engine.take_bet(DEALER, 3, 2500)
        engine.close_bets(DEALER)
        engine.shuffle(SYSTEM)
        for _ in range(7):
            engine.deal_packet(SYSTEM)
        while engine.round is not None and engine.round.dice is None:
            engine.roll(SYSTEM)
        assert engine.round is not None
        for position in engine.round.playing():
            if position != 1:
                engine.set_hand(DEALER, position)
        engine.expose_dealer(DEALER)
        engine.settle(DEALER)


def poker_engine(journal: Journal, seed: int = 1, camera: bool = False) -> PokerRound:
    """A poker engine on the seeded fakes."""
    return PokerRound(journal, load_profile("classic"), FakeShuffler(seed), FakeDice(seed),
                      FakeCamera() if camera else None)


def deal_and_roll(engine: PokerRound, who: Who = DEALER,
                  bets: dict[int, int] | None = None) -> None:
    """Open, bet, close, shuffle, seven packets, roll."""
    engine.open_round(who)
    for position, wager in (bets or {2: 2500, 4: 5000, 6: 10000}).items():
        engine.take_bet(who, position, wager)
    engine.close_bets(who)
    engine.shuffle(SYSTEM)
    for _ in range(7):
        engine.deal_packet(SYSTEM)
    engine.roll(SYSTEM)


def players_by_house_way(engine: PokerRound, who: Who = DEALER) -> None:
    """Every player's hand set by the house way."""
    assert engine.round is not None
    for position in engine.round.playing():
        if position != 1:
            engine.set_hand(who, position)


def off_the_way(engine: PokerRound, position: int = 1) -> str:
    """A legal setting of ``position``'s dealt hand that is not the house way's."""
    hand = engine.known_hand(position)
    assert hand is not None
    way = engine.game.house_way(hand)[0]
    for first in range(7):
        for second in range(first + 1, 7):
            low = [hand[first], hand[second]]
            high = [c for c in hand if c not in low]
            text = f"{' '.join(low)} / {' '.join(high)}"
            setting = engine.game.parse(text)
            if setting != way and _legal(engine, setting):
                return text
    raise AssertionError(f"no legal setting of {hand} off the house way")


def foul_setting(engine: PokerRound, position: int) -> str:
    """A foul setting of ``position``'s dealt hand (its low hand beats its high hand)."""
    hand = engine.known_hand(position)
    assert hand is not None
    for first in range(7):
        for second in range(first + 1, 7):
            low = [hand[first], hand[second]]
            high = [c for c in hand if c not in low]
            setting = engine.game.parse(f"{' '.join(low)} / {' '.join(high)}")
            if not _legal(engine, setting):
                return str(setting)
    raise AssertionError(f"{hand} has no foul setting")


def _legal(engine: PokerRound, setting: Setting) -> bool:
    """True when the setting is not foul under the engine's profile."""
    return PokerHands(load_profile(engine.game.profile).evaluator()).legal(setting)
