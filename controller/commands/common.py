"""What the command modules share: the one-line usage error, reading hands from files, a
server's socket bound up front, and running one command module alone (``python -m
controller.commands.NAME``)."""

from __future__ import annotations

import argparse
import errno
import socket
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar

from ..config.files import read_text
from ..errors import UsageError as UsageError  # where the command modules have always found it
from .startup import add_logging_options, run_handler, start_process

N = TypeVar("N", int, float)


def read_lines(path: str) -> Iterator[tuple[int, str]]:
    """Non-blank, non-comment lines of a file (``-`` for standard input), numbered."""
    text = read_text(path, "hand file")
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.split("#", 1)[0].strip()
        if stripped:
            yield number, stripped


def compare_pairs(args: argparse.Namespace, example: str) -> list[tuple[str, str, str]]:
    """(where, player text, banker text) from the command line or the lines of --file."""
    if args.file:
        pairs = []
        for n, line in read_lines(args.file):
            parts = line.split("|")
            if len(parts) != 2:
                raise UsageError(f"{args.file}:{n}: expected 'PLAYER | BANKER', got {line!r}")
            pairs.append((f"{args.file}:{n}", parts[0], parts[1]))
        return pairs
    if len(args.hands) == 2:
        return [("command line", args.hands[0], args.hands[1])]
    raise UsageError(f"give two hands ({example}) or --file F")


def run_alone(add_parsers: Callable[[Any], None], argv: Sequence[str] | None = None) -> int:
    """Parse ``argv`` with only the subcommands ``add_parsers`` registers and run the handler.

    The process starts as under the ``paigow`` command itself (``controller.commands.startup``): its
    settings first, then the same logging options and the same one-line errors, exit status 2.
    """
    start_process()
    parser = argparse.ArgumentParser(prog="paigow")
    add_logging_options(parser)
    add_parsers(parser.add_subparsers(dest="command", required=True, metavar="COMMAND"))
    return run_handler(parser.parse_args(argv), exit_on_error=False)


def listening_socket(host: str, port: int, hint: str = "") -> socket.socket:
    """A TCP socket bound to ``host:port`` and listening, for a server to take over; a port in
    use (or any other refusal) is one ``UsageError`` line, before anything else starts."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn does
    try:
        sock.bind((host, port))
        sock.listen()
    except OSError as err:
        sock.close()
        if err.errno == errno.EADDRINUSE:
            raise UsageError(f"port {port} on {host} is in use{hint}") from None
        raise UsageError(f"cannot listen on {host}:{port}: {err.strerror or err}{hint}") from None
    return sock


def number_in(what: str, kind: type[N], low: N, high: N | None = None) -> Callable[[str], N]:
    """An argparse ``type`` taking a ``kind`` number in ``low..high`` (no upper bound when
    None); a bad value is named with ``what`` in the error."""
    noun = "a whole number" if kind is int else "a number"
    limit = f"{low} or more" if high is None else f"between {low} and {high}"

    def parse(text: str) -> N:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{what} {text!r} is not {noun}") from None
        if value < low or (high is not None and value > high):
            raise argparse.ArgumentTypeError(f"{what} {text!r} must be {limit}")
        return value

    return parse
