"""The home, rotation and heads-up table profiles played through whole rounds: the home pot,
banking rotation, heads-up poker and heads-up tiles, on the seeded fakes and a real SQLite
journal."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.errors import ConfigError
from controller.journal import Journal, StepClock, open_journal
from controller.profiles.poker import load_profile, parse_profile
from controller.profiles.tiles import load_tile_profile, parse_tile_profile
from controller.replay.journal import replay_journal
from controller.round import FakeDice, FakeShuffler, IllegalActError, Phase, PokerRound, TileRound
from controller.rules.poker.home_pot import PokerPotRanks, PotStatus, settle_pot
from controller.rules.seat import HandSet, SetBy

from .helpers import DEALER, SUPERVISOR, SYSTEM, journal_at

GOLDEN_TILES = Path(__file__).parent.parent / "golden" / "profiles" / "tiles_heads_up.txt"
CONFIG = Path(__file__).parent.parent.parent / "config" / "profiles"


def _engine(journal: Journal, profile: str, seed: int = 1) -> PokerRound:
    return PokerRound(journal, load_profile(profile), FakeShuffler(seed), FakeDice(seed))


def _deal(engine: PokerRound) -> None:
    engine.close_bets(DEALER)
    engine.shuffle(SYSTEM)
    for _ in range(engine.game.positions):
        engine.deal_packet(SYSTEM)
    engine.roll(SYSTEM)


# --- profiles ---------------------------------------------------------------------------------

def test_the_new_profiles_load() -> None:
    home, rotation, heads_up = (load_profile(n) for n in ("home", "rotation", "heads-up"))
    tiles = load_tile_profile("tiles-heads-up")
    assert home.play.pot is not None and home.play.pot.ante == 500 and home.positions == 7
    assert rotation.play.rotation and not heads_up.play.rotation
    assert (heads_up.positions, tiles.positions) == (2, 2)
    assert heads_up.play.repeat_wager and tiles.play.repeat_wager
    for profile in (heads_up, tiles):
        limits = profile.settlement.limits
        assert (limits.min_bet, limits.max_bet) == (500, 50000)  # [D4] l.2: $5 to $500
    assert tiles.house_way == "foxwoods"  # [D4] l.15
    assert tiles.settlement.commission.rate_bp == 500  # [D4] l.16


@pytest.mark.parametrize(("name", "change", "named"), [
    ("home", ('mode = "pot"', 'mode = "pot"\nstakes = 1'), "unknown [play] key 'stakes'"),
    ("home", ('mode = "pot"', 'mode = "pool"'), "mode 'pool'"),
    ("home", ("ante_cents = 500", "ante_cents = 0"), "ante_cents 0"),
    ("home", ("ante_cents = 500", "ante = 500"), "needs [pot] ante_cents"),
    ("home", ('foul = "loss"  #', 'foul = "push"  #'), "'push'"),
    ("home", ('mode = "pot"', 'mode = "pot"\nbanking = "rotation"'), "a pot game has no bank"),
    ("home", ("positions = 7", "positions = 2"), "home play deals all 7"),
    ("home", ('mode = "pot"', 'mode = "bank"'), "a [pot] table needs [play] mode = 'pot'"),
    ("rotation", ('banking = "rotation"', 'banking = "players"'), "banking 'players'"),
    ("rotation", ('variant = {', 'variant = "ez"\nx = {'), "variant 'ez' does not allow"),
    ("heads-up", ("positions = 2", "positions = 3"), "positions 3"),
    ("heads-up", ("repeat_wager = true", 'repeat_wager = "yes"'), "repeat_wager 'yes'"),
])
def test_bad_play_keys_are_named(name: str, change: tuple[str, str], named: str) -> None:
    text = (CONFIG / f"{name}.toml").read_text(encoding="utf-8")
    assert change[0] in text
    if name == "rotation" and change[0] == "variant = {":
        text = text.replace(text[text.index("variant = {"):text.index("\nfoul")],
                            'variant = "ez"')
    else:
        text = text.replace(change[0], change[1], 1)
    with pytest.raises(ConfigError, match=r"t\.toml") as info:
        parse_profile(text, "t.toml")
    assert named in str(info.value)


def test_tile_heads_up_profile_keys_are_checked() -> None:
    text = (CONFIG / "tiles-heads-up.toml").read_text(encoding="utf-8")
    parse_tile_profile(text, "t.toml")
    for change, named in [(("positions = 2", "positions = 5"), "positions 5"),
                          (("repeat_wager = true", "mode = 'pot'"), "Pai Gow Poker game")]:
        with pytest.raises(ConfigError, match=named):
            parse_tile_profile(text.replace(*change), "t.toml")


# --- home play --------------------------------------------------------------------------------

def _home_deal(engine: PokerRound, players: tuple[int, ...] = (2, 3, 4, 5, 6, 7)) -> dict[str,
                                                                                          object]:
    engine.open_round(DEALER)
    for position in players:
        engine.take_bet(DEALER, position, engine.ante_due(position))
    _deal(engine)
    assert engine.round is not None
    for position in engine.round.playing():
        if position != 1:
            engine.set_hand(DEALER, position)
    return engine.settle(DEALER).payload()


def test_home_play_carries_the_pot_until_one_player_takes_it(tmp_path: Path) -> None:
    journal = journal_at(tmp_path / "t.db")
    engine = _engine(journal, "home", seed=3)
    status = PotStatus()
    carried_at_least_once = won = False
    for _ in range(8):
        data = _home_deal(engine)
        state = engine.round
        assert state is not None and state.phase is Phase.SETTLED
        pot = data["pot"]
        assert isinstance(pot, dict)
        assert state.pot == status  # the pot_carried record holds what the last deal left
        hands = [HandSet(p, e.setting, e.by) for p, e in sorted(state.settings.items())]
        antes = {p: b.wager for p, (b, _) in state.bets.items()}
        assert antes == {p: status.ante_due(p, engine.game.play.pot) for p in antes}  # type: ignore[arg-type]
        direct = settle_pot(hands, antes, status, engine.game.play.pot,  # type: ignore[arg-type]
                            PokerPotRanks(load_profile("home").evaluator()))
        assert pot == direct.to_json()
        assert data["net"] == {str(p): n for p, n in sorted(direct.net_by_position().items())}
        carried_at_least_once |= direct.carried > 0
        won |= direct.winner is not None
        status = direct.status()
        assert engine.pot_status() == status
    assert won and carried_at_least_once
    assert [r.ok for r in replay_journal(journal).rounds] == [True] * 8


def test_home_play_refuses_what_a_pot_game_has_not(tmp_path: Path) -> None:
    engine = _engine(journal_at(tmp_path / "t.db"), "home")
    engine.open_round(DEALER)
    with pytest.raises(IllegalActError, match="ante 1000 cents at position 2: the ante is 500"):
        engine.take_bet(DEALER, 2, 1000)
    with pytest.raises(IllegalActError, match="no Fortune bet"):
        engine.take_bet(DEALER, 2, 500, 100)
    with pytest.raises(IllegalActError, match="has no bank"):
        engine.bank(SUPERVISOR, 3, 10000)
    first = engine.take_bet(DEALER, 2, 500)
    with pytest.raises(IllegalActError, match="ante 700 cents at position 2: the ante is 500"):
        engine.correct(DEALER, first.seq, wager=700)
    with pytest.raises(IllegalActError, match="a pot needs two players"):
        engine.close_bets(DEALER)
    engine.take_bet(DEALER, 3, 500)
    _deal(engine)
    engine.set_hand(DEALER, 2)
    with pytest.raises(IllegalActError, match=r"positions \[3\] have not set"):
        engine.settle(DEALER)
    engine.set_hand(DEALER, 3)
    with pytest.raises(IllegalActError, match="no dealer's hand"):
        engine.expose_dealer(DEALER)
    assert engine.can_settle(DEALER)


def test_a_voided_deal_leaves_the_pot_as_it_was(tmp_path: Path) -> None:
    journal = journal_at(tmp_path / "t.db")
    engine = _engine(journal, "home", seed=3)
    while engine.pot_status().pot == 0:
        _home_deal(engine)
    before = engine.pot_status()
    engine.open_round(DEALER)
    for position in range(2, 8):
        engine.take_bet(DEALER, position, engine.ante_due(position))
    engine.void(SUPERVISOR, "table closed")
    assert engine.pot_status() == before
    fresh = _engine(journal, "home", seed=9)  # after a restart: read from the journal
    assert fresh.pot_status() == before


# --- banking rotation -------------------------------------------------------------------------

def test_rotation_offers_the_bank_to_each_player_in_turn(tmp_path: Path) -> None:
    journal = journal_at(tmp_path / "t.db")
    engine = _engine(journal, "rotation", seed=4)
    offered = []
    for number in range(7):
        engine.open_round(DEALER)
        with pytest.raises(IllegalActError, match="offer the bank first"):
            engine.take_bet(DEALER, 2, 2500)
        turn = engine.bank_turn()
        record = engine.offer_bank(DEALER)
        assert record.payload()["position"] == turn
        offered.append(turn)
        players = [p for p in range(2, 8) if p != turn][:3]
        if number % 2:  # declined: the house banks
            with pytest.raises(IllegalActError, match="neither taken nor declined"):
                engine.take_bet(DEALER, players[0], 2500)
            engine.decline_bank(DEALER)
            with pytest.raises(IllegalActError, match="has not been offered the bank"):
                engine.bank(SUPERVISOR, turn, 10000)
        else:  # taken: the player banks and must cover every bet, the house's included
            engine.bank(SUPERVISOR, turn, 10000)
            engine.take_bet(DEALER, 1, 2500)
        for position in players:
            engine.take_bet(DEALER, position, 2500)
        if number % 2 == 0:
            with pytest.raises(IllegalActError, match=r"covers only 0 cents more \(short by "
                                                      r"500 cents\)"):
                engine.take_bet(DEALER, next(p for p in range(2, 8)
                                             if p not in players and p != turn), 500)
        _deal(engine)
        assert engine.round is not None
        for position in engine.round.playing():
            if position != 1:
                engine.set_hand(DEALER, position)
        engine.expose_dealer(DEALER)
        data = engine.settle(DEALER).payload()
        assert data["banker"] == (1 if number % 2 else turn)
        assert sum(data["net"].values()) == 0
    assert offered == [2, 3, 4, 5, 6, 7, 2]
    assert all(r.ok for r in replay_journal(journal).rounds)


def test_rotation_passes_over_empty_seats_and_refuses_out_of_turn(tmp_path: Path) -> None:
    journal = journal_at(tmp_path / "t.db")
    engine = _engine(journal, "rotation")
    engine.open_round(DEALER)
    with pytest.raises(IllegalActError, match="has not been offered the bank this round "
                                              r"\(offered: nobody yet\)"):
        engine.bank(SUPERVISOR, 2, 10000)
    record = engine.offer_bank(DEALER, 5)
    assert record.payload() == {"type": "bank_offered", "v": 1, "position": 5,
                                "skipped": [2, 3, 4]}
    assert engine.round is not None and engine.round.bank_offer == 5
    with pytest.raises(IllegalActError, match="was offered to position 5"):
        engine.offer_bank(DEALER)
    with pytest.raises(IllegalActError, match="position 3 has not been offered"):
        engine.bank(SUPERVISOR, 3, 10000)
    engine.decline_bank(DEALER)
    assert not engine.can_decline_bank(DEALER)
    engine.void(SUPERVISOR, "test")
    assert _engine(journal, "rotation").bank_turn() == 6  # the turn survives a restart
    classic = _engine(journal_at(tmp_path / "c.db"), "classic")
    classic.open_round(DEALER)
    with pytest.raises(IllegalActError, match="has no banking rotation"):
        classic.offer_bank(DEALER)


# --- heads-up ---------------------------------------------------------------------------------

def test_heads_up_poker_repeats_the_last_wager_and_plays_the_house_way(tmp_path: Path) -> None:
    journal = journal_at(tmp_path / "t.db")
    engine = _engine(journal, "heads-up", seed=6)  # a shuffle with a win, a loss and a push
    assert engine.last_wager(2) is None
    engine.open_round(DEALER)
    with pytest.raises(IllegalActError, match=r"499 cents at position 2 is outside the limits "
                                              r"500\.\.50000"):
        engine.take_bet(DEALER, 2, 499)
    with pytest.raises(IllegalActError, match="50001"):
        engine.take_bet(DEALER, 2, 50001)
    with pytest.raises(IllegalActError, match=r"position 3 is not one of 2\.\.2"):
        engine.take_bet(DEALER, 3, 1000)
    wagers = [1500, None, 2000, None]  # None: "Deal" again with the same wager
    played, outcomes = [], set()
    for wager in wagers:
        if engine.phase is not Phase.BETTING:
            engine.open_round(DEALER)
        stake = wager if wager is not None else engine.last_wager(2)
        assert stake is not None
        engine.take_bet(DEALER, 2, stake)
        _deal(engine)
        assert engine.round is not None and engine.round.playing() in ((1, 2), (2, 1))
        hand = engine.known_hand(2)
        assert hand is not None
        record = engine.play_house_way(DEALER, 2)
        data = record.payload()
        assert (data["by"], data["request"]) == ("house_way", "player")
        assert engine.round.settings[2].by is SetBy.HOUSE_WAY
        assert engine.round.settings[2].setting == engine.game.house_way(hand)[0]
        engine.expose_dealer(DEALER)
        settled = engine.settle(DEALER).payload()
        seat = settled["seats"][0]
        played.append(seat["bet"]["wager"])
        # [D4] l.16: even money less 5%; 17: the wager is lost; 18: else a push
        commission = stake * 5 // 100 // 25 * 25  # the profile rounds down to the quarter
        expected = {"win": stake - commission, "loss": -stake, "push": 0}
        assert settled["net"]["2"] == expected[seat["comparison"]["outcome"]]
        outcomes.add(seat["comparison"]["outcome"])
    assert outcomes == {"win", "loss", "push"}
    assert played == [1500, 1500, 2000, 2000]
    restarted = _engine(journal, "heads-up", seed=6)
    assert restarted.last_wager(2) == 2000
    assert all(r.ok for r in replay_journal(journal).rounds)


def _tile_cases() -> list[list[str]]:
    rows = []
    for raw in GOLDEN_TILES.read_text(encoding="utf-8").splitlines():
        if raw.strip() and not raw.startswith("#"):
            rows.append([f.strip() for f in raw.split("|")])
    return rows


@pytest.mark.parametrize("row", _tile_cases(), ids=lambda r: r[-1][:20])
def test_heads_up_tiles_golden_round(row: list[str], tmp_path: Path) -> None:
    wager, player, dealer, outcome, net, commission, source = row
    journal = journal_at(tmp_path / "t.db")
    engine = TileRound(journal, load_tile_profile("tiles-heads-up"), FakeDice(1))
    engine.open_round(DEALER)
    engine.take_bet(DEALER, 2, int(wager))
    engine.close_bets(DEALER)
    engine.build_woodpile(DEALER)
    engine.roll(SYSTEM)
    engine.set_hand(DEALER, 2, player)
    engine.expose_dealer(DEALER, dealer)
    data = engine.settle(DEALER).payload()
    seat = data["seats"][0]
    assert seat["comparison"]["outcome"] == outcome, source
    assert data["net"]["2"] == int(net), source
    assert seat["commission"] == int(commission), source
    assert engine.last_wager(2) == int(wager)


def test_heads_up_tiles_play_the_house_way_on_request(tmp_path: Path) -> None:
    journal = journal_at(tmp_path / "t.db")
    engine = TileRound(journal, load_tile_profile("tiles-heads-up"), FakeDice(2))
    engine.open_round(DEALER)
    engine.take_bet(DEALER, 2, 500)
    engine.close_bets(DEALER)
    engine.build_woodpile(DEALER)
    engine.roll(SYSTEM)
    with pytest.raises(IllegalActError, match="pieces are not known"):
        engine.play_house_way(DEALER, 2)
    record = engine.play_house_way(DEALER, 2, hand="6-6 4-5 1-2 3-3")
    assert record.payload()["request"] == "player"
    house_way = engine.game.house_way(engine.game.hand(["6-6", "4-5", "1-2", "3-3"]))[0]
    assert engine.round is not None and engine.round.settings[2].setting == house_way
    engine.expose_dealer(DEALER, hand="1-1 5-5 2-4 3-6")
    engine.settle(DEALER)
    assert all(r.ok for r in replay_journal(journal).rounds)


def test_table_engine_builds_the_engine_a_profile_names(tmp_path: Path) -> None:
    from controller.round.build import table_engine

    journal = journal_at(tmp_path / "t.db")
    ports = {"shuffler": FakeShuffler(1), "dice": FakeDice(1)}
    tiles = table_engine(journal, "tiles-heads-up", **ports)  # type: ignore[arg-type]
    poker = table_engine(journal, "home", **ports)  # type: ignore[arg-type]
    assert isinstance(tiles, TileRound) and tiles.game.positions == 2
    assert isinstance(poker, PokerRound) and poker.game.play.pot is not None
    with pytest.raises(ConfigError, match="unknown table profile 'nope'"):
        table_engine(journal, "nope", **ports)  # type: ignore[arg-type]


def test_history_counts_only_rounds_of_the_same_profile_and_mode(tmp_path: Path) -> None:
    journal = journal_at(tmp_path / "t.db")
    classic = _engine(journal, "classic")
    classic.open_round(DEALER)
    classic.take_bet(DEALER, 2, 7000)
    _deal(classic)
    classic.set_hand(DEALER, 2)
    classic.expose_dealer(DEALER)
    classic.settle(DEALER)
    assert classic.last_wager(2) == 7000
    assert _engine(journal, "heads-up").last_wager(2) is None
    replayed = PokerRound(journal, load_profile("classic"), FakeShuffler(1), FakeDice(1),
                          replay=True)
    assert replayed.last_wager(2) is None



def test_pot_turn_and_last_wager_survive_a_restart_on_postgres(pg_url: str) -> None:
    with open_journal(pg_url, clock=StepClock()) as journal:
        home = _engine(journal, "home", seed=3)
        for _ in range(3):
            _home_deal(home)
        rotation = _engine(journal, "rotation")
        rotation.open_round(DEALER)
        rotation.offer_bank(DEALER)
        rotation.void(SUPERVISOR, "test")
        heads_up = _engine(journal, "heads-up")
        heads_up.open_round(DEALER)
        heads_up.take_bet(DEALER, 2, 4200)
        _deal(heads_up)
        heads_up.play_house_way(DEALER, 2)
        heads_up.expose_dealer(DEALER)
        heads_up.settle(DEALER)
        pot = home.pot_status()
    with open_journal(pg_url, clock=StepClock()) as journal:
        assert _engine(journal, "home").pot_status() == pot
        assert _engine(journal, "rotation").bank_turn() == 3
        assert _engine(journal, "heads-up").last_wager(2) == 4200
        assert journal.verify().ok
        assert all(r.ok for r in replay_journal(journal).rounds)
