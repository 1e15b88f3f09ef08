"""``GET /api/operator``: who a bearer token stands for, so the page can sign the dealer in."""

from __future__ import annotations

from fastapi import APIRouter
from typing_extensions import TypedDict  # pydantic needs it on Python < 3.12

from ...round import ROLES
from ..deps import OperatorDep

router = APIRouter(prefix="/api", tags=["operator"])


class OperatorView(TypedDict):
    """The operator behind a token: name, role and the acts that role may ask for."""

    actor: str
    role: str
    acts: list[str]


@router.get("/operator", response_model=OperatorView)
def operator(who: OperatorDep) -> OperatorView:
    """The dealer or supervisor the token names; 401 for a missing or unknown token."""
    return {"actor": who.actor, "role": who.role.value,
            "acts": sorted(act for act, roles in ROLES.items() if who.role in roles)}
