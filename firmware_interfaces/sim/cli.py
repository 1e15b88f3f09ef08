"""The simulator's command line, shared by ``python -m firmware_interfaces.sim`` and ``paigow sim``.

The first line on standard output is where to open the device (a pty path or a
``socket://`` URL); everything else goes to standard error.
"""

from __future__ import annotations

import argparse
import errno
import logging
import signal
import sys
from types import FrameType

from ..device_keys import read_key_file
from .base import SimDevice
from .channels import Listener, PtyListener, TcpListener
from .link import DeviceLink, LinkFaults
from .parent import watch_parent
from .runner import Runner
from .shaker import ShakerFaults, ShakerSim
from .shuffler import ShufflerFaults, ShufflerSim

_SHUFFLER_ONLY = ("jam_after", "duplicate", "foreign", "no_read")
_SHAKER_ONLY = ("cocked", "unchanged", "weak", "lid_open")


def tcp_address(text: str) -> str:
    """An argparse type: ``HOST:PORT`` with a port from 0 (any free) to 65535."""
    _, sep, port = text.rpartition(":")
    if not sep or not port.isascii() or not port.isdigit() or int(port) > 65535:
        raise argparse.ArgumentTypeError(f"{text!r} is not HOST:PORT with a port from 0 to "
                                         f"65535")
    return text


def add_arguments(parser: argparse.ArgumentParser, device: str | None = None) -> None:
    """Add the simulator's arguments and fault options to ``parser``: the device as the
    first argument, or ``device`` fixed (a parser of its own, as ``paigow sim shuffler``)."""
    if device is None:
        parser.add_argument("device", choices=["shuffler", "shaker"])
    else:
        parser.set_defaults(device=device)
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--pty", action="store_true", help="open a pseudo-terminal (default)")
    where.add_argument("--tcp", metavar="HOST:PORT", type=tcp_address,
                       help="listen on TCP (port 0: any free)")
    parser.add_argument("--link", metavar="PATH", help="with --pty: the stable symlink to make")
    parser.add_argument("--seed", type=int, help="repeatable run (default: secrets)")
    parser.add_argument("--serial", help="serial number to report")
    parser.add_argument("--key-file", metavar="PATH",
                        help="the hello key (hex, mode 600): answer the host's challenge")
    parser.add_argument("-v", "--verbose", action="store_true", help="log requests to stderr")
    parser.add_argument("--parent-pid", type=int, metavar="PID",
                        help="end when process PID (the controller that started it) ends")
    line = parser.add_argument_group("line faults")
    line.add_argument("--garbage", type=float, default=0.0, metavar="RATIO",
                      help="share of frames preceded by noise (half as many damaged)")
    line.add_argument("--slow", type=float, default=0.0, metavar="SECONDS",
                      help="delay before each answer (after the ACK)")
    line.add_argument("--silent-after", type=int, metavar="N",
                      help="answer N requests, then nothing (0: a dead device)")
    line.add_argument("--drop-after", type=int, metavar="N",
                      help="drop the line after answering N requests (once)")
    line.add_argument("--door-open", action="store_true", help="start with the door open")
    hostile = parser.add_argument_group("hostile devices (a host must end every call anyway)")
    hostile.add_argument("--ack-forever", action="store_true",
                         help="ACK each request again and again, never reply")
    hostile.add_argument("--never-reply", action="store_true",
                         help="ACK each request once, never reply")
    hostile.add_argument("--drip", type=float, default=0.0, metavar="SECONDS",
                         help="send every byte alone, SECONDS apart")
    hostile.add_argument("--storm", action="store_true",
                         help="flood the line with valid frames and noise, answer nothing")
    cards = parser.add_argument_group("shuffler faults")
    cards.add_argument("--jam-after", type=int, metavar="N", help="jam after N packets (once)")
    cards.add_argument("--cards", type=int, default=53, choices=[52, 53, 54])
    cards.add_argument("--duplicate", metavar="CARD", help="a second copy of CARD replaces one")
    cards.add_argument("--foreign", action="store_true", help="a foreign card replaces one")
    cards.add_argument("--no-read", action="store_true", help="a model that does not read cards")
    dice = parser.add_argument_group("shaker faults")
    dice.add_argument("--cocked", type=int, default=0, metavar="N", help="next N shakes cocked")
    dice.add_argument("--unchanged", type=int, default=0, metavar="N",
                      help="next N shakes leave the dice unchanged")
    dice.add_argument("--weak", type=int, default=0, metavar="N", help="next N shakes weak")
    dice.add_argument("--lid-open", action="store_true", help="start with the lid open")


def build_device(args: argparse.Namespace) -> SimDevice:
    """The simulated device the arguments describe; ``ValueError`` naming a bad option."""
    wrong = _SHAKER_ONLY if args.device == "shuffler" else _SHUFFLER_ONLY
    for name in wrong:
        if getattr(args, name) not in (None, False, 0):
            flag = "--" + name.replace("_", "-")
            raise ValueError(f"{flag} is not an option of the {args.device} simulator")
    device: SimDevice
    if args.device == "shuffler":
        faults = ShufflerFaults(args.jam_after, args.cards, args.duplicate, args.foreign)
        device = ShufflerSim(args.seed, faults, not args.no_read, args.serial)
    else:
        if args.cards != 53:
            raise ValueError("--cards is not an option of the shaker simulator")
        device = ShakerSim(args.seed, ShakerFaults(args.cocked, args.unchanged, args.weak),
                           args.serial)
        device.set_lid(args.lid_open)
    device.set_door(args.door_open)
    if args.key_file is not None:
        device.key = read_key_file(args.key_file)
    return device


def build_listener(args: argparse.Namespace) -> Listener:
    """A pty (default) or a TCP listener."""
    if args.tcp:
        host, sep, port = args.tcp.rpartition(":")
        if not sep or not port.isdigit():
            raise ValueError(f"--tcp {args.tcp!r}: expected HOST:PORT")
        try:
            return TcpListener(host or "127.0.0.1", int(port))
        except OSError as err:
            if err.errno == errno.EADDRINUSE:  # one line, not the socket module's wording
                raise ValueError(f"port {port} on {host or '127.0.0.1'} is in use") from None
            raise
    return PtyListener(args.link)


def build(args: argparse.Namespace) -> Runner:
    """The runner for ``args``; ``ValueError`` (or ``OSError``) with a one-line reason."""
    device = build_device(args)
    faults = LinkFaults(args.garbage, args.slow, args.silent_after, args.drop_after,
                        args.ack_forever, args.never_reply, args.drip, args.storm)
    return Runner(DeviceLink(device, faults), build_listener(args))


def run(args: argparse.Namespace) -> int:
    """Run the simulator until SIGINT or SIGTERM; print where to open it first."""
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING,
                        format="%(name)s: %(message)s", stream=sys.stderr)
    runner = build(args)

    def stop(signum: int, frame: FrameType | None) -> None:
        runner.stop_event.set()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    if args.parent_pid is not None:
        watch_parent(args.parent_pid, runner.stop_event)
    ident = runner.link.device.ident
    print(runner.url, flush=True)
    randomness = f"seeded (seed {ident.seed})" if ident.seed is not None else "secrets"
    print(f"{ident.device} {ident.model} {ident.serial} fw {ident.fw}, randomness {randomness}, "
          f"on {runner.url}", file=sys.stderr, flush=True)
    runner.run()
    return 0
