"""``GET /api/table``: the current round as the dealer screen shows it (open to read).

Every viewer asks on every event, so the answer is kept, encoded, until the next act
(``cache``): made once per act in a worker thread, then sent from the event loop.
"""

from __future__ import annotations

import json

from fastapi import APIRouter, Response

from ..deps import TableDep
from ..table import Table
from ..views import TableView

router = APIRouter(prefix="/api", tags=["table"])


def table_json(table: Table) -> bytes:
    """The view, encoded."""
    return json.dumps(table.view()).encode()


@router.get("/table", response_model=TableView)
async def read_table(table: TableDep) -> Response:
    """Phase, seats, bets, hands, the dealer's house-way setting, results and alerts."""
    body = await table.cache.shared("table", lambda: table_json(table))
    return Response(body, media_type="application/json")
