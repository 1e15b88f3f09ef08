"""Display sessions: a token per sign-in, kept only as its SHA-256, ending when idle or too old.

A token is ``secrets.token_urlsafe(32)``, handed once to the page that signed in.  The store keys
sessions by the token's SHA-256, so finding one is a dictionary look-up of a hash (the token's
text is never compared, and a stolen copy of the store holds no usable token); the found digest
is compared again with ``hmac.compare_digest``.  Time comes from an injected clock (monotonic
seconds), so tests move it on.  One dealer is on duty at a time: a dealer's sign-in relieves the
one before; supervisors may be several.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from ..journal import Role
from ..round import Who
from .roster import SessionRules

Clock = Callable[[], float]
"""Seconds on a clock that never goes back (``time.monotonic`` unless a test gives one)."""

TOKEN_BYTES: Final = 32

FAILURES: Final = 5
"""Wrong PINs in a row for one id after which that id's sign-in waits ``LOCKOUT`` seconds."""
LOCKOUT: Final = 60.0
TRACKED: Final = 4096
"""Ids whose failures are remembered at most (a flood of made-up ids cannot grow memory)."""


def digest(token: str) -> str:
    """The SHA-256 of a token, as the store keeps it."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass(slots=True)
class Session:
    """One signed-in person: who, when it began, when last used; ``standing`` ones never end
    (tokens fixed by a program's own settings, e.g. tests)."""

    who: Who
    key: str
    started: float
    used: float
    standing: bool = False

    def ended(self, now: float, rules: SessionRules) -> str | None:
        """Why this session is over at ``now`` ("idle", "longest"), or None."""
        if self.standing:
            return None
        if now - self.started >= rules.longest:
            return "longest"
        if now - self.used >= rules.idle:
            return "idle"
        return None


@dataclass(frozen=True, slots=True)
class Ended:
    """A session that ended without its owner signing out, and why."""

    who: Who
    reason: str


class SessionStore:
    """Open sessions by token digest; thread-safe (the web serves from a pool of threads)."""

    def __init__(self, rules: SessionRules | None = None, clock: Clock = time.monotonic) -> None:
        self.rules = rules or SessionRules()
        self._clock = clock
        self._lock = threading.Lock()
        self._sessions: dict[str, Session] = {}

    def keys(self) -> list[str]:
        """The stored keys (token digests): what the store holds in place of tokens."""
        with self._lock:
            return list(self._sessions)

    def stand(self, token: str, who: Who) -> None:
        """Accept ``token`` for ``who`` until the program ends (no expiry, no relief)."""
        key = digest(token)
        now = self._clock()
        with self._lock:
            self._sessions[key] = Session(who, key, now, now, standing=True)

    def open(self, who: Who) -> tuple[str, list[Ended]]:
        """A new token for ``who`` and the sessions it ends: a dealer relieves the dealer on
        duty (the same person signing in again included)."""
        token = secrets.token_urlsafe(TOKEN_BYTES)
        key = digest(token)
        now = self._clock()
        with self._lock:
            relieved = [s for s in self._sessions.values()
                        if who.role is Role.DEALER and s.who.role is Role.DEALER
                        and not s.standing]
            for s in relieved:
                del self._sessions[s.key]
            self._sessions[key] = Session(who, key, now, now)
        return token, [Ended(s.who, f"relieved by {who.actor}") for s in relieved]

    def who(self, token: str) -> Who | None:
        """The person a live token stands for (marking the session used), or None."""
        key = digest(token)
        now = self._clock()
        with self._lock:
            found = self._sessions.get(key)
            if found is None or not hmac.compare_digest(found.key, key):
                return None
            if found.ended(now, self.rules) is not None:
                return None  # ``expired`` removes it and reports why
            found.used = now
            return found.who

    def close(self, token: str) -> Who | None:
        """End the session of ``token`` (signing out); who it was, or None if none was open."""
        key = digest(token)
        with self._lock:
            found = self._sessions.pop(key, None)
        return None if found is None or found.standing else found.who

    def due(self) -> bool:
        """Whether any session is over its time and not yet removed (``expired`` removes it)."""
        now = self._clock()
        with self._lock:
            return any(s.ended(now, self.rules) is not None for s in self._sessions.values())

    def expired(self) -> list[Ended]:
        """Remove and report every session over its idle or longest time."""
        now = self._clock()
        with self._lock:
            over = [(s, why) for s in self._sessions.values()
                    if (why := s.ended(now, self.rules)) is not None]
            for s, _ in over:
                del self._sessions[s.key]
        return [Ended(s.who, f"expired ({why})") for s, why in over]

    def on_duty(self, role: Role) -> list[Who]:
        """Who holds a live session of ``role`` now (signed in, not standing)."""
        now = self._clock()
        with self._lock:
            return [s.who for s in self._sessions.values() if s.who.role is role
                    and not s.standing and s.ended(now, self.rules) is None]


class Throttle:
    """Wrong PINs per staff id (known or not, so its answer tells nothing of who exists)."""

    def __init__(self, clock: Clock = time.monotonic, failures: int = FAILURES,
                 lockout: float = LOCKOUT) -> None:
        self._clock = clock
        self._failures = failures
        self._lockout = lockout
        self._lock = threading.Lock()
        self._seen: dict[str, tuple[int, float]] = {}  # id -> (failures in a row, last at)

    def wait(self, staff_id: str) -> float:
        """Seconds before ``staff_id`` may try again (0: now)."""
        with self._lock:
            count, last = self._seen.get(staff_id, (0, 0.0))
        if count < self._failures:
            return 0.0
        return max(0.0, last + self._lockout - self._clock())

    def failed(self, staff_id: str) -> None:
        """Count a wrong PIN (or unknown id) for ``staff_id``."""
        now = self._clock()
        with self._lock:
            count, last = self._seen.pop(staff_id, (0, now))
            if count >= self._failures and now - last >= self._lockout:
                count = 0  # the lockout has passed: a fresh run of tries
            self._seen[staff_id] = (count + 1, now)
            while len(self._seen) > TRACKED:  # dicts keep order: the oldest first
                del self._seen[next(iter(self._seen))]

    def passed(self, staff_id: str) -> None:
        """A right PIN: forget the failures."""
        with self._lock:
            self._seen.pop(staff_id, None)
