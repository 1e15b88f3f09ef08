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

from ...journal.canonical import Json
from ..deps import TableDep

router = APIRouter(prefix="/api", tags=["events"])
KEEPALIVE = 15.0
"""Seconds of quiet before a comment line keeps proxies from closing the stream."""


def frame(record: Json) -> str:
    """One record as a server-sent event."""
    return f"id: {record['seq']}\nevent: record\ndata: {json.dumps(record)}\n\n"


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
                yield frame(record.to_json())
            while True:
                try:
                    item = await asyncio.wait_for(sub.queue.get(), KEEPALIVE)
                except TimeoutError:
                    yield ": keepalive\n\n"
                    continue
                if item is None:
                    return
                if isinstance(item["seq"], int) and item["seq"] > sent:
                    sent = item["seq"]
                    yield frame(item)
        finally:
            table.unsubscribe(sub)

    return StreamingResponse(stream(), media_type="text/event-stream",
                             headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})
