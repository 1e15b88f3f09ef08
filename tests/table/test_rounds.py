"""Whole rounds through the round engine on simulator processes over ptys and the vision camera."""

from __future__ import annotations

from pathlib import Path

from controller.journal import Journal, Randomness, Record, StepClock, open_journal
from controller.profiles.poker import load_profile
from controller.profiles.tiles import load_tile_profile
from controller.round import Phase, PokerRound, TileRound, Who
from controller.rules.poker.setting import Setting
from controller.rules.tiles.setting import TileSetting

from .conftest import OpenTable

DEALER = Who.dealer()
SYSTEM = Who.system()
TILE_HANDS = ["6-6 4-5 1-2 3-3", "2-2 5-6 1-3 4-4", "1-1 5-5 2-4 3-6", "4-6 1-6 2-6 1-4"]


def _journal(tmp_path: Path) -> Journal:
    return open_journal(tmp_path / "journal.db", clock=StepClock())


def _roll(engine: PokerRound | TileRound) -> Record:
    """Shake until the dice count (a no-game is recorded and shaken again)."""
    for _ in range(10):
        record = engine.roll(SYSTEM)
        if record.kind == "roll":
            return record
    raise AssertionError("ten no-game shakes in a row")


def _kinds(journal: Journal, kind: str) -> list[Record]:
    return [r for r in journal.records() if r.kind == kind]


def test_a_whole_poker_round_on_simulators_and_the_camera(tmp_path: Path,
                                                          table: OpenTable) -> None:
    devices = table("poker", seed=11)
    assert devices.shuffler is not None and set(devices.sims) == {"shuffler", "shaker"}
    journal = _journal(tmp_path)
    engine = PokerRound(journal, load_profile("classic"), devices.shuffler, devices.dice,
                        devices.camera)
    engine.open_round(DEALER)
    for position, wager in {2: 2500, 4: 5000, 6: 10000}.items():
        engine.take_bet(DEALER, position, wager)
    engine.close_bets(DEALER)
    shuffled = engine.shuffle(SYSTEM)
    assert shuffled.payload()["count"] == 53
    assert shuffled.randomness == Randomness.seeded(11) and shuffled.actor == "shuffler-1"
    packets = [engine.deal_packet(SYSTEM).payload()["cards"] for _ in range(7)]
    cards = [c for packet in packets for c in packet]
    assert len(cards) == 49 and len(set(cards)) == 49
    # What the engine journaled is what the simulator process dealt over its pty.
    dealt = [h.split(": ")[1].split() for h in devices.shuffler.history if h.startswith("packet")]
    assert dealt == packets
    roll = _roll(engine)
    assert roll.randomness == Randomness.seeded(11) and roll.actor == "shaker-1"
    assert engine.phase is Phase.SETTING
    state = engine.round
    assert state is not None
    for position in state.playing():
        if position != 1:
            engine.set_hand(DEALER, position)
    engine.expose_dealer(DEALER)
    for position in state.playing():
        devices.camera.place(position, str(engine.entered(position)))
        engine.read_camera(SYSTEM, position)
    reads = {r.payload()["position"]: r.payload()["setting"]
             for r in _kinds(journal, "camera_read")}
    assert sorted(reads) == sorted(state.playing())
    # Every setting the camera names is the one on the felt; the others are unknown (None).
    for position, seen in reads.items():
        assert seen is None or Setting.parse(seen) == engine.entered(position)
    assert any(seen is not None for seen in reads.values())
    assert journal.active_faults() == []
    settled = engine.settle(DEALER)
    assert settled.kind == "settle" and state.phase is Phase.SETTLED
    assert len(devices.camera.read_times) == len(state.playing())
    assert journal.verify().ok


def test_a_whole_tile_round_on_the_shaker_and_the_camera(tmp_path: Path,
                                                         table: OpenTable) -> None:
    devices = table("tiles", seed=5)
    assert devices.shuffler is None and set(devices.sims) == {"shaker"}
    journal = _journal(tmp_path)
    engine = TileRound(journal, load_tile_profile(), devices.dice, devices.camera)
    engine.open_round(DEALER)
    for position, wager in {3: 2500, 5: 5000, 8: 2500}.items():
        engine.take_bet(DEALER, position, wager)
    engine.close_bets(DEALER)
    engine.build_woodpile(DEALER)
    roll = _roll(engine)
    assert roll.randomness == Randomness.seeded(5)
    state = engine.round
    assert state is not None
    hands = iter(TILE_HANDS)
    for position in state.playing():
        if position != 1:
            engine.set_hand(DEALER, position, hand=next(hands))
    engine.expose_dealer(DEALER, hand=next(hands))
    for position in state.playing():
        devices.camera.place(position, str(engine.entered(position)))
        engine.read_camera(SYSTEM, position)
    reads = {r.payload()["position"]: r.payload()["setting"]
             for r in _kinds(journal, "camera_read")}
    assert sorted(reads) == sorted(state.playing())
    for position, seen in reads.items():
        assert seen is not None, f"position {position}: the tile camera read nothing"
        assert TileSetting.parse(seen) == engine.entered(position)
    engine.settle(DEALER)
    assert engine.phase is Phase.SETTLED and journal.verify().ok


def test_a_seed_repeats_the_devices_and_no_seed_journals_secrets(table: OpenTable) -> None:
    first, again = table("poker", seed=42), table("poker", seed=42)
    other = table("poker")
    assert first.shuffler is not None and again.shuffler is not None
    assert other.shuffler is not None
    packets = []
    for devices in (first, again):
        assert devices.shuffler is not None
        devices.shuffler.shuffle()
        packets.append((devices.shuffler.next_packet(), devices.dice.roll()))
    assert packets[0] == packets[1]
    assert other.shuffler.randomness == Randomness.production()
    assert other.dice.randomness == Randomness.production()
    other.shuffler.shuffle()
    assert other.shuffler.next_packet() != packets[0][0]
