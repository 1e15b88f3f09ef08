"""The physical table's loop: people play the round, the loop answers for the machine.

On a real table nobody is simulated.  The dealer signs in at the display and works from the
panel's buttons; bets are keyed at the display; the supervisor acts from the display.  The loop
(``LiveLoop``) does what no person does:

- it turns each panel press into the dealer's act for the round as it stands (``PRESS``): new
  round; confirm closes the bets, exposes the dealer's hand (as the camera reads it) and
  settles, each in its phase;
  shake rolls; void and call supervisor call the supervisor (a void is the supervisor's act,
  done at the display);
- it deals: the shuffler's shuffle and the seven packets (poker) are the system's acts, done as
  soon as the round reaches them, their device calls outside the table's lock
  (``controller.table.ahead``);
- it reads the felt: after the roll, the dice area (``read_dice``: dice other than the
  shaker's are a fault for the supervisor); once the dealer's hand is exposed, each playing
  position (``read_camera``); a position it cannot read is left to the dealer, who keys the
  setting in;
- it shows the table's state on the tower light: green while a round runs, red while a
  critical fault waits for the supervisor, amber blinking once the supervisor is called.

A press with nobody signed in as dealer is refused and logged: every act is a named person's.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from firmware_interfaces.gpio import ButtonPress, DealerPanel, PanelButton
from firmware_interfaces.gpio.tower_light import (
    ALL_OFF,
    LOCKED,
    ROUND_OPEN,
    SUPERVISOR_CALLED,
    LightPattern,
)

from ..errors import ControllerError
from ..journal import Role
from ..live import Table
from ..live.device_events import device_event
from ..round import DeviceLostError, IllegalActError, Phase, PortError, Who
from ..round.ports import DicePort, ShufflerPort
from ..rules.poker.dealing import HOUSE
from .ahead import devices_ahead
from .camera import LayoutCamera

log = logging.getLogger(__name__)

SYSTEM = Who.system()

PRESS: dict[PanelButton, dict[Phase | None, str]] = {
    PanelButton.NEW_ROUND: {None: "open_round"},
    PanelButton.CONFIRM: {Phase.BETTING: "close_bets", Phase.SETTING: "expose_dealer",
                          Phase.EXPOSED: "settle"},
    PanelButton.SHAKE: {Phase.DEALT: "roll"},
}
"""The dealer's act behind each button, by the round's phase (None: no round open)."""

MACHINE_ACTS = frozenset({"shuffle", "deal_packet", "read_camera", "read_dice", "device_lost"})
"""The acts the loop does itself: nobody else is offered them or may ask for them."""

POLL = 0.05
"""Seconds the loop waits for a press before it looks at the round again (what the display
did meanwhile, a device's answer)."""


class Devices(Protocol):
    """What the loop needs of a table's devices (``controller.table.TableDevices``)."""

    @property
    def shuffler(self) -> ShufflerPort | None:
        """The card shuffler (poker), None for tiles."""

    @property
    def dice(self) -> DicePort:
        """The dice shaker."""

    @property
    def camera(self) -> LayoutCamera | None:
        """The layout camera, None on a table without one (the dealer keys every setting)."""

    @property
    def panel(self) -> DealerPanel | None:
        """The dealer panel."""

    @property
    def presses(self) -> queue.Queue[ButtonPress]:
        """The panel's accepted presses."""


@dataclass
class LiveSummary:
    """What a live session did: rounds settled and voided, presses refused."""

    settled: int = 0
    voided: int = 0
    refused: list[str] = field(default_factory=list)
    events: list[str] = field(default_factory=list)
    stopped: bool = False
    halted: str | None = None

    @property
    def rounds(self) -> int:
        """Rounds closed, settled or voided."""
        return self.settled + self.voided

    def text(self) -> str:
        """The session in one line."""
        return (f"{self.rounds} round(s): {self.settled} settled, {self.voided} voided; "
                f"{len(self.refused)} act(s) refused")


class LiveLoop:
    """Runs a physical table on ``table`` until stopped (see the module's docstring)."""

    def __init__(self, table: Table, devices: Devices, *,
                 on_duty: Callable[[Role], Who | None], rounds: int | None = None,
                 out: Callable[[str], None] = print, poll: float = POLL) -> None:
        self.rounds = rounds
        self.on_press: Callable[[PanelButton], None] | None = None
        """Told each panel press before it is done (a recording's inputs)."""
        self.on_read: Callable[[int, str | None], None] | None = None
        """Told each camera read the loop makes itself (the dealer's hand, for its exposure):
        the position and the setting read, before the act that uses it (a recording's
        inputs)."""
        self.thread: int | None = None
        """The identity of the thread the loop runs on, once it runs: its acts are the
        machine's, any other thread's are people's (at the display)."""
        self.table = table
        self.engine = table.engine
        self.devices = devices
        self.on_duty = on_duty
        self.out = out
        self.poll = poll
        self.summary = LiveSummary()
        self._stop = threading.Event()
        self._closed: str | None = None  # the last round counted
        self._ahead = devices_ahead(table, devices)
        if self._ahead is not None:
            table.ahead = self._ahead
        table.machine_acts = MACHINE_ACTS

    def stop(self) -> None:
        """Ask the loop to end (thread-safe, and safe in a signal handler); an open round is
        voided as the supervisor's act would be, with the reason."""
        self._stop.set()
        if self._ahead is not None:
            self._ahead.interrupt()

    @property
    def stopping(self) -> bool:
        """True once ``stop`` was called."""
        return self._stop.is_set()

    def run(self) -> LiveSummary:
        """Recover a round left open, then serve the table until ``stop`` or ``rounds``
        rounds are closed."""
        self.thread = threading.get_ident()
        done = self.table.recover()
        for round_id, reason in done.voided:
            self.out(f"{round_id} voided at start-up: {reason}")
        if done.resumed:
            self.out(f"{done.resumed} resumed")
        while not self._stop.is_set():
            if self.rounds is not None and self.summary.rounds >= self.rounds:
                return self.summary
            self.step()
        state = self.engine.round
        if state is not None and not state.closed:
            # Only a supervisor voids; a round left open is resumed (or voided, naming why)
            # by the next start's recovery, so a stop loses nothing.
            self.out(f"{state.round_id} left open at {state.phase.value}: the next start "
                     f"resumes it")
        self.summary.stopped = True
        return self.summary

    def step(self) -> None:
        """One turn: a press if one came within ``poll``, what the devices said meanwhile,
        then the machine's next act."""
        try:
            press = self.devices.presses.get(timeout=self.poll)
        except queue.Empty:
            press = None
        if press is not None:
            self.press(press)
        self.device_events()
        self.machine()

    def device_events(self) -> None:
        """Say, log and journal (the system's ``device_event`` note, an alert on the display)
        what the devices sent on their own (a door or lid opened, a line lost and back, a
        device's fault): the round's faults come from the acts themselves."""
        events = getattr(self.devices, "events", None)
        while events is not None:
            try:
                event = events.get_nowait()
            except queue.Empty:
                return
            log.warning("device event: %s", event)
            self.summary.events.append(str(event))
            self.out(f"  device: {event}")
            try:  # journaled for the floor: the display shows it as an alert
                self.table.note(device_event(event.source, event.record.NAME.lower() or "event",
                                             str(event)), SYSTEM)
            except ControllerError as err:  # the journal refused: said, and play goes on
                log.error("device event %s not journaled: %s", event, err)
                self.out(f"  device event not journaled: {err}")

    # --- the dealer's panel --------------------------------------------------------------------

    def press(self, press: ButtonPress) -> None:
        """Do the act ``press`` stands for now, as the dealer on duty."""
        button = press.button
        if self.on_press is not None:
            self.on_press(button)
        if button in (PanelButton.VOID, PanelButton.CALL_SUPERVISOR):
            self._call_supervisor(button)
            return
        state = self.engine.round
        phase = None if state is None or state.closed else state.phase
        act = PRESS[button].get(phase)
        if act is None:
            self._refuse(f"{button.value}: nothing to do while the round is "
                         f"{'not open' if phase is None else phase.value}")
            return
        dealer = self.on_duty(Role.DEALER)
        if dealer is None:
            self._refuse(f"{button.value}: no dealer is signed in at the display")
            return
        if act == "expose_dealer":
            hand = self._dealer_hand()
            if hand is not None:
                self._act(act, dealer, *hand)
            return
        self._act(act, dealer)

    def _dealer_hand(self) -> tuple[str, ...] | None:
        """The dealer's hand as the camera reads it once turned up (no lock held: the read
        waits for a still felt); nothing when there is no camera or it cannot tell, and the
        engine then sets a hand it knows by the house way or asks for it to be keyed.  A
        camera lost is journaled as the fault it is, for the supervisor, and the hand is not
        exposed (None): the dealer confirms again once the camera is back."""
        camera = self.devices.camera
        if camera is None:
            return ()
        lost: DeviceLostError | None = None
        try:
            seen = camera.read(HOUSE)
        except DeviceLostError as err:
            lost, seen = err, None
        except PortError as err:
            self.out(f"  the camera could not read the dealer's hand: {err}")
            seen = None
        if self.on_read is not None:
            self.on_read(HOUSE, seen)
        if lost is not None:
            self.out(f"  the camera was lost reading the dealer's hand: {lost}")
            self._act("device_lost", SYSTEM, camera.name, str(lost), "expose_dealer")
            return None
        return () if seen is None else (seen,)

    def _call_supervisor(self, button: PanelButton) -> None:
        """The dealer asks for the supervisor (a void is the supervisor's act at the display)."""
        state = self.engine.round
        where = "" if state is None else f" (round {state.round_id})"
        log.warning("the dealer pressed %s%s: the supervisor is called", button.value, where)
        self.out(f"supervisor called from the panel ({button.value}){where}")
        self._light(SUPERVISOR_CALLED)

    # --- the machine's acts --------------------------------------------------------------------

    def machine(self) -> None:
        """The act the system does next for the round as it stands, if any."""
        with self.table.lock:
            state = self.engine.round
            if state is None:
                return
            if state.closed:
                self._count(state)
                return
            if state.critical_faults:
                self._light(LOCKED)
                return
            self._light(ROUND_OPEN)
            act: tuple[str, tuple[Any, ...]] | None = None
            if state.phase is Phase.CLOSED and self.engine.game.name == "poker":
                act = ("shuffle", ())
            elif state.phase in (Phase.SHUFFLED, Phase.DEALING):
                act = ("deal_packet", ())
            elif state.phase is Phase.SETTING and self.engine.camera is not None \
                    and not state.dice_seen:
                act = ("read_dice", ())
            elif state.phase is Phase.EXPOSED and self.engine.camera is not None:
                unread = [p for p in state.playing() if p not in state.camera]
                if unread:
                    act = ("read_camera", (unread[0],))
        if act is not None:
            self._act(act[0], SYSTEM, *act[1])

    def _act(self, name: str, who: Who, *args: Any) -> None:
        """Do ``name`` through the table; a refusal is said and logged, a lost device is
        journaled by the engine as a fault for the supervisor."""
        try:
            self.table.act(name, who, *args)
        except DeviceLostError as err:
            self.out(f"  device lost during {name}: {err}")
        except (IllegalActError, PortError) as err:
            self._refuse(f"{name}: {err}")

    def _refuse(self, why: str) -> None:
        log.warning("refused: %s", why)
        self.summary.refused.append(why)
        self.out(f"  refused: {why}")

    def _count(self, state: Any) -> None:
        if state.round_id == self._closed:
            return
        self._closed = state.round_id
        if state.settlement is not None:
            self.summary.settled += 1
            net = int(state.settlement["net"].get(str(HOUSE), 0))
            self.out(f"{state.round_id} settled: house {net / 100:+.2f}")
        else:
            self.summary.voided += 1
            self.out(f"{state.round_id} VOID: {state.void_reason}")
        self._light(ALL_OFF)

    def _light(self, pattern: LightPattern) -> None:
        """Show ``pattern`` on the tower light (once: blinking restarts on every show)."""
        panel = self.devices.panel
        if panel is not None and not panel.closed and panel.light.pattern != pattern:
            panel.light.show(pattern)


__all__ = ["MACHINE_ACTS", "PRESS", "Devices", "LiveLoop", "LiveSummary"]
