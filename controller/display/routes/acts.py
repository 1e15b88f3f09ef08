"""``POST /api/round/...``: the dealer's and supervisor's acts, each journaled with who did it.

Every act needs a bearer token (401 without one); a role the act does not allow is refused
with 403 before the engine is asked; the engine's own refusal (wrong phase, active fault, bad
value) is 409 with its reason.  The answer lists the records the act appended.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Path, status
from pydantic import BaseModel, Field
from typing_extensions import TypedDict  # pydantic needs it on Python < 3.12

from ...live.visibility import record_for, sight_of
from ...round import ROLES, IllegalActError, Who
from ..deps import OperatorDep, TableDep
from ..inputs import WORD_MAX, Cents, Position, PositiveCents, Reason, Ref, Text, Word
from ..table import Table

router = APIRouter(prefix="/api/round", tags=["acts"])


class ActDone(TypedDict):
    """What an act wrote: its name, who did it, and the records it appended."""

    act: str
    actor: str
    role: str
    records: list[dict[str, Any]]


def run(table: Table, act: str, who: Who, *args: Any, **kwargs: Any) -> ActDone:
    """Check the role, do the act through the table, answer with its records."""
    allowed = ROLES[act]
    if who.role not in allowed:
        need = " or ".join(sorted(role.value for role in allowed))
        raise HTTPException(status.HTTP_403_FORBIDDEN,
                            f"{who.actor!r} ({who.role.value}) may not {act}: it needs {need}")
    records = table.act(act, who, *args, **kwargs)
    return {"act": act, "actor": who.actor, "role": who.role.value,
            "records": [record_for(sight_of(who), r) for r in records]}  # no seed, ever


class OpenBody(BaseModel):
    """Open a round (its id defaults to the next record number)."""

    round_id: Word | None = None


class BetBody(BaseModel):
    """A position's wager (at home play its ante, 0 when it need not ante) and Fortune bet, in
    cents; the table checks them against its limits."""

    position: Position
    wager: Cents
    fortune: Cents = 0


class BankBody(BaseModel):
    """A player banks this round with ``amount`` cents."""

    position: Position
    amount: PositiveCents


class HandBody(BaseModel):
    """A position's setting (``LOW / HIGH``), or its hand (house way sets it), or neither
    when the shuffler dealt it (house way)."""

    position: Position
    setting: Word | None = None
    hand: Word | None = None


class DealerBody(BaseModel):
    """The dealer's setting or hand; neither: the house way on the dealt hand."""

    setting: Word | None = None
    hand: Word | None = None


class CameraBody(BaseModel):
    """Which position the camera reads."""

    position: Position


class CorrectBody(BaseModel):
    """A correction of record ``ref``: a bet's wager (0 withdraws it) or a setting; once the
    hands are exposed, a supervisor's setting with a ``reason``."""

    ref: Ref
    wager: Cents | None = None
    fortune: Cents = 0
    setting: Word | None = None
    reason: Text | None = None


class OfferBody(BaseModel):
    """Offer the bank to the position in turn, or to ``position`` (passing over empty seats)."""

    position: Position | None = None


class CutBody(BaseModel):
    """A named Pai Gow cut and its options, e.g. ``cup-say`` with side and level; or the text
    form ``cup-say:right,top`` with no options."""

    cut: Word = Field(min_length=1)
    options: dict[Word, Word] | None = Field(None, max_length=8)


class HouseWayBody(BaseModel):
    """The player at ``position`` asks for the house way (tiles: give the four tiles)."""

    position: Position
    hand: Word | None = None


class RepeatBody(BaseModel):
    """"Deal": ``position`` bets its last wager again."""

    position: Position


class ClearBody(BaseModel):
    """Why the fault is cleared."""

    text: Text = ""


class VoidBody(BaseModel):
    """Why the round is voided."""

    reason: Reason


@router.post("/open")
def open_round(table: TableDep, who: OperatorDep, body: OpenBody | None = None) -> ActDone:
    """Open a round: bets next."""
    return run(table, "open_round", who, body.round_id if body else None)


@router.post("/bets")
def take_bet(table: TableDep, who: OperatorDep, body: BetBody) -> ActDone:
    """Enter a position's bet (within the table limits)."""
    return run(table, "take_bet", who, body.position, body.wager, body.fortune)


@router.post("/bank")
def bank(table: TableDep, who: OperatorDep, body: BankBody) -> ActDone:
    """A player banks (supervisor only)."""
    return run(table, "bank", who, body.position, body.amount)


@router.post("/offer-bank")
def offer_bank(table: TableDep, who: OperatorDep, body: OfferBody | None = None) -> ActDone:
    """Banking rotation: offer the bank for this round (to the position in turn by default)."""
    return run(table, "offer_bank", who, body.position if body else None)


@router.post("/decline-bank")
def decline_bank(table: TableDep, who: OperatorDep) -> ActDone:
    """Banking rotation: the offered position declines; the house banks this round."""
    return run(table, "decline_bank", who)


@router.post("/repeat-bet")
def repeat_bet(table: TableDep, who: OperatorDep, body: RepeatBody) -> ActDone:
    """"Deal" at a table that repeats wagers: the position's last wager, bet again."""
    with table.lock:  # the wager read and the bet taken with no act between them
        if not table.engine.game.play.repeat_wager:
            raise IllegalActError("take_bet", f"table profile {table.engine.game.profile!r} "
                                              f"does not repeat wagers")
        wager = table.engine.last_wager(body.position)
        if wager is None:
            raise IllegalActError("take_bet", f"position {body.position!r} has no last wager "
                                              f"to repeat; enter the bet")
        return run(table, "take_bet", who, body.position, wager)


@router.post("/close-bets")
def close_bets(table: TableDep, who: OperatorDep) -> ActDone:
    """No more bets."""
    return run(table, "close_bets", who)


@router.post("/shuffle")
def shuffle(table: TableDep, who: OperatorDep) -> ActDone:
    """Cards: the shuffler shuffles and counts."""
    return run(table, "shuffle", who)


@router.post("/packet")
def deal_packet(table: TableDep, who: OperatorDep) -> ActDone:
    """Cards: the shuffler deals the next packet of seven."""
    return run(table, "deal_packet", who)


@router.post("/woodpile")
def build_woodpile(table: TableDep, who: OperatorDep) -> ActDone:
    """Tiles: the woodpile is built."""
    return run(table, "build_woodpile", who)


@router.post("/roll")
def roll(table: TableDep, who: OperatorDep) -> ActDone:
    """Shake the dice: the first position."""
    return run(table, "roll", who)


@router.post("/hands")
def set_hand(table: TableDep, who: OperatorDep, body: HandBody) -> ActDone:
    """Record how a position set its hand."""
    return run(table, "set_hand", who, body.position, body.setting, body.hand)


@router.post("/house-way")
def play_house_way(table: TableDep, who: OperatorDep, body: HouseWayBody) -> ActDone:
    """"Play the house way": the player asks, the house way sets the hand (journaled as the
    player's request)."""
    return run(table, "play_house_way", who, body.position, body.hand)


@router.post("/cut")
def cut(table: TableDep, who: OperatorDep, body: CutBody) -> ActDone:
    """Tiles: the banker's Pai Gow cut, called before the woodpile is dealt (``GET /api/cuts``
    lists them)."""
    return run(table, "cut", who, body.cut, body.options)


@router.post("/dealer")
def expose_dealer(table: TableDep, who: OperatorDep, body: DealerBody | None = None) -> ActDone:
    """Expose the dealer's hand; the house way's setting of it is computed and shown."""
    body = body or DealerBody()
    return run(table, "expose_dealer", who, body.setting, body.hand)


@router.post("/camera")
def read_camera(table: TableDep, who: OperatorDep, body: CameraBody) -> ActDone:
    """The camera reads a position."""
    return run(table, "read_camera", who, body.position)


@router.post("/settle")
def settle(table: TableDep, who: OperatorDep) -> ActDone:
    """The dealer confirms: compare and settle every bet (a deviation is flagged first)."""
    return run(table, "settle", who)


@router.post("/correct")
def correct(table: TableDep, who: OperatorDep, body: CorrectBody) -> ActDone:
    """A correction: a new record naming the one it corrects."""
    return run(table, "correct", who, body.ref, wager=body.wager, fortune=body.fortune,
               setting=body.setting, reason=body.reason)


@router.post("/faults/{fault:path}/clear")
def clear_fault(table: TableDep, who: OperatorDep,
                fault: Annotated[str, Path(max_length=WORD_MAX)],
                body: ClearBody | None = None) -> ActDone:
    """A supervisor clears an active fault."""
    return run(table, "clear_fault", who, fault, body.text if body else "")


@router.post("/void")
def void(table: TableDep, who: OperatorDep, body: VoidBody) -> ActDone:
    """A supervisor voids the round, with a reason."""
    return run(table, "void", who, body.reason)
