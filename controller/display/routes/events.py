"""``GET /api/events``: server-sent events, one per journal record, as the viewer may see it.

Each event's ``id`` is the record's sequence number.  Who is looking comes from a bearer
token (``Authorization``, for programs) or a short-lived ticket (``?ticket=``, for a browser's
``EventSource``, which cannot send headers: ``POST /api/events/ticket`` trades a token for
one); with neither the stream is the public's (``visibility``).  An operator's stream ends
when the session it was opened with ends (signed out, relieved, expired: ``Table.end_streams``),
and so do its tickets; the page then reconnects as what it now is.  ``Last-Event-ID`` catches a
reconnecting operator up from the journal: at most ``EventLimits.catch_up`` records per
request (a stream that sent a full batch ends, and the browser reconnects for the next), read
and encoded in a worker thread of a small pool of its own, so catch-ups can neither hold the
event loop nor take every thread ``/api/table`` needs.  The public is refused catch-up (401): its
page reads the table afresh when it reconnects.  Beyond ``EventLimits.max_viewers`` streams a
new one is refused (503).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from functools import partial
from typing import Annotated

import anyio
from fastapi import APIRouter, Header, HTTPException, Query, status
from fastapi.responses import StreamingResponse
from typing_extensions import TypedDict  # pydantic needs it on Python < 3.12

from ...live import Published, TooManyViewers
from ...live.visibility import Sight, sight_of
from ...round import Who
from ..deps import BearerDep, DeskDep, OperatorDep, TableDep, ViewerDep
from ..sign_in import Desk
from ..table import Table

router = APIRouter(prefix="/api", tags=["events"])
KEEPALIVE = 15.0
"""Seconds of quiet before a comment line keeps proxies from closing the stream."""
CATCH_UP_THREADS = 2
"""Worker threads catch-ups share (the default pool stays free for views and acts)."""
_MAX_ID_DIGITS = 18
"""A ``Last-Event-ID`` longer than this is no record number (it would pass 2**63)."""


class TicketView(TypedDict):
    """A ticket for ``/api/events?ticket=``, whom it names and how many seconds it opens
    streams."""

    ticket: str
    actor: str
    role: str
    expires_in: int


def frame(seq: int, text: str) -> str:
    """One record (its sequence number and JSON text) as a server-sent event."""
    return f"id: {seq}\nevent: record\ndata: {text}\n\n"


def last_event_id(text: str | None) -> int | None:
    """The record number a ``Last-Event-ID`` names; 422 naming the value when it is none."""
    if text is None or text.strip() == "":
        return None
    value = text.strip()
    if not value.isascii() or not value.isdigit() or len(value) > _MAX_ID_DIGITS:
        shown = value if len(value) <= 40 else value[:40] + "..."
        raise HTTPException(422,
                            f"Last-Event-ID {shown!r} is not a record number (digits, "
                            f"{_MAX_ID_DIGITS} at most)")
    return int(value)


_LAPSED = HTTPException(status.HTTP_401_UNAUTHORIZED,
                        "unknown or lapsed ticket, or its session ended: ask POST "
                        "/api/events/ticket for a new one (or watch without one, as the public)",
                        headers={"WWW-Authenticate": "Bearer"})


def _watcher(table: Table, desk: Desk, viewer: Who | None, token: str | None,
             ticket: str | None) -> tuple[Who | None, str | None]:
    """Who is watching and the session the stream ends with: the token's operator, else the
    ticket's, else the public (None, None)."""
    if viewer is not None and token is not None:
        return viewer, desk.session_of(token)
    if ticket is None:
        return None, None
    found = table.tickets.find(ticket)
    if found is None or not desk.live(found.session):
        raise _LAPSED
    return found.who, found.session


def _framed(table: Table, after: int, sight: Sight) -> tuple[int, int, str]:
    """How many records after ``after`` (a batch at most), the last one's seq, and their
    events as one text: read, filtered and encoded here, in a worker thread."""
    missed: list[Published] = table.catch_up(after, sight)
    last = missed[-1][0] if missed else after
    return len(missed), last, "".join(frame(seq, text) for seq, text in missed)


async def _catch_up(table: Table, after: int, sight: Sight) -> tuple[int, int, str]:
    if table.catch_up_limiter is None:
        table.catch_up_limiter = anyio.CapacityLimiter(CATCH_UP_THREADS)
    return await anyio.to_thread.run_sync(partial(_framed, table, after, sight),
                                          limiter=table.catch_up_limiter)


@router.post("/events/ticket", response_model=TicketView)
def ticket(table: TableDep, who: OperatorDep, desk: DeskDep,
           credentials: BearerDep) -> TicketView:
    """A ticket that opens ``/api/events?ticket=T`` as this operator sees the table, for as
    long as the ticket lives and the session it came from lasts."""
    assert credentials is not None  # OperatorDep refused a request without a token
    issued = table.tickets.issue(who, desk.session_of(credentials.credentials))
    return {"ticket": issued, "actor": who.actor, "role": who.role.value,
            "expires_in": int(table.tickets.seconds)}


@router.get("/events", response_class=StreamingResponse,
            responses={200: {"content": {"text/event-stream": {}},
                             "description": "one `record` event per journal record"},
                       401: {"description": "unknown token or ticket; catch-up without one"},
                       422: {"description": "a Last-Event-ID that is no record number"},
                       503: {"description": "every viewer's place is taken"}})
async def events(table: TableDep, viewer: ViewerDep, desk: DeskDep, credentials: BearerDep,
                 ticket: Annotated[str | None, Query(max_length=64)] = None,
                 last_event: Annotated[str | None, Header(alias="Last-Event-ID")] = None,
                 ) -> StreamingResponse:
    """Every journal record from now on as this viewer may see it (and, for an operator, at
    most a batch of those after ``Last-Event-ID``), as they are written; an operator's stream
    ends when the session it was opened with ends."""
    after = last_event_id(last_event)
    watcher, session = _watcher(table, desk, viewer,
                                None if credentials is None else credentials.credentials, ticket)
    sight = sight_of(watcher)
    if after is not None and sight is Sight.PUBLIC:
        raise HTTPException(status.HTTP_401_UNAUTHORIZED,
                            "catch-up from the journal (Last-Event-ID) needs a dealer's or "
                            "supervisor's token or ticket; the public stream starts live",
                            headers={"WWW-Authenticate": "Bearer"})
    try:
        sub = table.subscribe(sight, session)
    except TooManyViewers as err:
        raise HTTPException(status.HTTP_503_SERVICE_UNAVAILABLE, str(err),
                            headers={"Retry-After": "5"}) from err
    if session is not None and not desk.live(session):  # it ended while we subscribed
        table.unsubscribe(sub)
        raise _LAPSED
    try:
        count, sent, missed = (0, 0, "") if after is None else await _catch_up(table, after,
                                                                               sight)
    except BaseException:
        table.unsubscribe(sub)
        raise
    more = count >= table.limits.catch_up  # the viewer reconnects for the next batch

    async def stream() -> AsyncIterator[str]:
        nonlocal sent
        try:
            yield "retry: 1000\n: paigow table events\n\n"
            if missed:
                yield missed
            if more:
                return
            while True:
                try:
                    async with asyncio.timeout(KEEPALIVE):
                        first = await sub.queue.get()
                except TimeoutError:
                    yield ": keepalive\n\n"
                    continue
                items = [first]
                while items[-1] is not None and not sub.queue.empty():
                    items.append(sub.queue.get_nowait())  # a burst goes out as one write
                chunk = []
                for item in items:
                    if item is None:
                        break
                    seq, text = item
                    if seq > sent:
                        sent = seq
                        chunk.append(frame(seq, text))
                if chunk:
                    yield "".join(chunk)
                if items[-1] is None:
                    return
        finally:
            table.unsubscribe(sub)

    return StreamingResponse(stream(), media_type="text/event-stream",
                             headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})
