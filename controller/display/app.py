"""``create_app(table, settings)``: the dealer display's FastAPI app (a thin web layer).

Routers per resource live in ``routes/``; the page and its script in ``static/``.  Refused acts
become HTTP errors here, in one place: a missing or unknown token 401, a role that may not do
the act 403, an act the round's state refuses 409, a device that stopped answering 503.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI, Request, status
from fastapi.concurrency import run_in_threadpool
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles

from ..errors import ControllerError
from ..round import DeviceLostError, IllegalActError, RoleError
from .guard import Guard, HostCheck, open_writes
from .inputs import invalid
from .routes import acts, audit, cuts, docs, events, frames, operator, page, rounds
from .routes import table as table_route
from .settings import DisplaySettings
from .sign_in import SWEEP_SECONDS, Desk
from .table import Table

STATIC = Path(__file__).with_name("static")
_log = logging.getLogger(__name__)


def _refused(status_code: int, err: IllegalActError | DeviceLostError) -> JSONResponse:
    body = {"detail": str(err), "act": getattr(err, "act", None),
            "reason": getattr(err, "reason", str(err)), "error": type(err).__name__}
    return JSONResponse(body, status_code=status_code)


async def _sweep_sessions(app: FastAPI) -> None:
    """Every ``SWEEP_SECONDS``, end the sessions over their time, and their streams, whether or
    not a request comes (``Desk.sweep``)."""
    while True:
        await asyncio.sleep(SWEEP_SECONDS)
        desk: Desk = app.state.desk  # read afresh: a program may set its own desk
        if not desk.sweep_due():
            continue
        try:
            await run_in_threadpool(desk.sweep)
        except ControllerError:  # the journal refused the record: the next sweep tries again
            _log.exception("ending expired sessions")


def create_app(table: Table, settings: DisplaySettings | None = None, *,
               recover: bool = True) -> FastAPI:
    """The app for one table; on start-up it recovers a round a crash left open."""
    settings = settings or DisplaySettings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        if recover:
            table.recover()
        sweeper = asyncio.create_task(_sweep_sessions(app))
        try:
            yield
        finally:
            sweeper.cancel()
            table.close()

    app = FastAPI(title=settings.title, summary="Dealer display and table API",
                  lifespan=lifespan, docs_url=None, redoc_url=None)  # /docs is ours: offline
    app.state.table = table
    app.state.settings = settings
    app.state.desk = Desk(table, settings)  # staff sign-in and sessions (sign_in.py)

    @app.exception_handler(RoleError)
    async def role_refused(request: Request, err: RoleError) -> JSONResponse:
        return _refused(status.HTTP_403_FORBIDDEN, err)

    @app.exception_handler(IllegalActError)
    async def act_refused(request: Request, err: IllegalActError) -> JSONResponse:
        return _refused(status.HTTP_409_CONFLICT, err)

    @app.exception_handler(RequestValidationError)
    async def bad_value(request: Request, err: RequestValidationError) -> JSONResponse:
        return JSONResponse({"detail": invalid(err.errors())},
                            status_code=status.HTTP_422_UNPROCESSABLE_CONTENT)

    @app.exception_handler(DeviceLostError)
    async def device_lost(request: Request, err: DeviceLostError) -> JSONResponse:
        return _refused(status.HTTP_503_SERVICE_UNAVAILABLE, err)

    for module in (table_route, rounds, frames, acts, cuts, operator, audit, events, page,
                   docs):
        app.include_router(module.router)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.add_middleware(Guard, hosts=HostCheck(settings.hosts),
                       open_writes=open_writes(app))
    return app
