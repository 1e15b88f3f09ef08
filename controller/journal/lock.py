"""One writer per journal: the holder of a journal's writer lock, and the SQLite lock file.

A controller (``paigow demo``, ``run``, ``display``) takes the lock when it opens its journal
and keeps it until it closes it; a second one is refused with one line naming the holder.
Readers (``verify``, ``show``, ``audit``, ``replay``) take no lock.  On SQLite the lock is an
``flock`` on ``PATH.lock`` beside the journal (created 0600), which holds the holder's line;
the kernel drops it when the holder's process ends, however it ends.  On PostgreSQL it is a
session advisory lock per journal schema (``postgres_store``).
"""

from __future__ import annotations

import fcntl
import json
import os
import socket
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final

from .errors import JournalError, JournalLockedError

LOCK_SUFFIX: Final = ".lock"


@dataclass(frozen=True, slots=True)
class Holder:
    """Who holds a writer lock: process id, host, command and since when (UTC)."""

    pid: int
    host: str
    command: str
    since: str

    @classmethod
    def me(cls, command: str) -> Holder:
        """This process, running ``command``, from now."""
        now = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
        return cls(os.getpid(), socket.gethostname(), command, now)

    def text(self) -> str:
        """``pid 123 on host (paigow display) since 2026-11-28T04:13:56Z``."""
        return f"pid {self.pid} on {self.host} ({self.command}) since {self.since}"

    def to_json(self) -> dict[str, Any]:
        """The holder as a JSON object (the lock file's content)."""
        return {"pid": self.pid, "host": self.host, "command": self.command,
                "since": self.since}

    @classmethod
    def from_json(cls, text: str) -> Holder | None:
        """The holder a lock file names, or None when it names none readable."""
        try:
            data = json.loads(text)
            return cls(int(data["pid"]), str(data["host"]), str(data["command"]),
                       str(data["since"]))
        except (ValueError, KeyError, TypeError):
            return None


def refused(where: str, holder: Holder | None) -> JournalLockedError:
    """The one-line error of a second writer."""
    who = holder.text() if holder is not None else "another process (it names no holder)"
    return JournalLockedError(f"journal {where!r} already has a writer: {who}; "
                              f"one controller per journal")


class FileLock:
    """An exclusive ``flock`` on ``PATH.lock``, held until ``release`` (or the process ends)."""

    def __init__(self, journal_path: Path, holder: Holder):
        self.path = Path(str(journal_path) + LOCK_SUFFIX)
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o600)
        except OSError as err:
            raise JournalError(f"cannot open the journal's lock file {str(self.path)!r}: "
                               f"{err.strerror}") from err
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            text = os.pread(fd, 4096, 0).decode("utf-8", "replace")
            os.close(fd)
            raise refused(str(journal_path), Holder.from_json(text)) from None
        except OSError as err:
            os.close(fd)
            raise JournalError(f"cannot lock {str(self.path)!r}: {err.strerror}") from err
        os.ftruncate(fd, 0)
        os.pwrite(fd, (json.dumps(holder.to_json()) + "\n").encode("utf-8"), 0)
        self._fd: int | None = fd

    def release(self) -> None:
        """Let another writer in (the file stays, its holder line goes)."""
        if self._fd is not None:
            os.ftruncate(self._fd, 0)
            os.close(self._fd)  # closing the descriptor drops the flock
            self._fd = None
