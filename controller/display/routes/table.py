"""``GET /api/table``: the current round as the viewer may see it (open to read: without a
token, as the public sees the table; ``visibility`` and ``docs/security.md`` say what each role
sees).

Every viewer asks on every event, so the answer is kept, encoded, once per sight until the
next act (``cache``): made once per act and sight in a worker thread, then sent from the event
loop.
"""

from __future__ import annotations

import json

from fastapi import APIRouter, Response

from ...live.visibility import Sight, sight_of
from ..deps import TableDep, ViewerDep
from ..table import Table
from ..views import TableView

router = APIRouter(prefix="/api", tags=["table"])


def table_json(table: Table, sight: Sight) -> bytes:
    """The view as ``sight`` may see it, encoded."""
    return json.dumps(table.view(sight)).encode()


@router.get("/table", response_model=TableView)
async def read_table(table: TableDep, viewer: ViewerDep) -> Response:
    """Phase, seats, bets, the hands this viewer may see, the dealer's setting (and for an
    operator the house way's), results and alerts."""
    sight = sight_of(viewer)
    body = await table.cache.shared(("table", sight), lambda: table_json(table, sight))
    return Response(body, media_type="application/json")
