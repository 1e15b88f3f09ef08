"""``GET /api/rounds?last=10``: the recall of settled rounds, read from the journal (kept, encoded,
once per sight until the table's next act, like ``/api/table``).

A settled round's hands were all turned up, so every viewer sees the settings; with
``records=true`` each step is filtered for the viewer like the event stream (``visibility``):
the public never sees a packet's cards, a hash or a seed.  The supervisor's recall also
names, in ``frames``, the still frame the camera kept for each read (``GET /api/frames/FILE``
opens it: ``routes.frames``).
"""

from __future__ import annotations

import json
from typing import Annotated, Any

from fastapi import APIRouter, Query, Response

from ...live.visibility import Sight, records_for, showdown_seq, sight_of
from ..deps import TableDep, ViewerDep
from ..table import Table
from .frames import frames_of

router = APIRouter(prefix="/api", tags=["rounds"])

_SUMMARY = ("round_id", "replay", "settled_seq", "ts", "game", "profile", "positions", "mode",
            "banker", "banker_setting", "banker_net", "bank", "seats", "pot", "carry", "winner",
            "total", "exempt", "exempt_next", "best_low", "best_high", "antes", "hands")
"""The recall's fields every sight sees (a settled round's results, its hands as set)."""


def recall_json(table: Table, last: int, records: bool, sight: Sight = Sight.SUPERVISOR,
                ) -> bytes:
    """The recall as the route answers it to ``sight``, encoded."""
    made = []
    for recall in reversed(table.recall(last)):
        full = dict(recall.to_json())
        data = full if sight is Sight.SUPERVISOR else {
            key: value for key, value in full.items() if key in _SUMMARY}
        data.pop("records", None)
        if sight is Sight.SUPERVISOR:  # each read's kept frame, for disputes (routes.frames)
            data["frames"] = frames_of(recall.records)
        if records:
            shown = showdown_seq(recall.records) or recall.settle.seq
            data["records"] = records_for(sight, recall.records, {recall.round_id: shown})
        made.append(data)
    return json.dumps({"rounds": made}).encode()


@router.get("/rounds", response_model=dict[str, list[dict[str, Any]]])
async def recall(table: TableDep, viewer: ViewerDep,
                 last: Annotated[int, Query(ge=1, le=100)] = 10,
                 records: Annotated[bool, Query(description="include every step")] = False,
                 ) -> Response:
    """The last settled rounds, newest first: hands as set, wagers, outcomes, payouts and
    commission per seat; replayed rounds have ``replay: true``; with ``records`` every step as
    this viewer may see it."""
    sight = sight_of(viewer)
    body = await table.cache.shared(("rounds", last, records, sight),
                                    lambda: recall_json(table, last, records, sight))
    return Response(body, media_type="application/json")
