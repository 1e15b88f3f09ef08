"""Simulated devices as their own OS processes over pseudo-terminals, always stopped again.

``SimProcess("shuffler", seed=7, faults={"cards": 52})`` runs ``python -m
firmware_interfaces.sim shuffler --pty --seed 7 --cards 52`` and reads the pty path the
simulator prints as its first line (``firmware_interfaces.sim.cli``).  Without a seed the
simulator draws from ``secrets``.  Faults are given at start (``faults``, the simulator's own
command-line options) or at run time through the driver's ``control`` (the adapters'
``control``); ``kill`` pulls the plug as a crash would.
"""

from __future__ import annotations

import os
import selectors
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping
from types import TracebackType
from typing import IO, Self

from firmware_interfaces.device_keys import write_key_file

from .errors import SimulatorError

DEVICES = ("shuffler", "shaker")
START_LIMIT = 20.0
STOP_LIMIT = 5.0
FaultValue = int | float | str | bool


def fault_options(faults: Mapping[str, FaultValue]) -> list[str]:
    """Command-line options of the simulator for ``faults`` (``{"cards": 52}``: ``--cards 52``;
    ``True``: a bare flag; ``False``: left out)."""
    options: list[str] = []
    for key, value in faults.items():
        if not isinstance(key, str) or not key.replace("_", "").isalnum():
            raise SimulatorError(f"simulator fault name {key!r} is not a word like 'cards'")
        flag = "--" + key.replace("_", "-")
        if value is True:
            options.append(flag)
        elif value is False:
            continue
        elif isinstance(value, int | float | str):
            options += [flag, str(value)]
        else:
            raise SimulatorError(f"simulator fault {key}={value!r}: expected a number, text "
                                 f"or true/false")
    return options


class SimProcess:
    """One simulator process on a pty; ``url`` is where a driver opens it."""

    def __init__(self, device: str, *, seed: int | None = None,
                 faults: Mapping[str, FaultValue] | None = None,
                 start_limit: float = START_LIMIT, key: bytes | None = None) -> None:
        if device not in DEVICES:
            raise SimulatorError(f"no simulator of {device!r}; known: {list(DEVICES)}")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)
                                 or seed < 0):
            raise SimulatorError(f"simulator seed {seed!r} must be a whole number >= 0")
        self.device = device
        self.seed = seed
        # --parent-pid: the simulator ends when this process does, even after kill -9.
        self.args = [sys.executable, "-m", "firmware_interfaces.sim", device, "--pty",
                     "--parent-pid", str(os.getpid()),
                     *([] if seed is None else ["--seed", str(seed)]),
                     *fault_options(faults or {})]
        # The hello key reaches the simulator in a file only it and we may read, removed as
        # soon as the simulator has started (it reads the key first).
        keys = tempfile.TemporaryDirectory(prefix="paigow-key-") if key is not None else None
        if keys is not None and key is not None:
            key_file = os.path.join(keys.name, f"{device}.key")
            write_key_file(key_file, key)
            self.args += ["--key-file", key_file]
        self._stderr: IO[bytes] = tempfile.TemporaryFile()  # noqa: SIM115 (closed by stop)
        # Its own session: Ctrl-C at the operator's terminal reaches the controller, which
        # voids the open round and then stops the simulators, not the devices first.
        self.proc = subprocess.Popen(self.args, stdout=subprocess.PIPE, stderr=self._stderr,
                                     stdin=subprocess.DEVNULL, start_new_session=True)
        try:
            self.url = self._first_line(start_limit)
        except BaseException:
            self.stop()
            raise
        finally:
            if keys is not None:
                keys.cleanup()

    def _first_line(self, limit: float) -> str:
        stdout = self.proc.stdout
        assert stdout is not None
        line = b""
        deadline = time.monotonic() + limit
        with selectors.DefaultSelector() as selector:
            selector.register(stdout, selectors.EVENT_READ)
            while not line.endswith(b"\n"):
                left = deadline - time.monotonic()
                if left <= 0 or not selector.select(left):
                    raise SimulatorError(f"the {self.device} simulator printed no URL within "
                                         f"{limit:g} s: {self.stderr().strip()!r}")
                chunk = stdout.read1(256)  # type: ignore[attr-defined]
                if not chunk:
                    self.proc.wait(STOP_LIMIT)
                    raise SimulatorError(f"the {self.device} simulator exited with status "
                                         f"{self.proc.returncode}: {self.stderr().strip()}")
                line += chunk
        return line.decode().splitlines()[0]

    @property
    def pid(self) -> int:
        """The process id."""
        return self.proc.pid

    @property
    def running(self) -> bool:
        """True while the process lives."""
        return self.proc.poll() is None

    def stderr(self) -> str:
        """What the simulator wrote to its standard error so far."""
        if self._stderr.closed:
            return ""
        self._stderr.seek(0)
        return self._stderr.read().decode(errors="replace")

    def kill(self) -> None:
        """End the process at once (SIGKILL), as a device losing power would."""
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(STOP_LIMIT)

    def stop(self) -> int | None:
        """Terminate (then kill if it lingers), release its pipes; the exit status (idempotent)."""
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(STOP_LIMIT)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(STOP_LIMIT)
        if self.proc.stdout is not None:
            self.proc.stdout.close()
        self._stderr.close()
        return self.proc.returncode

    def __enter__(self) -> Self:
        return self

    def __exit__(self, kind: type[BaseException] | None, err: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.stop()

    def __repr__(self) -> str:
        return f"SimProcess({self.device!r}, pid={self.proc.pid}, url={self.url!r})"
