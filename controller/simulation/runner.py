"""The simulated table's loop (``paigow demo``): rounds one after another on a ``Table``,
until N are done or it is stopped, with every person at the table simulated.

Each step looks at the round's phase and does the one act that comes next, so a round resumed
after a crash, or moved on from the display, carries on from where it stands.  Every act goes
through ``Table.act`` (viewers see it).  The dealer's acts that have a panel button (new round,
shake, confirm) are pressed on the panel's pins and done when the press arrives; the others are
done directly with the dealer's role.  The players' part (bets, hands, settings keyed in and
laid on the layout) is ``seats.Seats``'.  An active fault is the supervisor's: a wrong card
count is cleared once the deck is fixed, a camera mismatch is corrected to what lies on the
layout, a lost device voids the round with the reason (several in a row halt the table).  Each
round ends with one line; the run with a summary (``results.RunSummary``).
"""

from __future__ import annotations

import logging
import random
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from firmware_interfaces.gpio import PanelButton

from ..journal import Record, Role
from ..live import Table
from ..round import DeviceLostError, IllegalActError, Phase, PortError, Who
from ..rules.poker.dealing import HOUSE
from ..table.ahead import devices_ahead
from ..table.errors import TableError
from ..table.live import Devices as LiveDevices
from ..table.panel_keys import PanelKeys
from ..table.people import Dealer, Players
from ..table.results import RoundResult, RunSummary
from .seats import Seats

log = logging.getLogger(__name__)

DEALER = Who.dealer()
SUPERVISOR = Who.supervisor()
SYSTEM = Who.system()

STUCK = 3
"""Refusals in a row after which the supervisor voids the round (twice as many: give up)."""

FAULTS = {"poker": (("shuffler", "short_count"), ("shuffler", "duplicate"),
                    ("shuffler", "lost"), ("dice", "no_game"), ("dice", "lost")),
          "tiles": (("dice", "no_game"), ("dice", "lost"))}
"""Faults the runner may inject (``fault_rate``) into devices that take ``inject``."""


class RunnerError(TableError):
    """The table loop cannot go on (a stuck round)."""


class Devices(LiveDevices, Protocol):
    """What the runner needs of a table's devices: what the live loop needs, and the pins of
    the panel, which the runner presses itself (a ``MockFactory`` on a simulated table)."""

    @property
    def pin_factory(self) -> Any:
        """The panel's pin factory."""


@dataclass(frozen=True, slots=True)
class RunnerSettings:
    """How many rounds, how fast, and how often the runner makes a device fail."""

    rounds: int | None = None  # None: until stopped
    pace: float = 0.0  # seconds between acts, so viewers can follow
    fault_rate: float = 0.0
    entry_error_rate: float = 0.03  # the dealer keys in another setting than the layout's
    halt_after: int = 3  # rounds in a row voided for a lost device before the table halts
    device_wait: float = 1.0  # seconds to let a lost device come back, doubled each time

    def __post_init__(self) -> None:
        if isinstance(self.halt_after, bool) or self.halt_after < 1:
            raise RunnerError(f"halt after {self.halt_after!r} must be a whole number >= 1")
        if self.rounds is not None and (isinstance(self.rounds, bool) or self.rounds < 1):
            raise RunnerError(f"rounds {self.rounds!r} must be a whole number >= 1")
        if not self.pace >= 0:
            raise RunnerError(f"pace {self.pace!r} must be seconds >= 0")
        for name in ("fault_rate", "entry_error_rate"):
            if not 0 <= getattr(self, name) <= 1:
                raise RunnerError(f"{name.replace('_', ' ')} {getattr(self, name)!r} must be "
                                  f"between 0 and 1")


class TableRunner:
    """Plays rounds on ``table`` with the players and dealer it is handed (the simulated ones
    of ``controller.simulation.players``), printing a line each; ``paigow run``'s loop, with
    people, is ``controller.table.live``."""

    def __init__(self, table: Table, devices: Devices, players: Players, dealer: Dealer,
                 settings: RunnerSettings, *, randomness: str,
                 out: Callable[[str], None] = print,
                 on_duty: Callable[[Role], Who | None] | None = None) -> None:
        self.table = table
        self.on_duty = on_duty  # the person signed in for a role: the acts are journaled as theirs
        self.engine = table.engine
        self.devices = devices
        self.players = players
        self.dealer = dealer
        self.settings = settings
        self.rng: random.Random = players.rng
        self.summary = RunSummary(randomness)
        self.out = out
        self._stop = threading.Event()
        self.keys = PanelKeys(devices.panel, devices.pin_factory, devices.presses, self._stop,
                              lambda line: self.out(line))
        self.seats = Seats(self.engine, devices, self.rng, settings.entry_error_rate, self._act,
                           self._press)
        self._game: str = self.engine.game.name
        self._lost_rounds = 0
        self._refusals: list[str] = []  # refusals in a row: a round that cannot go on
        self._finished: str | None = None  # the last round counted in the summary
        self._opened: str | None = None  # the last round logged as opened
        # Device calls made ahead of their act, outside the table's lock (display acts too).
        self._ahead = devices_ahead(table, devices)
        if self._ahead is not None:
            table.ahead = self._ahead

    # --- running -------------------------------------------------------------------------------

    def stop(self) -> None:
        """Ask the loop to end (thread-safe, and safe in a signal handler); a device call under
        way ends at once; an open round is voided with the reason."""
        self._stop.set()
        if self._ahead is not None:
            self._ahead.interrupt()

    @property
    def stopping(self) -> bool:
        """True once ``stop`` was called."""
        return self._stop.is_set()

    def run(self) -> RunSummary:
        """Recover, then play until the rounds are done or ``stop``; the summary."""
        done = self.table.recover()
        for round_id, reason in done.voided:
            log.warning("round %s voided at start-up: %s", round_id, reason)
            self.out(f"{round_id} voided at start-up: {reason}")
        if done.resumed:
            self.out(f"{done.resumed} resumed at {done.phase.value if done.phase else '?'}")
        if self.engine.round is not None and self.engine.round.round_id in dict(done.voided):
            self._finished = self.engine.round.round_id  # voided at start-up: said above
        target = self.settings.rounds
        while not self._stop.is_set():
            if target is not None and len(self.summary.results) >= target \
                    and not self._round_open():
                break
            self.step()
            if self.settings.pace:
                self._stop.wait(self.settings.pace)
        if self._round_open():
            with self.table.lock:
                self._act("void", SUPERVISOR, "stopped by the operator")
                self._finish()
            self.summary.stopped = True
        elif self._stop.is_set() and self.summary.halted is None and (
                target is None or len(self.summary.results) < target):
            self.summary.stopped = True
        return self.summary

    def _round_open(self) -> bool:
        state = self.engine.round
        return state is not None and not state.closed

    def step(self) -> None:
        """Do the one act that comes next for the round as it stands.

        The look and most acts are under the table's lock, so an act from the display cannot
        move the round on between them. An act that waits on a device or on the dealer's
        panel is done after the lock is let go (``Table.act`` takes it again once the device
        has answered, ``controller.table.ahead``): a hung device then blocks no viewer, no
        supervisor's void and no stop. If the round moved on meanwhile, the act is refused.
        """
        with self.table.lock:
            later = self._step()
        if later is None or self._stop.is_set():
            return
        later()
        with self.table.lock:
            state = self.engine.round
            if state is not None and state.closed and state.round_id != self._finished:
                self._finish()

    def _step(self) -> Callable[[], None] | None:
        state = self.engine.round
        if state is not None and state.round_id != self._opened:
            self._opened = state.round_id  # opened here or at the display
            log.info("round %s opened (%s)", state.round_id, self._game)
        if state is not None and state.closed and state.round_id != self._finished:
            self._finish()  # closed from elsewhere (the display): counted all the same
            return None
        if len(self._refusals) >= (STUCK if state is None or state.closed else 2 * STUCK):
            raise RunnerError(f"the table is stuck: {self._refusals[-1]}")
        later: Callable[[], None] | None = None
        if state is None or state.closed:
            later = self._open()
        elif len(self._refusals) >= STUCK:
            self._act("void", SUPERVISOR, f"the round cannot go on: {self._refusals[-1]}")
        elif state.critical_faults:
            self._supervise()
        elif state.phase is Phase.BETTING:
            self.seats.bets(self.players)
        elif state.phase is Phase.CLOSED:
            if self._game == "tiles":
                self.seats.wash()
                self._act("build_woodpile", DEALER)
            else:
                later = lambda: self._act_quietly("shuffle", SYSTEM)  # noqa: E731
        elif state.phase in (Phase.SHUFFLED, Phase.DEALING):
            later = lambda: self._act_quietly("deal_packet", SYSTEM)  # noqa: E731
        elif state.phase is Phase.DEALT:
            later = lambda: self._press(PanelButton.SHAKE)  # noqa: E731
        elif state.phase is Phase.SETTING:
            later = self.seats.set_next(self.players, self.dealer)
        elif state.phase is Phase.EXPOSED:
            unread = [p for p in state.playing() if p not in state.camera]
            if self.engine.camera is not None and unread:
                self._act("read_camera", SYSTEM, unread[0])
            else:
                later = lambda: self._press(PanelButton.CONFIRM)  # noqa: E731
        state = self.engine.round
        if state is not None and state.closed and state.round_id != self._finished:
            self._finish()
        return later

    # --- acts ----------------------------------------------------------------------------------

    def _act(self, name: str, who: Who, *args: Any, **kwargs: Any) -> list[Record]:
        """Do an act through the table; a refusal or a lost device is journaled, not fatal."""
        try:
            records = self.table.act(name, self._on_duty(who), *args, **kwargs)
        except DeviceLostError:
            self._refusals = []  # the engine journaled the fault; the supervisor deals with it
        except (IllegalActError, PortError) as err:  # a device answering nonsense: a refusal
            self._note_refusal(name, err)
        else:
            self._refusals = []
            return records
        return []

    def _act_quietly(self, name: str, who: Who) -> None:
        """A device act done after the lock was let go; a stop interrupting it is no refusal."""
        if self._stop.is_set():
            return
        try:
            self.table.act(name, self._on_duty(who))
        except DeviceLostError:
            self._refusals = []  # journaled by the engine, or interrupted by a stop
        except (IllegalActError, PortError) as err:
            if not self._stop.is_set():
                self._note_refusal(name, err)
        else:
            self._refusals = []

    def _on_duty(self, who: Who) -> Who:
        """The person signed in for ``who``'s role, whose act it is journaled as; ``who`` (the
        simulated operator) while nobody is, and always for the system's own acts."""
        if self.on_duty is None or who.role is Role.SYSTEM:
            return who
        return self.on_duty(who.role) or who

    def _note_refusal(self, name: str, err: Exception) -> None:
        log.warning("%s refused: %s", name, err)
        if isinstance(err, IllegalActError):
            self.out(f"  refused: {err}")  # e.g. the display moved the round on meanwhile
            self._refusals.append(str(err))
        else:
            self.out(f"  device error during {name}: {err}")
            self._refusals.append(f"{name}: {err}")

    def _press(self, button: PanelButton) -> None:
        """The dealer's act behind ``button``, as the panel says it was pressed (done without
        the table's lock held: a real panel waits for the dealer's hand)."""
        act = self.keys.act_for(button)
        if act is not None:
            self._act_quietly(act, DEALER)

    def _open(self) -> Callable[[], None]:
        self.seats.new_round()
        clear = getattr(self.devices.camera, "clear", None)
        if callable(clear):
            clear()
        fault = self._fault_to_inject()

        def open_round() -> None:
            if fault is not None:
                self._inject(*fault)
            self._press(PanelButton.NEW_ROUND)

        return open_round

    def _fault_to_inject(self) -> tuple[str, str] | None:
        if not self.settings.fault_rate or self.rng.random() >= self.settings.fault_rate:
            return None
        device_name, fault = self.rng.choice(FAULTS[self._game])
        return device_name, fault

    def _inject(self, device_name: str, fault: str) -> None:
        inject = getattr(getattr(self.devices, device_name, None), "inject", None)
        if callable(inject):
            try:
                inject(fault)
            except PortError as err:  # still silent from the last fault: the round will tell
                self.out(f"  could not inject {fault!r}: {err}")

    # --- faults --------------------------------------------------------------------------------

    def _supervise(self) -> None:
        """The supervisor deals with the first active critical fault."""
        state = self.engine.round
        assert state is not None
        fault = state.critical_faults[0]
        data = state.faults[fault]
        code = data.get("code")
        self.keys.call_supervisor()
        self.out(f"  fault {code}: {data.get('text')}")
        if code == "card_count":
            self._act("clear_fault", SUPERVISOR, fault, "deck checked and made whole")
        elif code == "camera_mismatch" and isinstance(data.get("position"), int):
            self._correct_to_layout(fault, data["position"])
        else:
            self._act("void", SUPERVISOR, f"{code}: {data.get('text')}")

    def _correct_to_layout(self, fault: str, position: int) -> None:
        """The supervisor looks at the layout: the entry is corrected to what lies there; if
        it already was (the camera misread), the fault is cleared and the entry stands."""
        state = self.engine.round
        assert state is not None
        truth = self.seats.placed.get(position)
        if truth is None:
            self._act("void", SUPERVISOR, f"camera mismatch at position {position}; the "
                                          f"layout is not known after a restart")
            return
        if str(self.engine.game.parse(truth)) != str(self.engine.entered(position)):
            ref = state.exposure.seq if position == HOUSE and state.exposure \
                else state.settings[position].seq
            self._act("correct", SUPERVISOR, ref, setting=truth,
                      reason=f"camera mismatch at position {position}: corrected to the layout")
        state = self.engine.round
        if state is not None and fault in state.faults:
            self._act("clear_fault", SUPERVISOR, fault, "the camera misread; the entry stands")

    # --- results -------------------------------------------------------------------------------

    def _finish(self) -> None:
        state = self.engine.round
        assert state is not None
        self._finished = state.round_id
        faults = tuple(r.payload().get("code", "?") for r in state.records
                       if r.kind == "fault_raised")
        dice = "-" if state.dice is None else ",".join(str(f) for f in state.dice.faces)
        seats = len([p for p in state.bets if p != HOUSE])
        if state.settlement is None:
            result = RoundResult(state.round_id, self._game, dice, seats, False,
                                 void_reason=state.void_reason, faults=faults)
        else:
            data = state.settlement
            deviation = next((f"{r.payload()['setting']} (house way "
                              f"{r.payload()['house_way']})"
                              for r in state.records if r.kind == "deviation"), None)
            commission = int(data.get("banker_commission") or 0) + sum(
                int(s.get("commission") or 0) for s in data["seats"])
            fouls = sum(1 for s in data["seats"] if s.get("comparison") and (
                s["comparison"]["reason"] == "foul" or s["comparison"].get("reset_from")))
            result = RoundResult(state.round_id, self._game, dice, seats, True,
                                 int(data["net"].get(str(HOUSE), 0)), commission, deviation,
                                 fouls, faults=faults, note=_note(state.banker, data))
        self.summary.results.append(result)
        if result.settled:
            log.info("round %s settled: %s", result.round_id, result.line().strip())
        else:
            log.warning("round %s voided: %s", result.round_id, result.void_reason)
        self.out(result.line())
        self._after_void(result)

    def _after_void(self, result: RoundResult) -> None:
        """A round voided for a lost device: wait for it to come back, or halt the table."""
        if result.settled or "device_lost" not in result.faults:
            self._lost_rounds = 0
            return
        self._lost_rounds += 1
        if self._lost_rounds >= self.settings.halt_after:
            self.summary.halted = (f"{self._lost_rounds} rounds in a row voided for a lost "
                                   f"device; last: {result.void_reason}")
            self._stop.set()
            return
        wait = self.settings.device_wait * 2 ** (self._lost_rounds - 1)
        self.out(f"  waiting {wait:g} s for the device to come back")
        self._stop.wait(wait)


def _note(banker: int | None, settle: dict[str, Any]) -> str | None:
    """Who banked, or where a home game's pot went."""
    pot = settle.get("pot")
    if isinstance(pot, dict):
        total = f"pot {pot['total'] / 100:.2f}"
        winner = pot.get("winner")
        return f"{total} to position {winner}" if winner else f"{total} carried"
    if banker is not None and banker != HOUSE:
        return f"position {banker} banked"
    return None


__all__ = ["Devices", "RunnerError", "RunnerSettings", "TableRunner"]
