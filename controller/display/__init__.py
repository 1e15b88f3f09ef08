"""The dealer display: a FastAPI app over one table (``create_app(table, settings)``).

``Table`` holds the round engine and its journal and serialises acts; ``views`` turns the
engine's state into the JSON the page renders; ``routes/`` has one router per resource; the
page (``static/``) is plain HTML and JavaScript fed by server-sent events.
"""

from __future__ import annotations

from .app import create_app
from .settings import DisplaySettings, DisplaySettingsError
from .table import Table

__all__ = ["DisplaySettings", "DisplaySettingsError", "Table", "create_app"]
