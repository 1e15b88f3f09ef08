"""``GET /api/table``: the current round as the dealer screen shows it (open to read)."""

from __future__ import annotations

from fastapi import APIRouter

from ..deps import TableDep
from ..views import TableView

router = APIRouter(prefix="/api", tags=["table"])


@router.get("/table", response_model=TableView)
def read_table(table: TableDep) -> TableView:
    """Phase, seats, bets, hands, the dealer's house-way setting, results and alerts."""
    return table.view()
