"""``paigow sim`` and ``paigow devices probe``: run a simulated device, or ask a line who answers.

``add_parsers(subparsers)`` registers both; each parser's ``handler(args) -> int`` raises
``DeviceCommandError`` (a ``ControllerError``) with a one-line reason on failure.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
from collections.abc import Sequence
from typing import Any

from firmware_interfaces.device_keys import read_key_file
from firmware_interfaces.errors import DeviceError
from firmware_interfaces.probe import ProbeReport, probe
from firmware_interfaces.protocol.records import Record
from firmware_interfaces.serial_driver import Timing
from firmware_interfaces.sim import cli as sim_cli

from ..errors import ControllerError
from .common import run_alone


class DeviceCommandError(ControllerError):
    """A device command that could not be done; the message is one line."""


def cmd_sim(args: argparse.Namespace) -> int:
    """Run a simulated shuffler or shaker until interrupted."""
    try:
        return sim_cli.run(args)
    except (ValueError, OSError) as err:
        raise DeviceCommandError(f"sim {args.device}: {err}") from err


def _fields(record: Record) -> dict[str, Any]:
    return {"message": record.NAME, **dataclasses.asdict(record)}


def report_json(url: str, report: ProbeReport) -> dict[str, Any]:
    """The probe's findings as a JSON object."""
    return {
        "url": url,
        "hello": _fields(report.hello),
        "status": None if report.status is None else _fields(report.status),
        "line": dataclasses.asdict(report.stats),
    }


def report_text(url: str, report: ProbeReport) -> str:
    """The probe's findings for a technician at the table."""
    h = report.hello
    randomness = "secrets" if h.rng == "secrets" else f"{h.rng} (seed {h.seed})"
    rows = [
        ("url", url), ("device", h.device), ("model", h.model), ("serial", h.serial),
        ("protocol", str(h.proto)), ("firmware", h.fw), ("hash", h.fw_hash),
        ("random", randomness), ("caps", ",".join(h.caps) or "-"),
        ("identity", "checked" if report.keyed else "not checked (no --key-file)"),
        ("status", "unknown device kind" if report.status is None else str(report.status)),
    ]
    return "\n".join(f"{name:<9}{value}" for name, value in rows)


def cmd_probe(args: argparse.Namespace) -> int:
    """Connect to a device, print its hello and status."""
    if args.timeout <= 0:
        raise DeviceCommandError(f"--timeout {args.timeout!r}: must be > 0 seconds")
    timing = Timing(ack_timeout=args.timeout, reply_timeout=args.timeout * 4, retries=2)
    try:
        key_file = getattr(args, "key_file", None)
        key = None if key_file is None else read_key_file(key_file)
        report = probe(args.url, timing, key)
    except DeviceError as err:
        raise DeviceCommandError(f"cannot probe {args.url}: {err}") from err
    if args.json:
        print(json.dumps(report_json(args.url, report)))
    else:
        print(report_text(args.url, report))
    return 0


def add_parsers(subparsers: Any) -> None:
    """Register ``sim`` (a device simulator, or ``sim record``: a synthetic recording) and
    ``devices probe`` on a parser's ``add_subparsers()`` object."""
    from . import synthetic

    sim = subparsers.add_parser("sim", help="run a simulated shuffler or shaker, or record a "
                                            "synthetic session")
    what = sim.add_subparsers(dest="sim_command", required=True, metavar="WHAT")
    for device in ("shuffler", "shaker"):
        p = what.add_parser(device, help=f"a simulated {device} in this process, on a pty or "
                                         f"TCP")
        sim_cli.add_arguments(p, device)
        p.set_defaults(handler=cmd_sim)
    synthetic.add_parser(what)

    devices = subparsers.add_parser("devices", help="serial devices")
    sub = devices.add_subparsers(dest="devices_command", required=True, metavar="COMMAND")
    p = sub.add_parser("probe", help="print a device's hello and status")
    p.add_argument("url", metavar="URL", help="pyserial URL: /dev/ttyUSB0, a pty, socket://H:P")
    p.add_argument("--json", action="store_true", help="one JSON object")
    p.add_argument("--timeout", type=float, default=0.5, help="seconds per try (3 tries)")
    p.add_argument("--key-file", metavar="PATH",
                   help="the device's hello key: refuse a hello that does not answer with it")
    p.set_defaults(handler=cmd_probe)


def main(argv: Sequence[str] | None = None) -> int:
    """Run these subcommands alone (``python -m controller.commands.devices``)."""
    return run_alone(add_parsers, argv)


if __name__ == "__main__":
    raise SystemExit(main())
