"""``GET /api/cuts``: the named Pai Gow cuts a tile banker may call, with their options."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from ...rules.tiles.cuts import cut_catalog

router = APIRouter(prefix="/api", tags=["cuts"])


@router.get("/cuts")
def cuts() -> dict[str, list[dict[str, Any]]]:
    """Every named cut in the source's order: its key, names, options with their values, the
    line that names it and whether it changes the deal (all are recorded only)."""
    return {"cuts": cut_catalog()}
