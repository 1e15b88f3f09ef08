"""Signing in and out: ``POST /api/session`` (staff id and PIN -> a session token), ``DELETE
/api/session`` (sign out), ``GET /api/operator`` (who a token stands for, so the page can show
who is signed in)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, HTTPException, status
from pydantic import BaseModel, ConfigDict, Field
from typing_extensions import TypedDict  # pydantic needs it on Python < 3.12

from ...round import ROLES, Who
from ...staff.pins import PIN_MAX
from ..deps import BearerDep, DeskDep, OperatorDep
from ..sign_in import SignInRefused

router = APIRouter(prefix="/api", tags=["operator"])


class OperatorView(TypedDict):
    """The operator behind a token: id, name, role and the acts that role may ask for."""

    actor: str
    name: str
    role: str
    acts: list[str]


class SessionView(OperatorView):
    """A new session: its token (keep it; it is shown once) and how long it may last."""

    token: str
    idle_seconds: float
    max_seconds: float


class SignIn(BaseModel):
    """A member of staff signing in: staff id and PIN."""

    model_config = ConfigDict(extra="forbid")
    staff: Annotated[str, Field(min_length=1, max_length=32, description="staff id")]
    pin: Annotated[str, Field(min_length=1, max_length=PIN_MAX, description="the PIN")]


class SignedOut(TypedDict):
    """Who signed out."""

    signed_out: str
    role: str


def _view(who: Who, name: str) -> OperatorView:
    return {"actor": who.actor, "name": name, "role": who.role.value,
            "acts": sorted(act for act, roles in ROLES.items() if who.role in roles)}


@router.get("/operator", response_model=OperatorView)
def operator(who: OperatorDep, desk: DeskDep) -> OperatorView:
    """The dealer or supervisor the token names; 401 for a missing, unknown or ended token."""
    return _view(who, desk.name(who))


@router.post("/session", response_model=SessionView)
def sign_in(body: SignIn, desk: DeskDep) -> SessionView:
    """Sign in with staff id and PIN; a dealer relieves the dealer on duty.  401 for an unknown
    id or a wrong PIN alike, 429 after repeated failures for one id."""
    try:
        token, member = desk.sign_in(body.staff, body.pin)
    except SignInRefused as err:
        if err.wait:
            raise HTTPException(status.HTTP_429_TOO_MANY_REQUESTS, str(err),
                                headers={"Retry-After": str(max(1, round(err.wait)))}) from err
        raise HTTPException(status.HTTP_401_UNAUTHORIZED, str(err)) from err
    view, rules = _view(member.who, member.name), desk.sessions.rules
    return {"actor": view["actor"], "name": view["name"], "role": view["role"],
            "acts": view["acts"], "token": token, "idle_seconds": rules.idle,
            "max_seconds": rules.longest}


@router.delete("/session", response_model=SignedOut)
def sign_out(who: OperatorDep, desk: DeskDep, credentials: BearerDep) -> SignedOut:
    """Sign out: the token stops working at once (a standing token stays)."""
    if credentials is not None:
        desk.sign_out(credentials.credentials)
    return {"signed_out": who.actor, "role": who.role.value}
