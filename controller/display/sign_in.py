"""Signing staff in and out at the display, and journaling who is on duty.

``Desk`` joins the staff list (``controller.staff``), the session store and the table: a right
PIN opens a session whose token the page keeps; each sign-in, sign-out, relief of the dealer on
duty and expiry is appended to the journal as a table-level record (no round) through the
table's lock, so viewers are told as for any act.  The records:

- ``operator_signed_in`` ``{"staff", "name", "role"}``, by the person signing in;
- ``operator_signed_out`` ``{"staff", "role", "reason"}``, by the person signing out, by the
  dealer who relieves another, or by the table (``system``) when a session expires.

A wrong PIN and an unknown id get the same answer after the same work (a scrypt hash either way);
repeated failures for one id are throttled whether or not the id exists.

When a session ends, however it ends, its event streams end and its stream tickets are revoked
(``Table.end_streams``).  Expiry is found by ``sweep``: at any request that finds a session over
its time, and every ``SWEEP_SECONDS`` by the app's own task, so a stream left open on an idle
screen ends within seconds of its session, not at the next request.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterable
from typing import Any

from ..journal import Role
from ..round import Who
from ..staff import Ended, Member, SessionStore, Throttle
from ..staff.pins import DUMMY
from ..staff.sessions import Clock, digest
from .settings import DisplaySettings
from .table import Table

log = logging.getLogger(__name__)

SIGNED_IN = "operator_signed_in"
"""The journal kind of a sign-in at the display."""
SIGNED_OUT = "operator_signed_out"
"""The journal kind of a session's end (signed out, relieved, expired)."""
SWEEP_SECONDS = 5.0
"""How often the app looks for sessions over their time (``Desk.sweep``)."""


class SignInRefused(Exception):
    """A sign-in refused: a wrong PIN or unknown id (never said which), or too many tries."""

    def __init__(self, text: str, wait: float = 0.0) -> None:
        super().__init__(text)
        self.wait = wait


class Desk:
    """The display's sign-in desk: staff, sessions, failures, and the journal they go to."""

    def __init__(self, table: Table, settings: DisplaySettings,
                 clock: Clock = time.monotonic) -> None:
        self.table = table
        self.staff = settings.staff
        self.sessions = SessionStore(settings.staff.sessions, clock)
        self.throttle = Throttle(clock)
        self._sweeping = threading.Lock()  # one sweep at a time, its records written before
        for token, who in settings.tokens.items():
            self.sessions.stand(token, who)

    def sign_in(self, staff_id: str, pin: str) -> tuple[str, Member]:
        """A new session token for the member whose id and PIN these are; ``SignInRefused``
        otherwise (the same words whether the id is unknown or the PIN wrong)."""
        wait = self.throttle.wait(staff_id)
        if wait > 0:
            raise SignInRefused(f"too many wrong PINs for this id: try again in "
                                f"{wait:.0f} s", wait)
        member = self.staff.get(staff_id)
        right = (member.pin if member is not None else DUMMY).matches(pin)
        if member is None or not right:
            self.throttle.failed(staff_id)
            log.warning("sign-in refused for staff id %r: unknown id or wrong PIN", staff_id)
            raise SignInRefused("unknown staff id or wrong PIN")
        self.throttle.passed(staff_id)
        return self.open(member), member

    def open(self, member: Member) -> str:
        """Sign ``member`` in without a PIN (``paigow demo`` signs its own staff in)."""
        token, relieved = self.sessions.open(member.who)
        if relieved:
            self.table.end_streams(self.sessions.keys())
        self._journal_ended(relieved, by=member.who)
        self._note({"type": SIGNED_IN, "v": 1, "staff": member.id, "name": member.name,
                    "role": member.role.value}, member.who)
        log.info("%s %s (%s) signed in", member.role.value, member.id, member.name)
        return token

    def sign_out(self, token: str) -> Who | None:
        """End the session of ``token``; who signed out, or None if it named no session."""
        who = self.sessions.close(token)
        if who is not None:
            self.table.end_streams(self.sessions.keys())
            self._journal_ended([Ended(who, "signed out")], by=who)
        return who

    def sweep_due(self) -> bool:
        """Whether a sweep has work, or is under way (a request then waits for its records)."""
        return self._sweeping.locked() or self.sessions.due()

    def sweep(self) -> list[Ended]:
        """End the sessions over their time: their streams end, and each end is journaled by
        the table itself (call in a worker thread: it waits for the table's lock)."""
        with self._sweeping:
            ended = self.sessions.expired()
            if ended:
                self.table.end_streams(self.sessions.keys())
                self._journal_ended(ended, by=Who.system())
        return ended

    @staticmethod
    def session_of(token: str) -> str:
        """The session key (the token's digest) a stream or ticket opened with ``token``
        ends with."""
        return digest(token)

    def live(self, session: str) -> bool:
        """Whether the session keyed ``session`` is still open."""
        open_now = self.sessions.keys()  # the store's token digests (a list, not a dict view)
        return session in open_now

    def who(self, token: str) -> Who | None:
        """The person behind a live token, or None."""
        return self.sessions.who(token)

    def on_duty(self, role: Role) -> Who | None:
        """The person of ``role`` who signed in last and is still signed in, or None."""
        people = self.sessions.on_duty(role)
        return people[-1] if people else None

    def name(self, who: Who) -> str:
        """The person's name from the staff list (the actor itself when not on it)."""
        member = self.staff.get(who.actor)
        return member.name if member is not None else who.actor

    def _journal_ended(self, ended: Iterable[Ended], by: Who) -> None:
        for end in ended:
            log.info("%s %s signed out: %s", end.who.role.value, end.who.actor, end.reason)
            self._note({"type": SIGNED_OUT, "v": 1, "staff": end.who.actor,
                        "role": end.who.role.value, "reason": end.reason}, by)

    def _note(self, payload: dict[str, Any], who: Who) -> None:
        self.table.note(payload, who)
