"""Short-lived tickets for the event stream: a browser's ``EventSource`` cannot send an
``Authorization`` header, so an operator first trades the token for a ticket
(``POST /api/events/ticket``) and opens ``/api/events?ticket=T``.

A ticket names the operator it was issued to and lapses after ``TICKET_SECONDS``; it opens
streams (the browser's own reconnects included) until then, and a stream opened with it runs
on.  A ticket is random text that is no token: one that leaks in a log or a proxy's history
opens no act and lapses within the minute.  The public needs none: a stream without one shows
what the public may see.
"""

from __future__ import annotations

import hmac
import secrets
import threading
import time
from collections.abc import Callable

from ..round import Who

TICKET_SECONDS = 60.0
"""How long a ticket opens streams."""
MAX_TICKETS = 1000
"""Tickets kept at once; the oldest lapse first beyond it (so asking cannot fill memory)."""


class Tickets:
    """The tickets issued and not yet lapsed: ticket text -> (operator, when it lapses)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic,
                 seconds: float = TICKET_SECONDS) -> None:
        self._clock = clock
        self._seconds = seconds
        self._lock = threading.Lock()
        self._issued: dict[str, tuple[Who, float]] = {}

    def issue(self, who: Who) -> str:
        """A new ticket for ``who``."""
        ticket = secrets.token_urlsafe(24)
        now = self._clock()
        with self._lock:
            self._prune(now)
            while len(self._issued) >= MAX_TICKETS:
                del self._issued[next(iter(self._issued))]
            self._issued[ticket] = (who, now + self._seconds)
        return ticket

    def who(self, ticket: str) -> Who | None:
        """The operator a live ticket was issued to, or None (unknown or lapsed)."""
        now = self._clock()
        with self._lock:
            self._prune(now)
            # compared in constant time, like a token: the ticket's text is the secret
            for known, (who, _) in self._issued.items():
                if hmac.compare_digest(known.encode(), ticket.encode()):
                    return who
        return None

    @property
    def seconds(self) -> float:
        """How long a ticket lives."""
        return self._seconds

    def _prune(self, now: float) -> None:
        for ticket in [t for t, (_, ends) in self._issued.items() if ends <= now]:
            del self._issued[ticket]
