"""A synthetic recording (``paigow sim record``): the live table played by scripted people on the
seeded simulators, its camera filming a rendered felt, recorded as ``paigow run --record``
records a real table, with the truth of every round beside it.

Nothing here stands in for the product: the table is the live one (``LiveLoop``, the felt
camera, the recorder); only the world around it is made up:

- the device simulators run as their own processes on ptys, seeded;
- the camera's source is a ``vision.table_video.world.FeltWorld``: the shipped layout seen by
  a camera drawn from the seed (perspective, uneven light, glare, blur, noise, JPEG), the
  dealer's arm bringing each change about; the camera is calibrated from its first frame by
  the layout's markers, as ``paigow camera calibrate`` does;
- scripted people: the dealer signs in and presses the panel's buttons on the mock pins,
  keys the bets at the display's side (``table.act``), builds the woodpile (tiles); players
  bet and set by ``controller.simulation.players`` (mostly the house way, sometimes another
  way, now and then a foul); the dealer's hand is set by the house way or, now and then, off
  it, and the supervisor lets it stand.

Every hand is laid on the felt face up before the dealer confirms the exposure, and nobody
keys a player's setting: the camera reads it.  A position the camera cannot read is keyed by
the dealer, as at a real table, and counted (``keyed``); the truth (``truth.jsonl``, one line a
round: the bets, every position's pieces and setting, the settlement the rules give for them)
lets a replay check that every round settled as it was played.
"""

from __future__ import annotations

import csv
import functools
import json
import logging
import random
import tempfile
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2

from firmware_interfaces.gpio import DEFAULT_DEBOUNCE, PanelButton
from firmware_interfaces.gpio.mock import MockLines
from vision.layout import DICE, Layout
from vision.markers import calibrate
from vision.table_video.camera import TableCamera, decode
from vision.table_video.render import Looks
from vision.table_video.state import PACKET_SIZES, Chips, Content, Dice, Hand, Packet, TableState
from vision.table_video.timeline import Motion
from vision.table_video.world import FeltWorld

from ..config.locations import config_file
from ..journal import Journal, Role
from ..live import Table
from ..profiles.poker import load_profile
from ..profiles.tiles import load_tile_profile
from ..round import Phase, PokerRound, TileRound, Who
from ..rules.poker.dealing import HOUSE
from ..rules.records import to_json
from ..rules.seat import HandSet, SetBy
from ..rules.tiles.dominoes import full_set
from ..table import TableDevices, open_table
from ..table.camera import card_reader
from ..table.camera_config import CameraConfig
from ..table.errors import TableError
from ..table.felt_camera import FeltCamera, box_names
from ..table.live import LiveLoop
from ..table.recording import SessionRecorder, record_inputs
from .players import Habits, PokerSetter, SimDealer, SimPlayers, TileSetter

log = logging.getLogger(__name__)

TRUTH = "truth.jsonl"
FILM = "camera/film.avi"
FILM_TIMES = "camera/film.csv"
DEALER = Who.dealer("sim-dealer")
SUPERVISOR = Who.supervisor("sim-supervisor")
SIGNED_IN = "operator_signed_in"
"""The note a sign-in at the display journals (``controller.display.sign_in``)."""
SIZE = (2560, 1440)
"""The camera's frame: the card reader needs about 1.3 px/mm over a whole table."""
MOTION = Motion(fps=5.0, reach=0.3, per_region=0.1, back=0.3, settle=0.5)
"""A brisk dealer filmed at 5 frames a second: the felt reads still after 0.4 s of frames,
so a read costs a few frames, and an arm across the whole table about twenty."""
STILL_SECONDS = 0.4
WAIT = 120.0
"""Seconds (of a step's wait for the loop) before the script says the table is stuck. The
first exposure of a fresh checkout reads its first frames while the card reader's compiled
kernels compile (numba caches them beside the code only after): that took over 30 s on a
fresh clone, so the wait is well beyond it; a table truly stuck is still named."""


@dataclass
class SyntheticSummary:
    """What the synthetic session played: rounds settled, positions the camera set, positions
    the dealer had to key, frames filmed."""

    rounds: int = 0
    camera_set: int = 0
    keyed: int = 0
    frames: int = 0
    film_frames: int = 0
    lines: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """``paigow sim record --json``'s object."""
        return {"rounds": self.rounds, "camera_set": self.camera_set, "keyed": self.keyed,
                "frames": self.frames, "film_frames": self.film_frames}


def record_synthetic(game: str, rounds: int, seed: int, recorder: SessionRecorder,
                     journal: Journal, *, size: tuple[int, int] = SIZE,
                     motion: Motion = MOTION, film: bool = True,
                     say: Callable[[str], None] = print) -> SyntheticSummary:
    """Play ``rounds`` rounds of ``game`` into ``recorder``'s folder (module docstring); with
    ``film``, write the whole session's video too (``write_film``)."""
    layout_path = config_file("layouts", f"paigow-{game}.toml")
    layout = Layout.load(layout_path)
    faces: Mapping[str, Any] = card_reader("2color")[0] if game == "poker" else {}
    world = FeltWorld(layout, Looks(faces=faces), seed, TableState("poker" if game == "poker"
                                                                   else "tiles"),
                      TableCamera(size=size), motion)
    summary = SyntheticSummary()
    with tempfile.TemporaryDirectory(prefix="paigow-sim-camera-") as scratch:
        first = world.read()
        assert first is not None
        calibration = Path(scratch) / "calibration.json"
        calibrate(first.image, layout).save(calibration)
        config = CameraConfig(table=Path(f"<paigow sim record --seed {seed}>"),
                              source="sim:felt-world", layout=layout_path,
                              calibration=calibration, deck="2color" if game == "poker" else None,
                              size=None, still_seconds=STILL_SECONDS, wait_seconds=10.0,
                              fps=motion.fps)
        camera = FeltCamera(config, game, recorder.folder / "journal-frames", source=world,
                            tap=recorder.camera(config))
        with open_table(config_file("tables", "sim-table.toml"), game, seed=seed,
                        camera=lambda: camera, recorder=recorder) as devices:
            script = _Script(game, seed, devices, journal, world, recorder, summary, say)
            try:
                script.play(rounds)
            finally:
                script.close()
    summary.frames = len(world.shots)
    summary.camera_set = sum(1 for r in journal.records()
                             if r.kind == "set" and r.role is Role.CAMERA)
    recorder.annotate("truth", TRUTH)
    if film:
        summary.film_frames = write_film(world, recorder)
    return summary


def write_film(world: FeltWorld, recorder: SessionRecorder) -> int:
    """The video the table camera would have taken over the whole session, seen or not
    (``FILM``, Motion JPEG, at the camera's rate) and ``FILM_TIMES`` (``frame,t,step,arm,
    taken``: taken is 1 for the frames the camera read, which are the recording's
    ``camera/frames`` in order); the header names both.  Frames written."""
    taken = {shot.index for shot in world.shots}
    path = recorder.folder / FILM
    writer: cv2.VideoWriter | None = None
    count = 0
    with (recorder.folder / FILM_TIMES).open("w", encoding="utf-8", newline="") as f:
        rows = csv.writer(f)
        rows.writerow(["frame", "t", "step", "arm", "taken"])
        for frame in world.film():
            image = decode(frame.jpeg)
            if writer is None:
                height, width = image.shape[:2]
                writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"MJPG"),
                                         world.motion.fps, (width, height))
                if not writer.isOpened():
                    raise SimulationError(f"cannot write the film {str(path)!r} (Motion "
                                          f"JPEG)")
            writer.write(image)
            rows.writerow([frame.index, f"{frame.t:.6f}", frame.step, int(frame.arm),
                           int(frame.index in taken)])
            count += 1
    if writer is not None:
        writer.release()
    recorder.annotate("film", {"video": FILM, "times": FILM_TIMES, "fps": world.motion.fps,
                               "frames": count})
    return count


class _Script:
    """The people at the synthetic table, and the felt they lay (module docstring)."""

    def __init__(self, game: str, seed: int, devices: TableDevices, journal: Journal,
                 world: FeltWorld, recorder: SessionRecorder, summary: SyntheticSummary,
                 say: Callable[[str], None]) -> None:
        self.game, self.devices, self.world, self.summary = game, devices, world, summary
        self.recorder = recorder
        self.say = say
        self.rng = random.Random(seed)
        engine: Any
        if game == "tiles":
            tiles = load_tile_profile()
            engine = TileRound(journal, tiles, devices.dice, devices.camera)
            setter: Any = TileSetter(tiles)
            limits = tiles.settlement.limits
        else:
            poker = load_profile()
            assert devices.shuffler is not None
            engine = PokerRound(journal, poker, devices.shuffler, devices.dice, devices.camera)
            setter = PokerSetter(poker)
            limits = poker.settlement.limits
        engine.hold_deviations = True  # as paigow run has it
        habits = Habits(vacancy_rate=0.3)
        self.players = SimPlayers(setter, limits, habits, self.rng)
        self.dealer = SimDealer(setter, habits, self.rng)
        self.engine = engine
        self.table = Table(engine)
        duty = {Role.DEALER: DEALER, Role.SUPERVISOR: SUPERVISOR}
        self.loop = LiveLoop(self.table, devices, on_duty=duty.get, out=self._said, poll=0.02)
        self._wire()
        self.lines = MockLines(devices.pin_factory, devices.hardware.pins)
        self.thread = threading.Thread(target=self.loop.run, name="live-loop", daemon=True)
        self._pressed = -1.0
        self.held: dict[str, Content] = {}
        self.woodpile: tuple[tuple[str, ...], ...] = ()

    def _wire(self) -> None:
        """The recording's inputs, as ``paigow run --record`` writes them."""
        record_inputs(self.recorder, self.table, self.loop)

    def _said(self, line: str) -> None:
        self.summary.lines.append(line)
        log.info("loop: %s", line)

    def close(self) -> None:
        """Stop the loop (a round left open is the next start's to recover)."""
        self.loop.stop()
        self.thread.join(timeout=30)

    # --- the session -----------------------------------------------------------------------

    def play(self, rounds: int) -> None:
        """Sign the staff in, start the loop, play ``rounds`` rounds."""
        for who, name in ((DEALER, "Sim Dealer"), (SUPERVISOR, "Sim Supervisor")):
            self.table.note({"type": SIGNED_IN, "v": 1, "staff": who.actor, "name": name,
                             "role": who.role.value}, who)
        self.thread.start()
        for number in range(1, rounds + 1):
            self.round(number)

    def round(self, number: int) -> None:
        """One round from the open to the settlement, the felt cleared after."""
        self.press(PanelButton.NEW_ROUND)
        self.until(lambda: self.phase() is Phase.BETTING, "the round to open")
        seats = list(range(2, self.engine.game.positions + 1))
        bets = self.players.bets(seats)
        for position, wager in bets.items():
            self.table.act("take_bet", DEALER, position, wager)
            self.held[f"seat{position}.bet"] = Chips(min(20, max(1, wager // 500)))
        self.show(idle=True)
        self.press(PanelButton.CONFIRM)  # no more bets
        if self.game == "tiles":
            self.until(lambda: self.phase() is Phase.CLOSED, "the bets to close")
            tiles = [str(t) for t in full_set()]
            self.rng.shuffle(tiles)
            self.woodpile = tuple(tuple(tiles[4 * k:4 * k + 4]) for k in range(8))
            self.table.act("build_woodpile", DEALER)
        self.until(lambda: self.phase() in (Phase.DEALT, Phase.SETTING), "the deal")
        while self.phase() is Phase.DEALT:  # a tiles no-game shake is shaken again
            head = self.table.journal.head()[0]
            self.world.expect()  # the camera sees the dice once they lie in the dice area
            self.press(PanelButton.SHAKE)
            self.until(functools.partial(self._rolled_after, head), "the roll")
        state = self.state()
        roll = next(r for r in reversed(list(self.table.journal.records()))
                    if r.kind == "roll")
        self.held[DICE] = Dice(tuple(int(v) for v in roll.payload()["dice"]))
        playing = list(state.playing())
        for position in playing:
            self.held[box_names(position)[1]] = Packet(PACKET_SIZES[self._felt_game])
        self.show(idle=True)  # the players look at their hands and set them
        settings = {p: self.players.decide(self.pieces(p)).setting
                    for p in playing if p != HOUSE}
        settings[HOUSE] = self.dealer.decide(self.pieces(HOUSE)).setting
        for position, setting in settings.items():  # every hand turned up on the felt
            low, high = box_names(position)
            self.held[low], self.held[high] = (Hand(tuple(half.split()))
                                               for half in setting.split(" / "))
        self.show()
        self.press(PanelButton.CONFIRM)  # the dealer's hand: the loop reads it and exposes it
        self.until(lambda: self.phase() is not Phase.SETTING
                   or bool(self.loop.summary.refused), "the exposure")
        if self.phase() is Phase.SETTING:  # the camera could not read the dealer's hand
            self.summary.keyed += 1
            self.table.act("expose_dealer", DEALER, settings[HOUSE])
        self.until(lambda: self._read_all(playing), "the camera's reads")
        state = self.state()
        for fault, data in list(state.faults.items()):
            if data.get("code") == "dealer_off_house_way":  # the supervisor lets it stand
                self.table.act("clear_fault", SUPERVISOR, fault, "the hand stands as set")
        for position in playing:
            if position != HOUSE and position not in self.state().settings:
                self.summary.keyed += 1  # the camera could not tell: the dealer keys it
                self.table.act("set_hand", DEALER, position, settings[position])
        self.press(PanelButton.CONFIRM)  # pay and take
        self.until(lambda: self.loop.summary.settled == number, "the settlement")
        self.truth(number, state.round_id, bets, settings)
        self.held = {}
        self.show(idle=True)
        self.summary.rounds = number
        self.say(f"round {number} ({state.round_id}) settled")

    def truth(self, number: int, round_id: str, bets: Mapping[int, int],
              settings: Mapping[int, str]) -> None:
        """The round as played, and the settlement the rules give for it."""
        state = self.state()
        game = self.engine.game
        hands = [HandSet(HOUSE, game.parse(settings[HOUSE]), SetBy.PLAYER)] + [
            HandSet(p, game.parse(s), SetBy.PLAYER) for p, s in sorted(settings.items())
            if p != HOUSE]
        expected = game.settle(hands, [b for b, _ in state.bets.values()], state.banker,
                               state.bank)
        line = {"round": number, "round_id": round_id, "bets": {str(p): w for p, w in bets.items()},
                "settings": {str(p): s for p, s in sorted(settings.items())},
                "settlement": to_json(expected)}
        with (self.recorder.folder / TRUTH).open("a", encoding="utf-8") as f:
            f.write(json.dumps(line, sort_keys=True) + "\n")

    # --- the felt --------------------------------------------------------------------------

    @property
    def _felt_game(self) -> Any:
        return "poker" if self.game == "poker" else "tiles"

    def show(self, idle: bool = False) -> None:
        """Lay the felt as ``held`` says (the dealer's arm brings it about); with ``idle``,
        time goes by until the felt is still, nobody looking."""
        self.world.show(TableState.of(self._felt_game, self.held))
        if idle:
            self.world.pass_time()

    def pieces(self, position: int) -> tuple[str, ...]:
        """What ``position`` was dealt: the shuffler's packet (poker), the woodpile's stack
        the dice gave it (tiles)."""
        known = self.engine.known_hand(position)
        if known is not None:
            return tuple(known)
        plan = self.state().plan
        if plan is None or not self.woodpile:
            raise SimulationError(f"position {position}'s hand is not known to the script")
        return self.woodpile[plan.packet_of(position) - 1]

    # --- waiting on the table --------------------------------------------------------------

    def press(self, button: PanelButton) -> None:
        """Press and release a panel button on the mock pins, after a quiet line."""
        quiet = self._pressed + DEFAULT_DEBOUNCE * 1.5
        if time.monotonic() < quiet:
            time.sleep(quiet - time.monotonic())
        self.lines.click(f"panel.{button.value}")
        self._pressed = time.monotonic()

    def until(self, what: Callable[[], bool], waiting_for: str) -> None:
        """Wait until ``what`` holds; a ``SimulationError`` naming it (and what the loop last
        said) when it does not within ``WAIT`` seconds."""
        end = time.monotonic() + WAIT
        while not what():
            if time.monotonic() > end:
                said = "; ".join(self.summary.lines[-3:]) or "nothing"
                raise SimulationError(f"the synthetic table is stuck waiting for "
                                      f"{waiting_for} (the loop said: {said})")
            time.sleep(0.02)

    def state(self) -> Any:
        with self.table.lock:
            return self.engine.round

    def phase(self) -> Phase | None:
        state = self.state()
        return None if state is None or state.closed else state.phase

    def _rolled_after(self, seq: int) -> bool:
        return any(r.kind == "roll" for r in self.table.journal.records() if r.seq > seq)

    def _read_all(self, playing: list[int]) -> bool:
        state = self.state()
        return state is not None and all(p in state.camera for p in playing)


class SimulationError(TableError):
    """The synthetic table did not get where the script waits for; the message names what."""


__all__ = ["DEALER", "SUPERVISOR", "TRUTH", "SyntheticSummary", "record_synthetic"]
