"""``paigow run`` and ``paigow demo``: the whole table, with the dealer display on.

``run --table FILE`` is the physical table: the devices that file names, the staff of its
staff file, and the live loop (``controller.table.live``): the dealer and the supervisor play
from the panel and the display, the loop deals and reads.  ``demo`` plays the simulated table
(``config/tables/sim-table.toml``) with the simulation's players, dealer and camera; its setup
is in ``demo`` (this module imports no simulation).  Both journal to SQLite (or PostgreSQL),
serve the display in the same process, play until ``--rounds`` are done or Ctrl-C, and end
with a summary.  ``add_parsers(subparsers)`` registers both.
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import secrets
import signal
import socket
import sys
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Any, Protocol

from ..config.locations import config_file
from ..errors import ControllerError
from ..journal import Journal, Role
from ..round import PokerRound, TileRound, Who
from ..round.oversight import OversightEngine
from ..staff import Member, PinHash, Staff, load_staff
from .common import UsageError, listening_socket, number_in, run_alone
from .journal import JournalCommandError, add_key_option, open_writer
from .serving import add_serving_options, served_hosts, tls
from .startup import log_beside

if TYPE_CHECKING:  # the table pulls in vision and the display: loaded by these commands only
    from ..live import Table as LiveTable
    from ..table import TableDevices
    from ..table.camera import LayoutCamera
    from ..table.recording import SessionRecorder

log = logging.getLogger(__name__)

SIM_TABLE = ("tables", "sim-table.toml")
"""The simulated table's hardware file (``paigow demo``) among the config folders."""

STAFF_DIR = "staff"
"""The config subfolder where ``paigow run`` looks for a table's staff file (``NAME.toml``)."""

PORT_HINT = "; pass --port or --no-display"


class TableCommandError(ControllerError):
    """The table could not start or go on; the message is one line."""


def _journal_path(args: argparse.Namespace) -> str:
    if args.journal:
        return str(args.journal)
    folder = Path("var")
    folder.mkdir(exist_ok=True)
    stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime())
    return str(folder / f"{args.command}-{args.game}-{stamp}.sqlite")


def _profile(game: str, profile_name: str | None) -> Any:
    """The table profile, validated before any device starts."""
    if game == "tiles":
        from ..profiles.tiles import load_tile_profile
        return load_tile_profile(profile_name) if profile_name else load_tile_profile()
    from ..profiles.poker import load_profile
    return load_profile(profile_name) if profile_name else load_profile()


def _engine(journal: Journal, game: str, profile: Any,
            devices: TableDevices) -> OversightEngine[Any]:
    if game == "tiles":
        return TileRound(journal, profile, devices.dice, devices.camera)
    if devices.shuffler is None:
        raise TableCommandError("this table has no card shuffler; it cannot deal poker")
    return PokerRound(journal, profile, devices.shuffler, devices.dice, devices.camera)


def randomness_of(devices: TableDevices, seed: int | None) -> str:
    sources = {str(d.randomness) for d in (devices.shuffler, devices.dice)
               if d is not None and d.randomness is not None}
    if seed is None and sources <= {"secrets"}:
        return "secrets (production draws)"
    where = ", ".join(sorted(sources)) or "devices unknown"
    return f"seeded {seed} (test and replay only; devices: {where})"


class DisplayServer:
    """The dealer display served by uvicorn on a thread, on a socket bound up front;
    ``frames``: the camera's kept frames, which a supervisor opens from a closed round."""

    def __init__(self, table: Any, sock: socket.socket, staff: Staff, *,
                 hosts: tuple[str, ...] = (), tls_options: dict[str, Any] | None = None,
                 frames: Path | None = None) -> None:
        import uvicorn

        from ..display import DisplaySettings, create_app

        tls_options = tls_options or {}
        app = create_app(table, DisplaySettings(staff=staff, hosts=hosts, frames=frames),
                         recover=False)
        self.desk = app.state.desk
        self.socket = sock
        host, port = sock.getsockname()[:2]
        self.url = f"{'https' if tls_options else 'http'}://{host}:{port}/"
        config = uvicorn.Config(app, log_level="warning", timeout_graceful_shutdown=2,
                                **tls_options)
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run,
                                       kwargs={"sockets": [self.socket]},
                                       name="display", daemon=True)

    def start(self) -> None:
        self.thread.start()
        deadline = time.monotonic() + 10
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise TableCommandError(f"the display did not start on {self.url}")
            time.sleep(0.02)
        log.info("dealer display started on %s", self.url)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=5)
        self.socket.close()


def _pin_factory(hardware: Any) -> Any:
    """None for a simulated table (``open_table`` makes a ``MockFactory``), else the machine's
    own gpiozero pin factory; a machine without GPIO is an error naming why."""
    serial = [d for d in (hardware.shuffler, hardware.shaker) if d is not None]
    if all(d.url.startswith("sim://") for d in serial):
        return None
    import warnings

    from gpiozero import Device  # type: ignore[import-untyped]
    from gpiozero.exc import BadPinFactory  # type: ignore[import-untyped]

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # each fallback tried is a warning; the error says all
        try:
            return Device._default_pin_factory()
        except BadPinFactory as err:
            raise TableCommandError(f"table {hardware.name!r} has real devices but this machine "
                                    f"has no GPIO pin factory: {err}") from err


@contextlib.contextmanager
def _stop_on_signals(runner: Loop) -> Iterator[None]:
    """Ctrl-C or SIGTERM asks the runner to stop after the act under way; twice aborts."""
    def handle(signum: int, frame: FrameType | None) -> None:
        if runner.stopping:
            raise KeyboardInterrupt
        print("stopping after the act under way (Ctrl-C again to abort)", flush=True)
        runner.stop()

    old = {s: signal.signal(s, handle) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for s, h in old.items():
            signal.signal(s, h)


def demo_staff() -> tuple[Staff, dict[str, str]]:
    """``paigow demo``'s staff: a dealer and a supervisor with random PINs (and the PINs)."""
    pins = {"demo-dealer": f"{secrets.randbelow(10**6):06d}",
            "demo-supervisor": f"{secrets.randbelow(10**6):06d}"}
    staff = Staff()
    for staff_id, name, role in (("demo-dealer", "Demo Dealer", Role.DEALER),
                                 ("demo-supervisor", "Demo Supervisor", Role.SUPERVISOR)):
        staff = staff.with_member(Member(staff_id, name, role, PinHash.make(pins[staff_id])))
    return staff, pins


def _staff(args: argparse.Namespace, table_name: str) -> Staff:
    """``run``'s staff: ``--staff FILE``, else ``config/staff/TABLE.toml`` when it exists,
    else none (the display is read-only); says which."""
    path = args.staff
    default = config_file(STAFF_DIR, f"{table_name}.toml")
    if path is None and default.exists():
        path = default
    if path is None:
        print(f"no staff file (--staff, or {default}): the display "
              f"is read-only", flush=True)
        return Staff()
    staff = load_staff(path)
    print(f"staff: {len(staff.members)} from {path}", flush=True)
    return staff


class Loop(Protocol):
    """What plays the table once it is open: the simulation's runner (``demo``) or the live
    loop (``run``)."""

    @property
    def stopping(self) -> bool:
        """True once ``stop`` was called."""

    def stop(self) -> None:
        """End after the act under way (thread-safe, safe in a signal handler)."""

    def run(self) -> Summary:
        """Play until done or stopped."""


class Summary(Protocol):
    """How a session ended."""

    halted: str | None

    def text(self) -> str:
        """The session in a few lines."""


OnDuty = Callable[[Role], Who | None]


@dataclass(frozen=True)
class Setup:
    """What differs between ``demo`` and ``run``: the staff, the camera, the loop."""

    staff: Staff
    camera: Callable[[str], LayoutCamera | None]
    """Makes the camera, given the journal's location (a real camera keeps its frames beside
    it)."""
    loop: Callable[[LiveTable, TableDevices, OnDuty | None], Loop]
    demo_pins: Mapping[str, str] = field(default_factory=dict)
    hold_deviations: bool = False
    """A dealer's hand off the house way waits for the supervisor before settlement."""


MakeSetup = Callable[[argparse.Namespace, Any, Any], Setup]
"""(args, the table's hardware, the profile) -> the demo's or run's ``Setup``."""


def play(args: argparse.Namespace, table_file: str | Path, make_setup: MakeSetup) -> int:
    """Open the table ``table_file`` names, serve the display, play with ``make_setup``'s
    loop until done or stopped, and end with a summary."""
    from ..display.table import Table
    from ..live import Table as LiveTable
    from ..table import open_table, read_hardware

    tls_options = tls(args)  # a bad certificate stops here, before any device starts
    profile = _profile(args.game, args.profile)  # validated before any device starts
    hardware = read_hardware(table_file)  # a bad table file stops here, naming the key
    # Bound once, here: a port in use stops the start before any device starts, and nothing
    # can take the port between this check and the display's start.
    sock = None if args.no_display else listening_socket(args.host, args.port, PORT_HINT)
    pins = _pin_factory(hardware)  # a machine without GPIO for real devices: here
    setup = make_setup(args, hardware, profile)  # a bad staff file stops here too
    recorder = _recorder(args, table_file)  # a folder already recorded stops here
    where = str(recorder.journal) if recorder is not None and not args.journal \
        else _journal_path(args)
    log_beside(args, where)  # a table's log file beside its journal, unless --log-file says
    try:  # the only writer of its journal, keyed (demo makes PATH.key when no key is given)
        journal = open_writer(where, args, f"paigow {args.command}",
                              make_key=args.command == "demo")
    except JournalCommandError as err:
        raise TableCommandError(str(err)) from err
    display: DisplayServer | None = None
    try:
        with open_table(hardware, args.game, seed=args.seed, pin_factory=pins,
                        camera=lambda: setup.camera(where), recorder=recorder) as devices:
            engine = _engine(journal, args.game, profile, devices)
            engine.hold_deviations = setup.hold_deviations
            table = LiveTable(engine) if sock is None else Table(engine)
            print(f"table {hardware.name} ({args.game}, profile {engine.game.profile}, house way "
                  f"{engine.game.way}); journal {journal.where}; draws: "
                  f"{randomness_of(devices, args.seed)}", flush=True)
            on_duty: OnDuty | None = None
            if sock is not None:
                display = DisplayServer(table, sock, setup.staff,
                                   hosts=served_hosts(args), tls_options=tls_options,
                                   frames=frames_beside(where))
                display.start()
                print(f"dealer display: {display.url}", flush=True)
                for member in setup.staff.members.values():  # paigow demo: signed in
                    if member.id in setup.demo_pins:
                        print(f"  {member.role.value} {member.id} (PIN "
                              f"{setup.demo_pins[member.id]}) token: "
                              f"{display.desk.open(member)}", flush=True)
                on_duty = display.desk.on_duty  # acts journaled as who is signed in
            loop = setup.loop(table, devices, on_duty)
            if recorder is not None:
                _record_inputs(recorder, table, loop)
                print(f"recording to {recorder.folder}", flush=True)
            print("Ctrl-C stops (the open round is voided)"
                  + ("" if args.rounds is None else f"; {args.rounds} round(s) to play"),
                  flush=True)
            with _stop_on_signals(loop):
                summary = loop.run()
                print(summary.text(), flush=True)
                print(f"journal: {journal.where} (check: paigow journal verify {where})",
                      flush=True)
                if summary.halted:
                    print(f"paigow: the table halted: {summary.halted}", file=sys.stderr)
                    return 1
                if display is not None and args.linger and not loop.stopping:
                    print(f"display stays up on {display.url}; Ctrl-C ends", flush=True)
                    while not loop.stopping:
                        time.sleep(0.1)
    except KeyboardInterrupt:  # a second Ctrl-C, or one during start-up
        print("paigow: interrupted", file=sys.stderr)
        return 130
    finally:
        if display is not None:
            display.stop()
        elif sock is not None:
            sock.close()
        journal.close()
        if recorder is not None:
            recorder.close()
    return 0


def _recorder(args: argparse.Namespace, table_file: str | Path) -> SessionRecorder | None:
    """The session's recorder when ``--record DIR`` is given; kept as ``args.recording`` for
    the camera factory (``_live_setup``), called later, which records the camera's frames."""
    folder = getattr(args, "record", None)
    if folder is None:
        return None
    from ..table.recording import SessionRecorder

    recorder = SessionRecorder(folder, game=args.game, table=str(table_file), seed=args.seed)
    args.recording = recorder
    return recorder


def _record_inputs(recorder: SessionRecorder, table: LiveTable, loop: Loop) -> None:
    """Every act and note asked of the table, and every panel press, into the recording's
    inputs; the loop's own acts (on its thread) are marked as the loop's."""
    from ..table.live import LiveLoop
    from ..table.recording import record_inputs

    if not isinstance(loop, LiveLoop):
        raise UsageError("only the live table (paigow run) is recorded")
    record_inputs(recorder, table, loop)


def frames_beside(journal: str) -> Path:
    """Where a table's camera keeps the frames it read: beside a SQLite journal, else under
    ``./var/``."""
    if "://" in journal:
        return Path("var") / "frames"
    path = Path(journal)
    return path.with_name(f"{path.stem}-frames")


def _live_setup(args: argparse.Namespace, hardware: Any, profile: Any) -> Setup:
    """``run``: the staff from its file, the table's camera (its ``[camera]`` section; none:
    the dealer keys every setting), the live loop."""
    from ..table.camera_config import table_camera
    from ..table.felt_camera import FeltCamera
    from ..table.live import LiveLoop

    config = table_camera(args.table)  # a bad [camera] stops here, naming the key

    staff = _staff(args, hardware.name)
    if args.no_display:
        raise UsageError("paigow run needs the dealer display: the dealer signs in and bets "
                         "are keyed there (drop --no-display)")

    def loop(table: LiveTable, devices: TableDevices, on_duty: OnDuty | None) -> Loop:
        assert on_duty is not None
        return LiveLoop(table, devices, on_duty=on_duty, rounds=args.rounds,
                        out=lambda line: print(line, flush=True))

    def camera(journal: str) -> LayoutCamera | None:
        if config is None:
            return None
        made = FeltCamera(config, args.game, frames_beside(journal))
        recording: SessionRecorder | None = getattr(args, "recording", None)
        if recording is not None:  # every frame it takes into the recording
            made.tap = recording.camera(config)
        return made

    return Setup(staff, camera, loop, hold_deviations=True)


def cmd_run(args: argparse.Namespace) -> int:
    """Run the physical table a table file names: people play, the loop deals and reads."""
    return play(args, args.table, _live_setup)


def table_options(p: argparse.ArgumentParser) -> None:
    """The options ``run`` and ``demo`` share: game, rounds, journal, display, seed, profile."""
    p.add_argument("--game", choices=("poker", "tiles"), default="poker")
    p.add_argument("--rounds", type=number_in("rounds", int, 1), metavar="N",
                   help="stop after N rounds (default: until Ctrl-C)")
    p.add_argument("--journal", metavar="PATH",
                   help="SQLite file or postgresql://USER@HOST/DB (default: a new file "
                        "under ./var/)")
    add_key_option(p, writer=True)
    p.add_argument("--no-display", action="store_true", help="do not serve the dealer display")
    p.add_argument("--host", default="127.0.0.1", help="the display's address")
    p.add_argument("--port", type=number_in("port", int, 0, 65535), default=8000,
                   help="the display's port (0: any free)")
    add_serving_options(p)
    p.add_argument("--linger", action="store_true",
                   help="keep the display up after the last round, until Ctrl-C")
    p.add_argument("--seed", type=int, help="seeded draws for a repeatable run (test, replay)")
    p.add_argument("--profile", metavar="NAME",
                   help="table profile (default: classic, or tiles-classic for --game tiles)")


def add_parsers(subparsers: Any) -> None:
    """Register ``run`` on an ``add_subparsers()`` object (``demo``: ``commands.demo``)."""
    p = subparsers.add_parser("run", help="the physical table a table file names: the dealer "
                                          "and the supervisor play it from the panel and the "
                                          "display")
    p.add_argument("--table", required=True, metavar="FILE",
                   help="the table's hardware file, e.g. config/tables/NAME.toml")
    p.add_argument("--record", metavar="DIR",
                   help="record the session into DIR (a new folder): the device lines' bytes, "
                        "the people's inputs and the journal (docs/recordings.md)")
    p.add_argument("--staff", metavar="FILE",
                   help="who may sign in at the display (default: config/staff/NAME.toml "
                        "for table NAME if it exists, else nobody: read-only)")
    table_options(p)
    p.set_defaults(handler=cmd_run)


def main(argv: list[str] | None = None) -> int:
    """Run these commands alone (``python -m controller.commands.table``)."""
    return run_alone(add_parsers, argv)


if __name__ == "__main__":
    raise SystemExit(main())
