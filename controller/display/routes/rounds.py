"""``GET /api/rounds?last=10``: the recall of settled rounds, read from the journal (kept, encoded,
until the table's next act, like ``/api/table``)."""

from __future__ import annotations

import json
from typing import Annotated, Any

from fastapi import APIRouter, Query, Response

from ..deps import TableDep
from ..table import Table

router = APIRouter(prefix="/api", tags=["rounds"])


def recall_json(table: Table, last: int, records: bool) -> bytes:
    """The recall as the route answers it, encoded."""
    made = []
    for recall in reversed(table.recall(last)):
        data = dict(recall.to_json())
        if not records:
            data.pop("records", None)
        made.append(data)
    return json.dumps({"rounds": made}).encode()


@router.get("/rounds", response_model=dict[str, list[dict[str, Any]]])
async def recall(table: TableDep, last: Annotated[int, Query(ge=1, le=100)] = 10,
                 records: Annotated[bool, Query(description="include every step")] = False,
                 ) -> Response:
    """The last settled rounds, newest first: hands as set, wagers, outcomes, payouts and
    commission per seat; replayed rounds have ``replay: true``."""
    body = await table.cache.shared(("rounds", last, records),
                                    lambda: recall_json(table, last, records))
    return Response(body, media_type="application/json")
