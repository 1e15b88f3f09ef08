"""A simulator started by a controller ends when that controller does, even after ``kill -9``.

On Linux the kernel sends SIGTERM when the parent dies (``prctl(PR_SET_PDEATHSIG)``, set via
ctypes in the simulator itself, since ``preexec_fn`` is unsafe in a threaded parent); everywhere,
a watcher thread sees the parent's pid change (the orphan is handed to init or a subreaper).
Either way the simulator's stop event is set and it closes its pty and exits.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import sys
import threading

PR_SET_PDEATHSIG = 1
WATCH_EVERY = 0.2
"""Seconds between looks at the parent's pid (the portable fallback)."""


def _death_signal() -> None:
    """Ask Linux to send SIGTERM when the parent dies (nothing elsewhere or on failure)."""
    if not sys.platform.startswith("linux"):
        return
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)


def watch_parent(parent: int, stop: threading.Event) -> threading.Thread:
    """Set ``stop`` once process ``parent`` is no longer this process's parent (it ended)."""
    _death_signal()

    def watch() -> None:
        # Checked once first: the parent may have died before the death signal was asked for.
        while os.getppid() == parent:
            if stop.wait(WATCH_EVERY):
                return
        stop.set()

    thread = threading.Thread(target=watch, name="parent-watch", daemon=True)
    thread.start()
    return thread
