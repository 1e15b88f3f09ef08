"""Dependencies the routers share: the table, the settings, the sign-in desk, and the operator
behind a session token."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, HTTPException, Request, status
from fastapi.concurrency import run_in_threadpool
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from ..round import Who
from .settings import DisplaySettings
from .sign_in import Desk
from .table import Table

_bearer = HTTPBearer(auto_error=False, description="a dealer's or supervisor's token")


async def get_table(request: Request) -> Table:
    """The table the app was made for."""
    table: Table = request.app.state.table
    return table


async def get_settings(request: Request) -> DisplaySettings:
    """The app's settings."""
    settings: DisplaySettings = request.app.state.settings
    return settings


async def get_desk(request: Request) -> Desk:
    """The app's sign-in desk (staff, sessions)."""
    desk: Desk = request.app.state.desk
    return desk


BearerDep = Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)]
"""The request's bearer credentials, if any (signing out names the session to end)."""
TableDep = Annotated[Table, Depends(get_table)]
SettingsDep = Annotated[DisplaySettings, Depends(get_settings)]
DeskDep = Annotated[Desk, Depends(get_desk)]


async def _session(desk: Desk, token: str | None) -> Who | None:
    """The person behind ``token`` (None: nobody); sessions that ran out are ended first (their
    streams closed, their ends journaled), at any request, off the event loop (the journal
    waits for the table's lock)."""
    if desk.sweep_due():
        await run_in_threadpool(desk.sweep)
    return None if token is None else desk.who(token)


async def get_operator(
        credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
        desk: DeskDep) -> Who:
    """The dealer or supervisor whose session token came with the request; 401 otherwise."""
    challenge = {"WWW-Authenticate": "Bearer"}
    if credentials is None:
        raise HTTPException(status.HTTP_401_UNAUTHORIZED,
                            "acts need a dealer's or supervisor's token: send "
                            "'Authorization: Bearer TOKEN'", headers=challenge)
    who = await _session(desk, credentials.credentials)
    if who is None:
        raise HTTPException(status.HTTP_401_UNAUTHORIZED,
                            "unknown token (or its session ended): sign in again",
                            headers=challenge)
    return who


OperatorDep = Annotated[Who, Depends(get_operator)]


async def get_viewer(
        credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
        desk: DeskDep) -> Who | None:
    """The operator behind the request's bearer token, or None for an anonymous viewer (the
    public side of the display); an unknown token is refused (401), never taken as anonymous."""
    who = await _session(desk, None if credentials is None else credentials.credentials)
    if credentials is None:
        return None
    if who is None:
        raise HTTPException(status.HTTP_401_UNAUTHORIZED,
                            "unknown token (or its session ended): sign in again",
                            headers={"WWW-Authenticate": "Bearer"})
    return who


ViewerDep = Annotated[Who | None, Depends(get_viewer)]
"""Who is looking: an operator, or None for the public."""
