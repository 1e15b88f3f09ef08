"""``GET /api/rounds?last=10``: the recall of settled rounds, read from the journal."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query

from ..deps import TableDep

router = APIRouter(prefix="/api", tags=["rounds"])


@router.get("/rounds")
def recall(table: TableDep, last: Annotated[int, Query(ge=1, le=100)] = 10,
           records: Annotated[bool, Query(description="include every step")] = False,
           ) -> dict[str, list[dict[str, Any]]]:
    """The last settled rounds, newest first: hands as set, wagers, outcomes, payouts and
    commission per seat; replayed rounds have ``replay: true``."""
    made = []
    for recall in reversed(table.recall(last)):
        data = dict(recall.to_json())
        if not records:
            data.pop("records", None)
        made.append(data)
    return {"rounds": made}
