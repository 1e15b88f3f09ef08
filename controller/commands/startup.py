"""How a ``paigow`` process starts: its process-wide settings, its logging, its one error policy.

Only the ``paigow`` command (``controller.cli.main``) and a command group run alone (``python
-m controller.commands.NAME``, ``commands.common.run_alone``) call ``start_process``, first of
all; importing ``controller`` as a library changes nothing in the process.  Every entry point
then runs its handler through ``run_handler``: an error of the project (controller, rules,
command line, devices, camera) is one ``paigow: error: ...`` line and exit status 2.
"""

from __future__ import annotations

import argparse
import faulthandler
import logging
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import NoReturn

from firmware_interfaces.errors import DeviceError
from vision.errors import VisionError
from vision.memory import keep_freed_memory

from ..errors import ControllerError, UsageError
from ..rules.errors import RulesError

# One thread each unless the operator's environment says otherwise: the camera's many small
# matrix products only pay for a thread pool's wake-ups on a busy two-core table host
# (``bench/bench_table.py``), and the rules core needs no threads.  Read when numpy loads.
THREAD_VARIABLES = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")

# What a command reports as one line: the roots of every package's errors.
COMMAND_ERRORS = (UsageError, ControllerError, RulesError, DeviceError, VisionError)

LOG_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
LOG_LEVELS = ("debug", "info", "warning", "error")

Handler = Callable[[argparse.Namespace], int]

# The handlers this command added to the root logger, removed again when it ends (a test may
# run many commands in one process).
_handlers: list[logging.Handler] = []
_root_level: list[int] = []


def start_process() -> None:
    """Set what belongs to the whole process, before numpy loads: one BLAS thread by default,
    glibc keeping freed frames' memory (``vision.memory``), and a crash in native code (the
    camera's OpenCV calls and compiled kernels, the serial and GPIO libraries) writing every
    thread's Python stack to stderr before the process dies, so that the table's log says
    where a host that died without a word was."""
    for var in THREAD_VARIABLES:
        os.environ.setdefault(var, "1")
    keep_freed_memory()
    faulthandler.enable(file=2)  # the process's stderr, whatever sys.stderr is replaced by


def fail(message: str) -> NoReturn:
    """Print ``paigow: error: MESSAGE`` and exit with status 2."""
    print(f"paigow: error: {message}", file=sys.stderr)
    raise SystemExit(2)


def add_logging_options(parser: argparse.ArgumentParser) -> None:
    """``--log-level`` and ``--log-file`` on the command's top-level parser."""
    parser.add_argument("--log-level", choices=LOG_LEVELS, default=None,
                        help="what to log (default: warnings on stderr; info in a table's "
                             "log file)")
    parser.add_argument("--log-file", metavar="PATH", default=None,
                        help="log to this file too (paigow demo/run: default beside the "
                             "journal)")


def configure_logging(args: argparse.Namespace) -> None:
    """The process's one logging set-up: to ``--log-file`` when given, else warnings (or
    ``--log-level``) to stderr."""
    level = getattr(args, "log_level", None)
    _root_level.append(logging.getLogger().level)
    logging.getLogger().setLevel(logging.DEBUG if level == "debug" else logging.INFO)
    if getattr(args, "log_file", None):
        log_to_file(args, args.log_file)
    else:
        _add(logging.StreamHandler(sys.stderr), level or "warning")


def log_beside(args: argparse.Namespace, journal: str) -> Path | None:
    """A table's log file, unless ``--log-file`` gave one: ``JOURNAL.log`` beside a journal
    file, ``var/paigow.log`` for a journal on a server; it takes the place of stderr.  The
    path, or None if one was given."""
    if getattr(args, "log_file", None):
        return None
    path = Path("var") / "paigow.log" if "://" in journal else Path(journal + ".log")
    root = logging.getLogger()
    for handler in [h for h in _handlers if type(h) is logging.StreamHandler]:
        _handlers.remove(handler)
        root.removeHandler(handler)
    log_to_file(args, str(path))
    return path


def log_to_file(args: argparse.Namespace, path: str) -> None:
    """Append the log to ``path`` at ``--log-level`` (default info); a file that cannot be
    opened is a ``UsageError`` naming it.  A new file is made readable by its owner only, as
    the journal beside it is: it names the staff and the rounds' outcomes."""
    level = getattr(args, "log_level", None) or "info"
    try:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600))
        handler = logging.FileHandler(path, encoding="utf-8")
    except OSError as err:
        raise UsageError(f"cannot open the log file {path!r}: {err.strerror}") from err
    _add(handler, level)


def _add(handler: logging.Handler, level: str) -> None:
    handler.setLevel(level.upper())
    handler.setFormatter(logging.Formatter(LOG_FORMAT))
    logging.getLogger().addHandler(handler)
    _handlers.append(handler)


def end_logging() -> None:
    """Remove and close the handlers ``configure_logging`` added."""
    root = logging.getLogger()
    while _handlers:
        handler = _handlers.pop()
        root.removeHandler(handler)
        handler.close()
    while _root_level:
        root.setLevel(_root_level.pop())


def run_handler(args: argparse.Namespace, *, exit_on_error: bool = True) -> int:
    """Configure logging and run ``args.handler``: a project error is one ``paigow: error:``
    line and status 2 (raised as ``SystemExit``, or returned when not ``exit_on_error``, as a
    command group run alone always did); a closed pipe (``paigow ... | head``) is status 0."""
    handler: Handler = args.handler
    try:
        configure_logging(args)
        return handler(args)
    except COMMAND_ERRORS as err:
        print(f"paigow: error: {err}", file=sys.stderr)
        if exit_on_error:
            raise SystemExit(2) from None
        return 2
    except BrokenPipeError:
        return 0
    finally:
        end_logging()
