"""Short-lived tickets for the event stream: a browser's ``EventSource`` cannot send an
``Authorization`` header, so an operator first trades the token for a ticket
(``POST /api/events/ticket``) and opens ``/api/events?ticket=T``.

A ticket names the operator it was issued to and the session (token digest) it came from, and
lapses after ``TICKET_SECONDS``; it opens streams (the browser's own reconnects included) until
then.  When its session ends (signed out, relieved, expired) the ticket is revoked and the
streams opened with it end (``Table.end_streams``).  A ticket is random text that is no token:
one that leaks in a log or a proxy's history opens no act and lapses within the minute.  The
public needs none: a stream without one shows what the public may see.
"""

from __future__ import annotations

import hmac
import secrets
import threading
import time
from collections.abc import Callable, Collection
from typing import NamedTuple

from ..round import Who

TICKET_SECONDS = 60.0
"""How long a ticket opens streams."""
MAX_TICKETS = 1000
"""Tickets kept at once; the oldest lapse first beyond it (so asking cannot fill memory)."""


class Issued(NamedTuple):
    """A live ticket: whom it names, the session it came from, and when it lapses."""

    who: Who
    session: str
    lapses: float


class Tickets:
    """The tickets issued and not yet lapsed or revoked, by ticket text."""

    def __init__(self, clock: Callable[[], float] = time.monotonic,
                 seconds: float = TICKET_SECONDS) -> None:
        self._clock = clock
        self._seconds = seconds
        self._lock = threading.Lock()
        self._issued: dict[str, Issued] = {}

    def issue(self, who: Who, session: str) -> str:
        """A new ticket for ``who``, good while ``session`` (a token digest) lasts."""
        ticket = secrets.token_urlsafe(24)
        now = self._clock()
        with self._lock:
            self._prune(now)
            while len(self._issued) >= MAX_TICKETS:
                del self._issued[next(iter(self._issued))]
            self._issued[ticket] = Issued(who, session, now + self._seconds)
        return ticket

    def find(self, ticket: str) -> Issued | None:
        """The live ticket ``ticket`` names, or None (unknown, lapsed or revoked)."""
        now = self._clock()
        with self._lock:
            self._prune(now)
            # compared in constant time, like a token: the ticket's text is the secret
            for known, issued in self._issued.items():
                if hmac.compare_digest(known.encode(), ticket.encode()):
                    return issued
        return None

    def who(self, ticket: str) -> Who | None:
        """The operator a live ticket was issued to, or None (unknown, lapsed or revoked)."""
        found = self.find(ticket)
        return None if found is None else found.who

    def revoke(self, live: Collection[str]) -> None:
        """Drop every ticket whose session is not in ``live`` (it ended)."""
        with self._lock:
            for ticket in [t for t, i in self._issued.items() if i.session not in live]:
                del self._issued[ticket]

    @property
    def seconds(self) -> float:
        """How long a ticket lives."""
        return self._seconds

    def _prune(self, now: float) -> None:
        for ticket in [t for t, issued in self._issued.items() if issued.lapses <= now]:
            del self._issued[ticket]
