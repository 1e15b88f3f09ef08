"""Dependencies the routers share: the table, the settings, and the operator behind a token."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, HTTPException, Request, status
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from ..round import Who
from .settings import DisplaySettings
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


TableDep = Annotated[Table, Depends(get_table)]
SettingsDep = Annotated[DisplaySettings, Depends(get_settings)]


async def get_operator(
        credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
        settings: SettingsDep) -> Who:
    """The dealer or supervisor whose bearer token came with the request; 401 otherwise."""
    challenge = {"WWW-Authenticate": "Bearer"}
    if credentials is None:
        raise HTTPException(status.HTTP_401_UNAUTHORIZED,
                            "acts need a dealer's or supervisor's token: send "
                            "'Authorization: Bearer TOKEN'", headers=challenge)
    who = settings.who(credentials.credentials)
    if who is None:
        raise HTTPException(status.HTTP_401_UNAUTHORIZED,
                            "unknown token: no dealer or supervisor has it", headers=challenge)
    return who


OperatorDep = Annotated[Who, Depends(get_operator)]


async def get_viewer(
        credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
        settings: SettingsDep) -> Who | None:
    """The operator behind the request's bearer token, or None for an anonymous viewer (the
    public side of the display); an unknown token is refused (401), never taken as anonymous."""
    if credentials is None:
        return None
    who = settings.who(credentials.credentials)
    if who is None:
        raise HTTPException(status.HTTP_401_UNAUTHORIZED,
                            "unknown token: no dealer or supervisor has it",
                            headers={"WWW-Authenticate": "Bearer"})
    return who


ViewerDep = Annotated[Who | None, Depends(get_viewer)]
"""Who is looking: an operator, or None for the public."""
