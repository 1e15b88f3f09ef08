"""``python -m firmware_interfaces.sim shuffler|shaker [--pty | --tcp HOST:PORT] [faults]``."""

from __future__ import annotations

import argparse
import sys

from .cli import add_arguments, run


def main(argv: list[str] | None = None) -> int:
    """Parse the arguments and run the simulator; a bad option is one line and status 2."""
    parser = argparse.ArgumentParser(prog="python -m firmware_interfaces.sim",
                                     description="Run a simulated device.")
    add_arguments(parser)
    args = parser.parse_args(argv)
    try:
        return run(args)
    except (ValueError, OSError) as err:
        print(f"{parser.prog}: error: {err}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    raise SystemExit(main())
