"""Recording a table session to a folder: the device lines' bytes, the people's inputs and
the journal, with one time origin, so that a replay can play the session again with no
hardware (``docs/recordings.md``).

A recording folder holds::

    recording.json      {"format": "paigow-recording", "version": 1, "game", "table", ...}
    serial/KIND.jsonl   each device line's bytes (``firmware_interfaces.capture``)
    inputs.jsonl        what people did, in order: panel presses, acts at the display,
                        sign-ins and sign-outs, each with ``t`` (seconds from the start)
    journal.sqlite      the session's journal (when the command is given no other)

The loop's own acts (shuffle, deal, camera reads) are not inputs: a replay makes them again
from the recorded devices, and comparing its journal with the recorded one checks them.
A folder that already holds a recording is refused: nothing recorded is ever overwritten.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Mapping
from pathlib import Path
from typing import IO, Any

from firmware_interfaces.capture import Recorder

from ..round import Who
from .errors import TableConfigError

FORMAT = "paigow-recording"
VERSION = 1
HEADER = "recording.json"
INPUTS = "inputs.jsonl"
SERIAL = "serial"


class SessionRecorder:
    """Writes one session's recording into ``folder`` (made if missing, refused if it already
    holds one); ``close`` when the session ends."""

    def __init__(self, folder: str | Path, *, game: str, table: str,
                 seed: int | None, start: float | None = None) -> None:
        self.folder = Path(folder)
        if (self.folder / HEADER).exists():
            raise TableConfigError(f"recording folder {str(self.folder)!r} already holds a "
                                   f"recording; give a new folder")
        try:
            (self.folder / SERIAL).mkdir(parents=True, exist_ok=True)
            self._inputs: IO[str] = (self.folder / INPUTS).open("x", encoding="utf-8")
        except OSError as err:
            raise TableConfigError(f"recording folder {str(self.folder)!r}: "
                                   f"{err.strerror or err}") from err
        self.start = time.monotonic() if start is None else start
        self._lock = threading.Lock()
        self._lines: list[Recorder] = []
        self._serial: dict[str, str] = {}
        self._header: dict[str, Any] = {
            "format": FORMAT, "version": VERSION, "game": game, "table": table, "seed": seed,
            "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            "serial": self._serial, "inputs": INPUTS}
        self._write_header()

    @property
    def journal(self) -> Path:
        """Where the session's journal goes unless the command names another."""
        return self.folder / "journal.sqlite"

    def line(self, kind: str, url: str) -> Recorder:
        """The recorder of device line ``kind`` (``shuffler``, ``shaker``) at ``url``; its
        ``connect`` opens the line for the driver."""
        recorder = Recorder(url, self.folder / SERIAL / f"{kind}.jsonl", kind, start=self.start)
        self._lines.append(recorder)
        self._serial[kind] = f"{SERIAL}/{kind}.jsonl"
        self._write_header()
        return recorder

    def input(self, what: str, who: Who | None = None, **fields: Any) -> None:
        """Append one input, timed now: ``press`` (a panel button), ``act`` (an act asked at
        the display), ``note`` (a sign-in or sign-out)."""
        entry: dict[str, Any] = {"t": round(time.monotonic() - self.start, 6), "input": what}
        if who is not None:
            entry["actor"], entry["role"] = who.actor, who.role.value
        entry.update(fields)
        text = json.dumps(entry, default=str, sort_keys=True)
        with self._lock:
            if self._inputs.closed:
                return
            self._inputs.write(text + "\n")
            self._inputs.flush()  # a crash loses at most the input under way

    def close(self) -> None:
        """Close every part (idempotent)."""
        for recorder in self._lines:
            recorder.close()
        with self._lock:
            self._inputs.close()

    def _write_header(self) -> None:
        (self.folder / HEADER).write_text(json.dumps(self._header, indent=1) + "\n",
                                          encoding="utf-8")


def read_inputs(folder: str | Path) -> list[Mapping[str, Any]]:
    """A recording's inputs, in order; ``TableConfigError`` names a bad line."""
    path = Path(folder) / INPUTS
    out: list[Mapping[str, Any]] = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        try:
            entry = json.loads(line)
        except json.JSONDecodeError as err:
            raise TableConfigError(f"{path}:{number}: not JSON ({err.msg})") from err
        if not isinstance(entry, dict) or "t" not in entry or "input" not in entry:
            raise TableConfigError(f"{path}:{number}: an input needs 't' and 'input'")
        out.append(entry)
    return out


__all__ = ["FORMAT", "VERSION", "SessionRecorder", "read_inputs"]
