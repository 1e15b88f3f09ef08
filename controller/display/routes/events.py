"""``GET /api/events``: server-sent events, one per journal record, as JSON.

Each event's ``id`` is the record's sequence number, so a browser that reconnects sends
``Last-Event-ID`` and gets the records it missed before the live ones.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Annotated

from fastapi import APIRouter, Header
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import StreamingResponse

from ..deps import TableDep

router = APIRouter(prefix="/api", tags=["events"])
KEEPALIVE = 15.0
"""Seconds of quiet before a comment line keeps proxies from closing the stream."""


def frame(seq: int, text: str) -> str:
    """One record (its sequence number and JSON text) as a server-sent event."""
    return f"id: {seq}\nevent: record\ndata: {text}\n\n"


@router.get("/events", response_class=StreamingResponse,
            responses={200: {"content": {"text/event-stream": {}},
                             "description": "one `record` event per journal record"}})
async def events(table: TableDep,
                 last_event_id: Annotated[int | None, Header()] = None) -> StreamingResponse:
    """Every journal record from now on (and those after ``Last-Event-ID``), as they are
    written."""
    sub = table.subscribe()
    missed = [] if last_event_id is None else await run_in_threadpool(
        table.records_after, last_event_id)

    async def stream() -> AsyncIterator[str]:
        sent = last_event_id or 0
        try:
            yield "retry: 1000\n: paigow table events\n\n"
            for record in missed:
                sent = record.seq
                yield frame(record.seq, json.dumps(record.to_json()))
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
