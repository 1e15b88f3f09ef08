"""The dealer display: a FastAPI app over one table (``create_app(table, settings)``).

``Table`` holds the round engine and its journal and serialises acts; ``views`` turns the
engine's state into the JSON the page renders (with the acts each role could do now, from the
engine's ``can_x``), ``play_views`` the bank offer, home play's pot, the repeated wager and the
tile cut; ``cache`` keeps the encoded view and recall until the next act, so many
screens cost one view per act; ``routes/`` has one router per resource; the page
(``static/``) is plain HTML and JavaScript fed by server-sent events: ``display.js`` renders,
``pieces.js`` draws cards and tiles as SVG, ``acts.js`` signs an operator in with a token
(``/api/operator``) and offers every act as a control that calls the JSON API and shows the
answer, a refusal with its reason included.  ``/docs`` is the API's documentation drawn from
``/openapi.json`` by our own page (``static/docs.html``): nothing is fetched from outside the
table network.
"""

from __future__ import annotations

from .app import create_app
from .settings import DisplaySettings, DisplaySettingsError
from .table import Table

__all__ = ["DisplaySettings", "DisplaySettingsError", "Table", "create_app"]
