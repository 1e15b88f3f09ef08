"""``paigow demo``'s setup: the simulated players and dealer, the camera that renders what it
is told, and the simulation's table loop (``controller.simulation``), on the simulated table.

Apart from ``commands.table`` so that the product's command, ``paigow run``, imports no
simulation (``tests/test_layers.py``); ``commands.table.play`` runs the table either way.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..config.locations import config_file

if TYPE_CHECKING:  # the table pulls in vision: loaded when the demo runs
    from ..live import Table
    from ..table import TableDevices
from .common import UsageError, listening_socket, number_in, run_alone
from .journal import JournalCommandError, open_reader
from .serving import served_hosts, tls
from .table import (
    PORT_HINT,
    SIM_TABLE,
    DisplayServer,
    Loop,
    OnDuty,
    Setup,
    TableCommandError,
    demo_staff,
    play,
    randomness_of,
    table_options,
)

DISPLAY_PACE = 0.4
"""Seconds between acts when the display is on, so a viewer can follow the round."""
RATE = number_in("rate", float, 0.0, 1.0)


def demo_setup(args: argparse.Namespace, hardware: Any, profile: Any) -> Setup:
    """The demo's staff (made up, signed in), the rendering camera and the simulated people."""
    from ..simulation.camera import VisionCameraPort
    from ..simulation.players import (
        Habits,
        HabitsError,
        PokerSetter,
        SimDealer,
        SimPlayers,
        TileSetter,
        make_rng,
    )
    from ..simulation.runner import RunnerSettings, TableRunner

    try:
        habits = Habits(args.other_rate, args.foul_rate, args.deviation_rate, args.vacancy_rate)
    except HabitsError as err:
        raise UsageError(str(err)) from err
    settings = RunnerSettings(args.rounds, args.pace if args.pace is not None
                              else (0.0 if args.no_display else DISPLAY_PACE),
                              args.fault_rate, args.entry_error_rate)
    setter = TileSetter(profile) if args.game == "tiles" else PokerSetter(profile)
    staff, pins = demo_staff()

    def camera(journal: str) -> VisionCameraPort:
        return VisionCameraPort.for_game(args.game, seed=args.seed)

    def loop(table: Table, devices: TableDevices, on_duty: OnDuty | None) -> Loop:
        rng = make_rng(args.seed)
        players = SimPlayers(setter, profile.settlement.limits, habits, rng)
        return TableRunner(table, devices, players, SimDealer(setter, habits, rng), settings,
                           randomness=randomness_of(devices, args.seed),
                           out=lambda line: print(line, flush=True), on_duty=on_duty)

    return Setup(staff, camera, loop, pins)


def cmd_demo(args: argparse.Namespace) -> int:
    """Play on the simulated table, with simulated players and dealer; or, with
    ``--recording DIR``, play a recorded session on the display."""
    if args.recording is not None:
        return play_recording(args, Path(args.recording))
    return play(args, config_file(*SIM_TABLE), demo_setup)


def play_recording(args: argparse.Namespace, folder: Path) -> int:
    """Replay the session recorded in ``folder`` (``paigow sim record``, ``paigow run
    --record``) through the live table's code with the dealer display served, each input at
    its recorded time divided by ``--speed``; the replay's check is said at the end (exit 1
    on a difference, as ``paigow replay DIR``)."""
    from ..display.table import Table
    from ..replay.recording import RecordingError, read_header, replay_recording
    from ..staff import Staff

    if args.speed <= 0:
        raise UsageError(f"--speed {args.speed!r}: must be above 0")
    tls_options = tls(args)
    try:
        header = read_header(folder)
        journal = open_reader(str(folder / "journal.sqlite"), args.key_file)
    except (RecordingError, JournalCommandError) as err:
        raise TableCommandError(str(err)) from err
    sock = None if args.no_display else listening_socket(args.host, args.port, PORT_HINT)
    # Nobody signs in: a sign-in is journaled, and the replay's journal must stay the
    # recorded one; the display shows the public view, as the table has shown it.
    staff = Staff()
    served: list[DisplayServer] = []

    def make_table(engine: Any) -> Table:
        table = Table(engine)
        if sock is not None:
            display = DisplayServer(table, sock, staff, hosts=served_hosts(args),
                                    tls_options=tls_options)
            display.start()
            served.append(display)
            print(f"dealer display (public view): {display.url}", flush=True)
        return table

    began = time.monotonic()
    first: list[float] = []

    def pace(t: float) -> None:
        if not first:
            first.append(t)
        wait = began + (t - first[0]) / args.speed - time.monotonic()
        if wait > 0:
            time.sleep(wait)

    print(f"playing {folder} ({header['game']}, recorded {header.get('started')}) at "
          f"{args.speed:g}x", flush=True)
    try:
        try:
            result = replay_recording(folder, journal, make_table=make_table, pace=pace)
        except RecordingError as err:
            raise TableCommandError(str(err)) from err
        line = result.to_json()
        print(json.dumps(line, sort_keys=True) if args.json else
              f"{result.rounds} round(s) played; differences from the recording: "
              f"{len(result.differences)}", flush=True)
        if served and args.linger:
            print(f"display stays up on {served[0].url}; Ctrl-C ends", flush=True)
            while True:
                time.sleep(0.1)
    except KeyboardInterrupt:
        return 130
    finally:
        journal.close()
        for display in served:
            display.stop()
        if sock is not None and not served:
            sock.close()
    return 0 if result.ok else 1


def _demo_options(p: argparse.ArgumentParser) -> None:
    """The simulated people's habits and the demo's pace."""
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
    p.add_argument("--recording", metavar="DIR",
                   help="play a recorded session (paigow sim record, paigow run --record) on "
                        "the display instead of the simulated people")
    p.add_argument("--speed", type=float, default=1.0, metavar="X",
                   help="with --recording: times the recorded pace (default 1)")
    p.add_argument("--json", action="store_true",
                   help="with --recording: the replay's check as one JSON object at the end")


def add_parsers(subparsers: Any) -> None:
    """Register ``demo`` on an ``add_subparsers()`` object."""
    p = subparsers.add_parser("demo", help="the simulated table playing rounds, with the "
                                           "dealer display")
    table_options(p)
    _demo_options(p)
    p.set_defaults(handler=cmd_demo)


def main(argv: list[str] | None = None) -> int:
    """Run this command alone (``python -m controller.commands.demo``)."""
    return run_alone(add_parsers, argv)


if __name__ == "__main__":
    raise SystemExit(main())


__all__ = ["add_parsers", "cmd_demo", "demo_setup"]
