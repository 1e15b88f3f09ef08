"""The table loop on the simulated table: simulator processes, mock pins, the vision camera."""

from __future__ import annotations

import itertools
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.display.table import Table
from controller.journal import Journal, Record, open_journal
from controller.profiles.poker import load_profile
from controller.profiles.tiles import load_tile_profile
from controller.round import Phase, PokerRound, TileRound, Who
from controller.rules.poker.cards import full_deck
from controller.rules.poker.setting import Setting, check_legal
from controller.rules.seat import TableLimits
from controller.rules.tiles.dominoes import full_set
from controller.rules.tiles.setting import TileSetting, check_tile_legal
from controller.simulation.players import (
    Choice,
    Decision,
    Habits,
    HabitsError,
    PokerSetter,
    SimDealer,
    SimPlayers,
    TileSetter,
)
from controller.simulation.runner import RunnerError, RunnerSettings, TableRunner
from controller.table import TableDevices
from controller.table.results import RunSummary
from firmware_interfaces.gpio import DEFAULT_DEBOUNCE, PanelButton

from .conftest import OpenTable

POKER = load_profile()
TILES = load_tile_profile()


def _runner(journal: Journal, devices: TableDevices, *, seed: int, rounds: int | None,
            habits: Habits | None = None, profile: str | None = None,
            **options: Any) -> tuple[TableRunner, list[str]]:
    habits = habits or Habits()
    if profile is not None:
        poker = load_profile(profile)
        engine: Any = PokerRound(journal, poker, devices.shuffler, devices.dice, devices.camera)
        setter: Any = PokerSetter(poker)
        limits = poker.settlement.limits
    elif devices.game == "tiles":
        engine = TileRound(journal, TILES, devices.dice, devices.camera)
        setter = TileSetter(TILES)
        limits = TILES.settlement.limits
    else:
        assert devices.shuffler is not None
        engine = PokerRound(journal, POKER, devices.shuffler, devices.dice, devices.camera)
        setter = PokerSetter(POKER)
        limits = POKER.settlement.limits
    rng = random.Random(seed)
    lines: list[str] = []
    runner = TableRunner(Table(engine), devices, SimPlayers(setter, limits, habits, rng),
                         SimDealer(setter, habits, rng), RunnerSettings(rounds, **options),
                         randomness=f"seeded {seed}", out=lines.append)
    return runner, lines


def _kinds(journal: Journal, kind: str) -> list[Record]:
    return [r for r in journal.records() if r.kind == kind]


def _lows(devices: TableDevices, button: PanelButton) -> int:
    """How often the button's pin was driven low (pressed)."""
    pin = devices.pin_factory.pin(getattr(devices.panel.pins, button.value))
    levels = [bool(s.state) for s in pin.states]
    return sum(1 for a, b in itertools.pairwise(levels) if a and not b)


@pytest.mark.parametrize("game", ["poker", "tiles"])
def test_rounds_are_played_settled_and_journaled(game: str, tmp_path: Path,
                                                 table: OpenTable) -> None:
    devices = table(game, seed=21)
    journal = open_journal(tmp_path / "j.sqlite")
    runner, lines = _runner(journal, devices, seed=21, rounds=3)
    summary = runner.run()
    assert len(summary.results) == 3 and not summary.stopped
    assert journal.verify().ok
    assert journal.open_rounds() == [] and journal.active_faults() == []
    settles = _kinds(journal, "settle")
    assert summary.settled == len(settles) and summary.voids == len(_kinds(journal,
                                                                           "round_voided"))
    assert summary.house_net == sum(r.payload()["net"]["1"] for r in settles)
    assert summary.deviations == len(_kinds(journal, "deviation"))
    assert [line.split()[0] for line in lines if line.startswith("r0")] == \
        [r.round_id for r in summary.results]
    # every playing position was shown to the camera and read back
    for settle in settles:
        rid = settle.round_id
        reads = {r.payload()["position"] for r in _kinds(journal, "camera_read")
                 if r.round_id == rid}
        sets = {r.payload()["position"] for r in _kinds(journal, "set") if r.round_id == rid}
        assert sets | {1} == reads
    # bets within the table limits
    limits = (TILES if game == "tiles" else POKER).settlement.limits
    for bet in _kinds(journal, "bet"):
        assert limits.min_bet <= bet.payload()["wager"] <= limits.max_bet
        fortune = bet.payload().get("fortune", 0)
        assert fortune == 0 or limits.fortune_min <= fortune <= limits.fortune_max
        assert game == "poker" or fortune == 0  # no Fortune bet at a tile table


def test_home_play_antes_and_settles_the_pot_without_a_dealer_hand(tmp_path: Path,
                                                                   table: OpenTable) -> None:
    devices = table("poker", seed=16)
    journal = open_journal(tmp_path / "j.sqlite")
    runner, lines = _runner(journal, devices, seed=16, rounds=3, profile="home")
    summary = runner.run()
    assert summary.settled == 3 and journal.verify().ok and journal.open_rounds() == []
    assert _kinds(journal, "dealer_exposed") == []
    ante = load_profile("home").play.pot
    assert ante is not None
    for settle in _kinds(journal, "settle"):
        pot = settle.payload()["pot"]
        bets = [r.payload()["wager"] for r in _kinds(journal, "bet")
                if r.round_id == settle.round_id]
        assert len(bets) >= 2 and set(bets) <= {0, ante.ante}
        assert pot["antes"] == sum(bets) and pot["total"] == pot["carried"] + pot["antes"]
    assert all("pot " in line for line in lines if line.startswith("r0"))


def test_banking_rotation_offers_the_bank_every_round(tmp_path: Path,
                                                      table: OpenTable) -> None:
    devices = table("poker", seed=17)
    journal = open_journal(tmp_path / "j.sqlite")
    runner, _ = _runner(journal, devices, seed=17, rounds=4, profile="rotation",
                        habits=Habits(bank_rate=0.5))
    summary = runner.run()
    assert summary.settled == 4 and journal.verify().ok
    offers = _kinds(journal, "bank_offered")
    assert [r.round_id for r in offers] == [r.round_id for r in summary.results]
    assert len({r.payload()["position"] for r in offers}) == 4  # the bank goes round
    for bank in _kinds(journal, "bank"):
        bets = {r.payload()["position"]: r.payload()["wager"] for r in _kinds(journal, "bet")
                if r.round_id == bank.round_id}
        assert 1 in bets and bank.payload()["position"] not in bets
        assert sum(bets.values()) <= bank.payload()["amount"]
    banked = {r.round_id for r in _kinds(journal, "bank")}
    declined = {r.round_id for r in _kinds(journal, "bank_declined")}
    assert banked | declined == {r.round_id for r in offers} and not banked & declined


def test_heads_up_one_seat_whose_deal_mostly_repeats_the_wager(tmp_path: Path,
                                                               table: OpenTable) -> None:
    devices = table("poker", seed=18)
    journal = open_journal(tmp_path / "j.sqlite")
    runner, _ = _runner(journal, devices, seed=18, rounds=5, profile="heads-up")
    summary = runner.run()
    assert summary.settled == 5
    bets = [(r.round_id, r.payload()["position"], r.payload()["wager"])
            for r in _kinds(journal, "bet")]
    assert [b[0] for b in bets] == [r.round_id for r in summary.results]
    assert {b[1] for b in bets} == {2}
    repeats = sum(1 for a, b in itertools.pairwise(bets) if a[2] == b[2])
    assert repeats >= 2  # at 0.8 per deal, four chances


def test_dealer_acts_with_a_button_come_from_the_panel_pins(tmp_path: Path,
                                                           table: OpenTable) -> None:
    devices = table("poker", seed=5)
    journal = open_journal(tmp_path / "j.sqlite")
    runner, _ = _runner(journal, devices, seed=5, rounds=2)
    runner.run()
    opened = _kinds(journal, "round_opened")
    shakes = _kinds(journal, "roll") + _kinds(journal, "dice_no_game")
    assert len(opened) == 2 and _lows(devices, PanelButton.NEW_ROUND) == 2
    assert _lows(devices, PanelButton.SHAKE) == len(shakes)
    assert _lows(devices, PanelButton.CONFIRM) == len(_kinds(journal, "settle"))
    assert {r.actor for r in opened + _kinds(journal, "settle")} == {"dealer-1"}
    assert devices.presses.empty()


@pytest.mark.parametrize("rate", [0.0, 1.0])
def test_the_dealer_deviates_at_the_configured_rate(rate: float, tmp_path: Path,
                                                    table: OpenTable) -> None:
    devices = table("poker", seed=8)
    journal = open_journal(tmp_path / "j.sqlite")
    habits = Habits(deviation_rate=rate)
    runner, _ = _runner(journal, devices, seed=8, rounds=3, habits=habits, entry_error_rate=0)
    summary = runner.run()
    exposed = _kinds(journal, "dealer_exposed")
    strayed = [r for r in exposed if r.payload()["setting"] != r.payload()["house_way"]]
    deviations = _kinds(journal, "deviation")
    assert len(deviations) == len(strayed) == summary.deviations
    if rate == 0:
        assert deviations == []
    else:  # a hand with only one legal setting cannot stray; none of these three has one
        assert len(deviations) == len(exposed) == 3
        assert all("DEVIATION" in r.line() for r in summary.results)


def test_device_faults_void_or_pause_and_the_table_goes_on(tmp_path: Path,
                                                          table: OpenTable) -> None:
    devices = table("poker", seed=4)
    journal = open_journal(tmp_path / "j.sqlite")
    runner, lines = _runner(journal, devices, seed=4, rounds=5, fault_rate=1.0, halt_after=5,
                            device_wait=0.05)
    summary = runner.run()
    assert len(summary.results) == 5 and summary.halted is None
    assert journal.verify().ok and journal.open_rounds() == [] and journal.active_faults() == []
    raised = _kinds(journal, "fault_raised")
    assert raised, "every round had a fault injected"
    for record in _kinds(journal, "round_voided"):
        codes = {r.payload()["code"] for r in raised if r.round_id == record.round_id}
        assert any(code in record.payload()["reason"] for code in codes)
    for result in summary.results:
        assert result.faults or result.settled
    # a bad count pauses the round: cleared by the supervisor, shuffled again, then settled
    counted = {r.round_id for r in raised if r.payload()["code"] == "card_count"}
    settled = {r.round_id for r in _kinds(journal, "settle")}
    assert counted & settled
    for rid in counted & settled:
        shuffles = [r for r in _kinds(journal, "shuffled") if r.round_id == rid]
        assert [s.payload()["count"] == 53 for s in shuffles][-1]
        assert any(r.actor == "supervisor-1" for r in _kinds(journal, "fault_cleared")
                   if r.round_id == rid)
    assert any(line.startswith("  fault ") for line in lines)


def test_a_mis_entered_setting_is_corrected_to_the_layout(tmp_path: Path,
                                                         table: OpenTable) -> None:
    devices = table("tiles", seed=6)
    journal = open_journal(tmp_path / "j.sqlite")
    runner, _ = _runner(journal, devices, seed=6, rounds=2, entry_error_rate=1.0)
    runner.run()
    corrections = _kinds(journal, "correction")
    assert corrections, "every entry was wrong; the camera must have disputed some"
    for fix in corrections:
        data = fix.payload()
        read = [r.payload()["setting"] for r in _kinds(journal, "camera_read")
                if r.round_id == fix.round_id and r.payload()["position"] == data["position"]]
        assert str(TileSetting.parse(data["setting"])) == read[-1]
        assert fix.actor == "supervisor-1" and fix.role.value == "supervisor"
        assert data["exposed"] and "corrected to the layout" in data["reason"]
    assert journal.active_faults() == []


def test_stop_voids_the_open_round_with_the_reason(tmp_path: Path, table: OpenTable) -> None:
    devices = table("tiles", seed=2)
    journal = open_journal(tmp_path / "j.sqlite")
    runner, _ = _runner(journal, devices, seed=2, rounds=None)
    for _ in range(4):
        runner.step()
    assert runner.engine.phase not in (None, Phase.SETTLED, Phase.VOIDED)
    runner.stop()
    summary = runner.run()
    assert summary.stopped and summary.voids == 1
    (void,) = _kinds(journal, "round_voided")
    assert void.payload()["reason"] == "stopped by the operator"


def test_an_act_from_the_display_is_taken_up_by_the_loop(tmp_path: Path,
                                                         table: OpenTable) -> None:
    devices = table("tiles", seed=3)
    journal = open_journal(tmp_path / "j.sqlite")
    runner, _ = _runner(journal, devices, seed=3, rounds=1)
    runner.step()  # the dealer opens the round on the panel
    runner.table.act("take_bet", Who.dealer("dealer-2"), 2, 2500)  # as the page would
    runner.table.act("close_bets", Who.dealer("dealer-2"))
    summary = runner.run()
    assert summary.settled == 1
    (closed,) = _kinds(journal, "bets_closed")
    assert closed.actor == "dealer-2"
    assert [r.payload()["position"] for r in _kinds(journal, "bet")] == [2]


def test_a_round_voided_from_the_display_counts_and_play_goes_on(tmp_path: Path,
                                                                 table: OpenTable) -> None:
    devices = table("tiles", seed=14)
    journal = open_journal(tmp_path / "j.sqlite")
    runner, lines = _runner(journal, devices, seed=14, rounds=2)
    for _ in range(3):
        runner.step()
    runner.table.act("void", Who.supervisor(), "a drink spilled on the layout")
    summary = runner.run()
    assert [r.void_reason for r in summary.results] == ["a drink spilled on the layout", None]
    assert summary.settled == 1 and "VOID: a drink spilled on the layout" in lines[0]


def test_a_poker_round_left_open_is_resumed_and_finished(tmp_path: Path,
                                                        table: OpenTable) -> None:
    devices = table("poker", seed=9)
    path = tmp_path / "j.sqlite"
    journal = open_journal(path)
    first, _ = _runner(journal, devices, seed=9, rounds=None)
    while first.engine.phase is not Phase.SETTING:
        first.step()
    first.step()  # one position set
    rid = first.engine.round.round_id if first.engine.round else ""
    journal.close()
    journal = open_journal(path)  # a restart: a new engine on the same journal
    again, lines = _runner(journal, devices, seed=9, rounds=1)
    summary = again.run()
    assert f"{rid} resumed at setting" in lines
    assert [r.round_id for r in summary.results] == [rid] and summary.settled == 1
    assert journal.verify().ok


def test_summary_adds_up_and_names_the_randomness() -> None:
    summary = RunSummary("seeded 3 (test and replay only)")
    assert "0 round(s)" in summary.text()
    with pytest.raises(RunnerError, match=r"fault rate 1\.5"):
        RunnerSettings(fault_rate=1.5)
    with pytest.raises(RunnerError, match="rounds 0"):
        RunnerSettings(rounds=0)
    assert "seeded 3" in summary.text()


# --- the simulated people -------------------------------------------------------------------

POKER_SETTER = PokerSetter(POKER)
TILE_SETTER = TileSetter(TILES)
CARDS = [str(c) for c in full_deck()]
TILE_TEXTS = [str(t) for t in full_set()]


@settings(max_examples=60, deadline=None)
@given(st.permutations(CARDS), st.integers(0, 2**32 - 1))
def test_poker_players_set_their_own_cards_and_fouls_are_fouls(deck: list[str],
                                                               seed: int) -> None:
    hand = deck[:7]
    options = POKER_SETTER.options(hand)
    assert len({options.house_way, *options.others, *options.fouls}) == 21
    assert options.house_way not in options.others
    players = SimPlayers(POKER_SETTER, TableLimits(), Habits(player_other_rate=0.4,
                                                             foul_rate=0.4), random.Random(seed))
    for _ in range(5):
        decision = players.decide(hand)
        setting = Setting.parse(decision.setting)
        assert sorted(map(str, setting.cards)) == sorted(hand)
        legal = decision.choice is not Choice.FOUL
        if legal:
            check_legal(setting, POKER.evaluator())
        else:
            with pytest.raises(ValueError, match="foul"):
                check_legal(setting, POKER.evaluator())
        assert (decision.setting == options.house_way) == (decision.choice is Choice.HOUSE_WAY)


@settings(max_examples=60, deadline=None)
@given(st.permutations(TILE_TEXTS), st.integers(0, 2**32 - 1))
def test_tile_players_and_dealer_keep_their_tiles(tiles: list[str], seed: int) -> None:
    hand = tiles[:4]
    dealer = SimDealer(TILE_SETTER, Habits(deviation_rate=1.0), random.Random(seed))
    options = TILE_SETTER.options(hand)
    decision = dealer.decide(hand)
    assert (decision.choice is Choice.OTHER) == bool(options.others)
    setting = TileSetting.parse(decision.setting)
    assert sorted(map(str, setting.tiles)) == sorted(hand)
    check_tile_legal(setting, TILES.ruleset)
    for foul in options.fouls:
        with pytest.raises(ValueError, match="foul"):
            check_tile_legal(TileSetting.parse(foul), TILES.ruleset)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.floats(0, 1))
def test_bets_are_within_the_limits_and_someone_always_plays(seed: int, vacancy: float) -> None:
    limits = TableLimits(min_bet=500, max_bet=4000)
    players = SimPlayers(POKER_SETTER, limits, Habits(vacancy_rate=vacancy),
                         random.Random(seed))
    bets = players.bets(range(2, 8))
    assert bets and set(bets) <= set(range(2, 8))
    assert all(limits.min_bet <= w <= limits.max_bet and w % limits.min_bet == 0
               for w in bets.values() if w != limits.max_bet)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.floats(0, 1))
def test_fortune_bets_are_within_their_limits_at_the_rate(seed: int, rate: float) -> None:
    limits = TableLimits(min_bet=500, max_bet=4000, fortune_min=100, fortune_max=300)
    players = SimPlayers(POKER_SETTER, limits, Habits(fortune_rate=rate), random.Random(seed))
    fortunes = players.fortunes(range(2, 8))
    assert set(fortunes) <= set(range(2, 8))
    assert all(100 <= f <= 300 for f in fortunes.values())
    if rate == 0:
        assert fortunes == {}
    if rate == 1:
        assert set(fortunes) == set(range(2, 8))


def test_habits_refuse_rates_naming_them() -> None:
    with pytest.raises(HabitsError, match=r"deviation rate 1\.5"):
        Habits(deviation_rate=1.5)
    with pytest.raises(HabitsError, match="add up"):
        Habits(player_other_rate=0.7, foul_rate=0.4)


def test_a_device_that_stays_lost_halts_the_table(tmp_path: Path, table: OpenTable) -> None:
    devices = table("poker", seed=12)
    journal = open_journal(tmp_path / "j.sqlite")
    runner, lines = _runner(journal, devices, seed=12, rounds=10, halt_after=2,
                            device_wait=0.05)
    devices.sims["shuffler"].kill()
    summary = runner.run()
    assert summary.halted is not None and "2 rounds in a row" in summary.halted
    assert "shuffler-1" in summary.halted and "HALTED" in summary.text()
    assert summary.voids == len(summary.results) == 2 and not summary.stopped
    assert journal.open_rounds() == [] and journal.active_faults() == [] and journal.verify().ok
    assert "  waiting 0.05 s for the device to come back" in lines


class _Sloppy(SimPlayers):
    """A player who claims cards never dealt to him."""

    def decide(self, pieces: Sequence[str]) -> Decision:
        return Decision("2c 3d / 5h 7s 9c Jd Kh", Choice.OTHER)


def test_a_round_refused_again_and_again_is_voided_naming_why(tmp_path: Path,
                                                              table: OpenTable) -> None:
    devices = table("poker", seed=13)
    journal = open_journal(tmp_path / "j.sqlite")
    runner, lines = _runner(journal, devices, seed=13, rounds=1, entry_error_rate=0)
    runner.players = _Sloppy(runner.players.setter, POKER.settlement.limits, Habits(),
                             runner.rng)
    summary = runner.run()
    (void,) = _kinds(journal, "round_voided")
    assert void.payload()["reason"].startswith("the round cannot go on: cannot set_hand")
    assert "2c 3d / 5h 7s 9c Jd Kh" in void.payload()["reason"]
    assert summary.voids == 1 and sum("refused" in line for line in lines) == 3


def test_a_poker_round_caught_mid_deal_is_voided_at_start_up(tmp_path: Path,
                                                             table: OpenTable) -> None:
    devices = table("poker", seed=15)
    path = tmp_path / "j.sqlite"
    journal = open_journal(path)
    first, _ = _runner(journal, devices, seed=15, rounds=None)
    while first.engine.phase is not Phase.DEALING:
        first.step()
    rid = first.engine.round.round_id if first.engine.round else ""
    journal.close()
    journal = open_journal(path)
    again, lines = _runner(journal, devices, seed=15, rounds=1)
    summary = again.run()
    assert any(line.startswith(f"{rid} voided at start-up: restart during the deal")
               for line in lines)
    assert len(summary.results) == 1 and summary.results[0].round_id != rid
    assert summary.settled == 1 and journal.verify().ok and journal.open_rounds() == []


@dataclass
class _RealPanelTable:
    """The simulated table as a real one looks to the runner: its pins cannot be driven."""

    devices: TableDevices

    def __getattr__(self, name: str) -> Any:
        return getattr(self.devices, name)

    @property
    def pin_factory(self) -> Any:
        return None


def test_at_a_real_panel_the_loop_waits_for_the_dealer_to_press(tmp_path: Path,
                                                                table: OpenTable) -> None:
    devices = table("tiles", seed=19)
    journal = open_journal(tmp_path / "j.sqlite")
    real: Any = _RealPanelTable(devices)
    runner, lines = _runner(journal, real, seed=19, rounds=2)
    assert not runner.keys.mock
    pressed: list[str] = []

    def dealer(line: str) -> None:  # the dealer hears the prompt and presses the button
        lines.append(line)
        if line.startswith("  waiting for the dealer to press "):
            button = line.split()[-1].strip("'")
            pin = devices.pin_factory.pin(getattr(devices.panel.pins, button))
            time.sleep(DEFAULT_DEBOUNCE * 1.2)
            pin.drive_low()
            pin.drive_high()
            pressed.append(button)

    runner.out = dealer
    summary = runner.run()
    assert summary.settled == 2
    shakes = len(_kinds(journal, "roll")) + len(_kinds(journal, "dice_no_game"))
    assert pressed.count("new_round") == 2 and pressed.count("confirm") == 2
    assert pressed.count("shake") == shakes
