"""The serial capture file: what one device line carried, chunk by chunk, as JSON lines.

The first line is the header, ``{"format": "paigow-serial-capture", "version": 1, "device":
..., "url": ..., "started": ...}``; every later line is one step of the line, in the order the
host saw it: ``{"t": SECONDS, "op": OP}`` plus ``"hex"`` (the bytes of a ``write`` or ``read``)
or ``"error"`` (the text of an ``open_failed``, ``read_error`` or ``write_error``). ``t`` is
seconds on the monotonic clock since the recording began. ``docs/recordings.md`` is the
reference; a reader refuses an unknown version, op or key, naming the file and line.
"""

from __future__ import annotations

import datetime
import itertools
import json
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, TextIO, cast, get_args

from .errors import DeviceError

FORMAT = "paigow-serial-capture"
VERSION = 1

Op = Literal["open", "open_failed", "write", "read", "read_error", "write_error", "close"]
OPS: frozenset[str] = frozenset(get_args(Op))
BYTES_OPS = frozenset({"write", "read"})
ERROR_OPS = frozenset({"open_failed", "read_error", "write_error"})
_HEADER_KEYS = {"format", "version", "device", "url", "started"}


class CaptureFileError(DeviceError, ValueError):
    """A capture file that cannot be read: not this format, a version this host does not know,
    or a line that is not a well-formed step (the message names the file and line)."""


@dataclass(frozen=True)
class Header:
    """Which device line a capture holds: the device kind, its URL, when it began (UTC)."""

    device: str
    url: str
    started: str


@dataclass(frozen=True)
class Step:
    """One thing the line did: bytes written or read, an opening, a failure, the close."""

    t: float
    op: Op
    data: bytes = b""
    error: str = ""


@dataclass(frozen=True)
class Capture:
    """A whole capture file, read and checked: its header and its steps in order."""

    path: Path
    header: Header
    steps: tuple[Step, ...]

    @staticmethod
    def line_of(index: int) -> int:
        """The file line (from 1) that holds step ``index`` (from 0): the header is line 1."""
        return index + 2


def step_line(step: Step) -> str:
    """``step`` as its JSON line (no newline)."""
    fields: dict[str, object] = {"t": step.t, "op": step.op}
    if step.op in BYTES_OPS:
        fields["hex"] = step.data.hex()
    if step.op in ERROR_OPS:
        fields["error"] = step.error
    return json.dumps(fields, separators=(",", ":"))


def header_line(header: Header) -> str:
    """``header`` as the file's first line (no newline)."""
    return json.dumps({"format": FORMAT, "version": VERSION, "device": header.device,
                       "url": header.url, "started": header.started}, separators=(",", ":"))


class CaptureWriter:
    """Appends steps to a new capture file, one flushed line each, from any thread.

    Flushed after every line, so a host that crashes loses at most the step being written.
    """

    def __init__(self, path: str | Path, device: str, url: str) -> None:
        self.path = Path(path)
        try:
            self._file: TextIO = self.path.open("x", encoding="utf-8")
        except OSError as err:  # exists already, or no such folder: never overwrite a capture
            raise CaptureFileError(f"cannot create capture {str(self.path)!r}: {err}") from err
        self._lock = threading.Lock()
        started = datetime.datetime.now(datetime.UTC).isoformat(timespec="milliseconds")
        self.header = Header(device, url, started)
        self._put(header_line(self.header))

    def append(self, step: Step) -> None:
        """Write ``step`` as one line and flush it."""
        self._put(step_line(step))

    def _put(self, line: str) -> None:
        with self._lock:
            if self._file.closed:
                raise CaptureFileError(f"capture {str(self.path)!r} is closed")
            self._file.write(line + "\n")
            self._file.flush()

    def close(self) -> None:
        """Close the file (idempotent)."""
        with self._lock:
            self._file.close()


def load_capture(path: str | Path) -> Capture:
    """Read and check the capture at ``path``; ``CaptureFileError`` names the file and line."""
    where = Path(path)
    try:
        text = where.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise CaptureFileError(f"cannot read capture {str(where)!r}: {err}") from err
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()  # the newline that ends the last line
    if not lines:
        raise CaptureFileError(f"{where}:1: empty, not a {FORMAT} file")
    header = parse_header(lines[0], f"{where}:1")
    steps = tuple(parse_step(line, f"{where}:{n}") for n, line in enumerate(lines[1:], 2))
    for n, (before, after) in enumerate(itertools.pairwise(steps), 3):
        if after.t < before.t:
            raise CaptureFileError(f"{where}:{n}: t {after.t!r} goes back from {before.t!r}")
    return Capture(where, header, steps)


def _object(line: str, where: str) -> dict[str, object]:
    try:
        value = json.loads(line)
    except json.JSONDecodeError as err:
        raise CaptureFileError(f"{where}: not a JSON line ({err.msg}): {line[:80]!r}") from err
    if not isinstance(value, dict):
        raise CaptureFileError(f"{where}: not a JSON object: {line[:80]!r}")
    return value


def _text(fields: dict[str, object], key: str, where: str) -> str:
    value = fields.get(key)
    if not isinstance(value, str):
        raise CaptureFileError(f"{where}: {key!r} is {value!r}, not a string")
    return value


def parse_header(line: str, where: str) -> Header:
    """The header line; refuses another format, another version or an unknown key."""
    fields = _object(line, where)
    if fields.get("format") != FORMAT:
        raise CaptureFileError(f"{where}: format {fields.get('format')!r}, not {FORMAT!r}")
    if fields.get("version") != VERSION:
        raise CaptureFileError(f"{where}: {FORMAT} version {fields.get('version')!r}; this "
                               f"host reads version {VERSION}")
    unknown = sorted(set(fields) - _HEADER_KEYS)
    if unknown:
        raise CaptureFileError(f"{where}: unknown header keys {unknown}")
    return Header(_text(fields, "device", where), _text(fields, "url", where),
                  _text(fields, "started", where))


def parse_step(line: str, where: str) -> Step:
    """One step line; refuses an unknown op or key, bad hex and a missing or negative time."""
    fields = _object(line, where)
    op = fields.get("op")
    if not isinstance(op, str) or op not in OPS:
        raise CaptureFileError(f"{where}: op {op!r} is not one of {sorted(OPS)}")
    t = fields.get("t")
    if isinstance(t, bool) or not isinstance(t, int | float) or not 0 <= t < float("inf"):
        raise CaptureFileError(f"{where}: t {t!r} is not a time in seconds")
    allowed = {"t", "op"} | ({"hex"} if op in BYTES_OPS else set()) | (
        {"error"} if op in ERROR_OPS else set())
    unknown = sorted(set(fields) - allowed)
    if unknown:
        raise CaptureFileError(f"{where}: unknown keys {unknown} for op {op!r}")
    data, error = b"", ""
    if op in BYTES_OPS:
        digits = _text(fields, "hex", where)
        try:
            data = bytes.fromhex(digits)
        except ValueError as err:
            raise CaptureFileError(f"{where}: hex {digits[:80]!r} is not bytes: {err}") from err
        if not data or data.hex() != digits:
            raise CaptureFileError(f"{where}: hex {digits[:80]!r} is not lower-case hex digits "
                                   f"of at least one byte")
    if op in ERROR_OPS:
        error = _text(fields, "error", where)
    return Step(float(t), cast(Op, op), data, error)
