"""``paigow demo`` and ``paigow run``: the whole table, playing rounds with the display on.

``demo`` plays on the simulated table (``config/tables/sim-table.toml``: simulators as their own
processes over pseudo-terminals, gpiozero mock pins, a camera reading rendered frames); ``run
--table FILE`` on the devices that file names.  Both journal to SQLite (or PostgreSQL), serve
the dealer display in the same process unless ``--no-display``, play until ``--rounds`` are
done or Ctrl-C, and end with a summary.  ``add_parsers(subparsers)`` registers both.
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
from collections.abc import Iterator
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Any

from ..config.locations import config_file
from ..errors import ControllerError
from ..journal import Journal, Role
from ..round import PokerRound, TileRound
from ..round.oversight import OversightEngine
from ..staff import Member, PinHash, Staff, load_staff
from .common import UsageError, listening_socket, number_in, run_alone
from .journal import JournalCommandError, add_key_option, open_writer
from .serving import add_serving_options, served_hosts, tls
from .startup import log_beside

if TYPE_CHECKING:  # the table pulls in vision and the display: loaded by these commands only
    from ..table.people import Setter
    from ..table.runner import Devices, TableRunner

log = logging.getLogger(__name__)

SIM_TABLE = ("tables", "sim-table.toml")
"""The simulated table's hardware file (``paigow demo``) among the config folders."""

STAFF_DIR = "staff"
"""The config subfolder where ``paigow run`` looks for a table's staff file (``NAME.toml``)."""

DISPLAY_PACE = 0.4
"""Seconds between acts when the display is on, so a viewer can follow the round."""


RATE = number_in("rate", float, 0.0, 1.0)
_PORT_HINT = "; pass --port or --no-display"


class TableCommandError(ControllerError):
    """The table could not start or go on; the message is one line."""


def _journal_path(args: argparse.Namespace) -> str:
    if args.journal:
        return str(args.journal)
    folder = Path("var")
    folder.mkdir(exist_ok=True)
    stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime())
    return str(folder / f"{args.command}-{args.game}-{stamp}.sqlite")


def _rules(game: str, profile_name: str | None) -> tuple[Any, Setter]:
    """The table profile (validated before any device starts) and its settings of hands."""
    from ..simulation.players import PokerSetter, TileSetter

    if game == "tiles":
        from ..profiles.tiles import load_tile_profile
        tile_profile = load_tile_profile(profile_name) if profile_name else load_tile_profile()
        return tile_profile, TileSetter(tile_profile)
    from ..profiles.poker import load_profile
    profile = load_profile(profile_name) if profile_name else load_profile()
    return profile, PokerSetter(profile)


def _engine(journal: Journal, game: str, profile: Any,
            devices: Devices) -> OversightEngine[Any]:
    if game == "tiles":
        return TileRound(journal, profile, devices.dice, devices.camera)
    if devices.shuffler is None:
        raise TableCommandError("this table has no card shuffler; it cannot deal poker")
    return PokerRound(journal, profile, devices.shuffler, devices.dice, devices.camera)


def _randomness(devices: Devices, seed: int | None) -> str:
    sources = {str(d.randomness) for d in (devices.shuffler, devices.dice)
               if d is not None and d.randomness is not None}
    if seed is None and sources <= {"secrets"}:
        return "secrets (production draws)"
    where = ", ".join(sorted(sources)) or "devices unknown"
    return f"seeded {seed} (test and replay only; devices: {where})"


class _Display:
    """The dealer display served by uvicorn on a thread, on a socket bound up front."""

    def __init__(self, table: Any, sock: socket.socket, staff: Staff, *,
                 hosts: tuple[str, ...] = (), tls_options: dict[str, Any] | None = None) -> None:
        import uvicorn

        from ..display import DisplaySettings, create_app

        tls_options = tls_options or {}
        app = create_app(table, DisplaySettings(staff=staff, hosts=hosts), recover=False)
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
def _stop_on_signals(runner: TableRunner) -> Iterator[None]:
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


def _play(args: argparse.Namespace, table_file: str | Path) -> int:
    from ..display.table import Table
    from ..live import Table as LiveTable

    # The simulated people and camera: here and in _rules, which build the demo's and run's
    # table, are the only places of the real path that import the simulation, until run has
    # people at the display and a camera on the felt (tests/test_layers.py).
    from ..simulation.players import Habits, HabitsError, SimDealer, SimPlayers, make_rng
    from ..simulation.table import open_simulated_table
    from ..table import read_hardware
    from ..table.runner import RunnerError, RunnerSettings, TableRunner

    try:
        habits = Habits(args.other_rate, args.foul_rate, args.deviation_rate, args.vacancy_rate)
    except HabitsError as err:
        raise UsageError(str(err)) from err
    tls_options = tls(args)  # a bad certificate stops here, before any device starts
    profile, setter = _rules(args.game, args.profile)
    hardware = read_hardware(table_file)  # a bad table file stops here, naming the key
    # Bound once, here: a port in use stops the start before any device starts, and nothing
    # can take the port between this check and the display's start.
    sock = None if args.no_display else listening_socket(args.host, args.port, _PORT_HINT)
    demo_pins: dict[str, str] = {}
    if args.command == "demo":
        staff, demo_pins = demo_staff()
    else:
        staff = _staff(args, hardware.name)  # a bad staff file stops here too
    pins = _pin_factory(hardware)
    settings = RunnerSettings(args.rounds, args.pace if args.pace is not None
                              else (0.0 if args.no_display else DISPLAY_PACE),
                              args.fault_rate, args.entry_error_rate)
    where = _journal_path(args)
    log_beside(args, where)  # a table's log file beside its journal, unless --log-file says
    try:  # the only writer of its journal, keyed (demo makes PATH.key when no key is given)
        journal = open_writer(where, args, f"paigow {args.command}",
                              make_key=args.command == "demo")
    except JournalCommandError as err:
        raise TableCommandError(str(err)) from err
    display: _Display | None = None
    try:
        with open_simulated_table(hardware, args.game, seed=args.seed,
                                  pin_factory=pins) as devices:
            engine = _engine(journal, args.game, profile, devices)
            table = LiveTable(engine) if sock is None else Table(engine)
            rng = make_rng(args.seed)
            players = SimPlayers(setter, profile.settlement.limits, habits, rng)
            runner = TableRunner(table, devices, players, SimDealer(setter, habits, rng), settings,
                                 randomness=_randomness(devices, args.seed),
                                 out=lambda line: print(line, flush=True))
            print(f"table {hardware.name} ({args.game}, profile {engine.game.profile}, house way "
                  f"{engine.game.way}); journal {journal.where}", flush=True)
            if sock is not None:
                display = _Display(table, sock, staff,
                                   hosts=served_hosts(args), tls_options=tls_options)
                display.start()
                print(f"dealer display: {display.url}", flush=True)
                if demo_pins:  # paigow demo only: its made-up staff, signed in
                    for member in staff.members.values():
                        print(f"  {member.role.value} {member.id} (PIN {demo_pins[member.id]}) "
                              f"token: {display.desk.open(member)}", flush=True)
                runner.on_duty = display.desk.on_duty  # acts journaled as who is signed in
            print("Ctrl-C stops (the open round is voided)"
                  + ("" if args.rounds is None else f"; {args.rounds} round(s) to play"),
                  flush=True)
            with _stop_on_signals(runner):
                summary = runner.run()
                print(summary.text(), flush=True)
                print(f"journal: {journal.where} (check: paigow journal verify {where})",
                      flush=True)
                if summary.halted:
                    print(f"paigow: the table halted: {summary.halted}", file=sys.stderr)
                    return 1
                if display is not None and args.linger and not runner.stopping:
                    print(f"display stays up on {display.url}; Ctrl-C ends", flush=True)
                    while not runner.stopping:
                        time.sleep(0.1)
    except RunnerError as err:
        raise TableCommandError(str(err)) from err
    except KeyboardInterrupt:  # a second Ctrl-C, or one during start-up
        print("paigow: interrupted", file=sys.stderr)
        return 130
    finally:
        if display is not None:
            display.stop()
        elif sock is not None:
            sock.close()
        journal.close()
    return 0


def cmd_demo(args: argparse.Namespace) -> int:
    """Play on the simulated table."""
    return _play(args, config_file(*SIM_TABLE))


def cmd_run(args: argparse.Namespace) -> int:
    """Play on the devices a table file names."""
    return _play(args, args.table)


def _options(p: argparse.ArgumentParser) -> None:
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
    p.add_argument("--deviation-rate", type=RATE, default=0.1, metavar="R",
                   help="how often the dealer strays from the house way (0..1, default 0.1)")
    p.add_argument("--other-rate", type=RATE, default=0.15, metavar="R",
                   help="how often a player sets another legal way (default 0.15)")
    p.add_argument("--foul-rate", type=RATE, default=0.03, metavar="R",
                   help="how often a player fouls (default 0.03)")
    p.add_argument("--vacancy-rate", type=RATE, default=0.2, metavar="R",
                   help="how often a position sits out a round (default 0.2)")
    p.add_argument("--entry-error-rate", type=RATE, default=0.03, metavar="R",
                   help="how often the dealer keys in a setting the camera then disputes")
    p.add_argument("--fault-rate", type=RATE, default=0.0, metavar="R",
                   help="how often a round starts with a device fault injected (default 0)")
    p.add_argument("--pace", type=float, metavar="SECONDS",
                   help=f"pause between acts (default {DISPLAY_PACE} with the display, "
                        f"else 0)")


def add_parsers(subparsers: Any) -> None:
    """Register ``demo`` and ``run`` on an ``add_subparsers()`` object."""
    p = subparsers.add_parser("demo", help="the simulated table playing rounds, with the "
                                           "dealer display")
    _options(p)
    p.set_defaults(handler=cmd_demo)
    p = subparsers.add_parser("run", help="the table on the devices a table file names")
    p.add_argument("--table", required=True, metavar="FILE",
                   help="the table's hardware file, e.g. config/tables/NAME.toml")
    p.add_argument("--staff", metavar="FILE",
                   help="who may sign in at the display (default: config/staff/NAME.toml "
                        "for table NAME if it exists, else nobody: read-only)")
    _options(p)
    p.set_defaults(handler=cmd_run)


def main(argv: list[str] | None = None) -> int:
    """Run these commands alone (``python -m controller.commands.table``)."""
    return run_alone(add_parsers, argv)


if __name__ == "__main__":
    raise SystemExit(main())
