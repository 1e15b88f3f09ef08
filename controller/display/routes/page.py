"""``GET /``: the dealer screen, a plain HTML page (its script and style under ``/static``)."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import HTMLResponse

router = APIRouter(tags=["page"])
_PAGE = Path(__file__).parent.parent / "static" / "index.html"


@router.get("/", response_class=HTMLResponse, include_in_schema=False)
def page() -> HTMLResponse:
    """The page; it renders from ``/api/table`` and re-renders on each event."""
    return HTMLResponse(_PAGE.read_text(encoding="utf-8"))
