"""View models for how a table plays: the bank offer (rotation), the pot (home play), the
repeated wager (heads-up) and the tile cut.

As in ``views``, nothing here decides a rule: whose turn the bank is comes from
``engine.bank_turn()``, the ante due from ``engine.ante_due(p)``, the pot's outcome from the
``pot`` block of the settle record, the cut from the round's ``cut`` record.
"""

from __future__ import annotations

from typing import Any

from typing_extensions import TypedDict  # pydantic needs it on Python < 3.12

from ..round import IllegalActError
from ..round.oversight import OversightEngine
from ..rules.poker.dealing import HOUSE
from ..rules.tiles.cuts import Cut


class PlayView(TypedDict):
    """The profile's way of play: ``mode`` bank or pot, ``banking`` house or rotation."""

    mode: str
    banking: str
    repeat_wager: bool


class BankView(TypedDict):
    """Who is offered the bank this round, whether they declined, who banks and with what."""

    turn: int | None
    offered: int | None
    declined: bool
    banker: int | None
    amount: int | None
    text: str


class PotView(TypedDict):
    """Home play: the pot carried in, the ante, who need not ante, and the deal's outcome."""

    pot: int
    ante: int
    exempt: list[int]
    winner: int | None
    total: int | None
    carry: int | None
    best_low: list[int]
    best_high: list[int]
    text: str


class CutView(TypedDict):
    """The cut called this round (tiles), as journaled, and the line the screen shows."""

    cut: str
    name: str
    english: str
    options: dict[str, str]
    source: str
    effect: Any
    seq: int
    text: str


def dollars(cents: int) -> str:
    """Cents as dollars: ``42.50``."""
    return f"{cents // 100}.{cents % 100:02d}"


def play_view(engine: OversightEngine[Any]) -> PlayView:
    """The profile's ``[play]`` table."""
    play = engine.game.play
    return {"mode": play.mode.value, "banking": play.banking.value,
            "repeat_wager": play.repeat_wager}


def bank_view(engine: OversightEngine[Any]) -> BankView | None:
    """The banking rotation's state (None at a table without one)."""
    if not engine.game.play.rotation:
        return None
    state = engine.round
    live = state is not None and not state.closed
    offered = state.bank_offer if state is not None else None
    declined = bool(state and state.bank_declined)
    banker = state.banker if state is not None and state.banker != HOUSE else None
    amount = state.bank if banker is not None and state is not None else None
    turn = None if offered is not None and live else engine.bank_turn()
    if not live:
        text = f"the bank is to be offered to position {turn} (in turn)"
    elif banker is not None and amount is not None:
        text = f"position {banker} banks ({dollars(amount)})"
    elif declined:
        text = f"position {offered} declined the bank: the house banks"
    elif offered is not None:
        text = f"the bank is offered to position {offered}"
    else:
        text = f"the bank is to be offered to position {turn} (in turn)"
    return {"turn": turn, "offered": offered, "declined": declined, "banker": banker,
            "amount": amount, "text": text}


def pot_view(engine: OversightEngine[Any]) -> PotView | None:
    """Home play's pot: standing for the open (or next) deal, and the settled deal's outcome
    read from its settle record's ``pot`` block."""
    rules = engine.game.play.pot
    if rules is None:
        return None
    state = engine.round
    status = engine.pot_status()
    if state is not None and state.pot is not None:
        status = state.pot  # what this round carried in, also once it is settled
    settled = (state.settlement or {}).get("pot") if state is not None else None
    view: PotView = {"pot": status.pot, "ante": rules.ante, "exempt": sorted(status.exempt),
                     "winner": None, "total": None, "carry": None, "best_low": [],
                     "best_high": [],
                     "text": f"pot {dollars(status.pot)}, ante {dollars(rules.ante)}"}
    if isinstance(settled, dict):
        view["winner"], view["total"] = settled.get("winner"), settled.get("total")
        view["carry"] = settled.get("carry")
        view["best_low"] = list(settled.get("best_low", []))
        view["best_high"] = list(settled.get("best_high", []))
        if view["winner"] is not None:
            view["text"] = (f"position {view['winner']} takes the pot of "
                            f"{dollars(int(view['total'] or 0))}")
        else:
            exempt = ", ".join(str(p) for p in settled.get("exempt_next", [])) or "nobody"
            low = ", ".join(str(p) for p in view["best_low"]) or "none"
            high = ", ".join(str(p) for p in view["best_high"]) or "none"
            view["text"] = (f"no player holds both highest hands (best low: {low}; best high: "
                            f"{high}): the pot of {dollars(int(view['carry'] or 0))} is carried; "
                            f"not anteing next: {exempt}")
    if status.exempt and not isinstance(settled, dict):
        view["text"] += "; not anteing: " + ", ".join(str(p) for p in sorted(status.exempt))
    return view


def ante_due(engine: OversightEngine[Any], position: int) -> int | None:
    """What ``position`` antes for the open (or next) deal at a pot table, else None."""
    if engine.game.play.pot is None or position == HOUSE:
        return None
    try:
        return engine.ante_due(position)
    except IllegalActError:
        return None


def last_wager(engine: OversightEngine[Any], position: int) -> int | None:
    """At a ``repeat_wager`` table, the wager "Deal" repeats for ``position``, else None."""
    if not engine.game.play.repeat_wager or position == HOUSE:
        return None
    return engine.last_wager(position)


def cut_view(engine: OversightEngine[Any]) -> CutView | None:
    """The cut called this round (tiles), or None."""
    find = getattr(engine, "cut_record", None)
    record = find() if find is not None else None
    if record is None:
        return None
    data = record.payload()
    options = dict(Cut.from_json(data).options)  # the cut's own order (the journal sorts keys)
    chosen = ", ".join(f"{option} {value}" for option, value in options.items())
    text = f"{data['name']} ({data['english']})" + (f": {chosen}" if chosen else "")
    effect = data.get("effect")
    if effect == "recorded only":
        text += " (recorded only: the deal is the standard woodpile count)"
    return {"cut": str(data["cut"]), "name": str(data["name"]), "english": str(data["english"]),
            "options": options, "source": str(data.get("source", "")), "effect": effect,
            "seq": record.seq, "text": text}
