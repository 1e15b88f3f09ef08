"""``paigow demo``'s setup: the simulated players and dealer, the camera that renders what it
is told, and the simulation's table loop (``controller.simulation``), on the simulated table.

Apart from ``commands.table`` so that the product's command, ``paigow run``, imports no
simulation (``tests/test_layers.py``); ``commands.table.play`` runs the table either way.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from ..config.locations import config_file

if TYPE_CHECKING:  # the table pulls in vision: loaded when the demo runs
    from ..live import Table
    from ..table import TableDevices
from .common import UsageError, number_in, run_alone
from .table import SIM_TABLE, Loop, OnDuty, Setup, demo_staff, play, randomness_of, table_options

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
    """Play on the simulated table, with simulated players and dealer."""
    return play(args, config_file(*SIM_TABLE), demo_setup)


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
