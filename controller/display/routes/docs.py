"""``GET /docs``: the API's documentation, served from the table itself.

FastAPI's own ``/docs`` and ``/redoc`` load Swagger UI and ReDoc from a CDN, and a table network
has no internet; fetching ``swagger-ui-dist`` at setup would add an npm step to every install.
So the page is our own (``static/docs.html`` and ``docs.js``): it reads ``/openapi.json`` and
lists every endpoint with its parameters, body and answers; nothing outside the table is loaded.
"""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import HTMLResponse

router = APIRouter(tags=["docs"])
_PAGE = Path(__file__).parent.parent / "static" / "docs.html"


@router.get("/docs", response_class=HTMLResponse, include_in_schema=False)
def docs_page() -> HTMLResponse:
    """The API's endpoints, rendered in the browser from ``/openapi.json``."""
    return HTMLResponse(_PAGE.read_text(encoding="utf-8"))
