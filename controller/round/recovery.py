"""Start-up with a journal holding an open round: resume it by folding its records, or void it.

A Pai Gow Poker round caught between the shuffle and the last packet is voided: the shuffler's
own state did not survive the restart, so packets may have left it unrecorded.  Every other
open round is resumed where its last committed record left it, faults still active.  Of
several open rounds of this game (there should be at most one), only the latest is resumed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .oversight import OversightEngine
from .state import Phase

RESTART_VOIDS = frozenset({Phase.SHUFFLED, Phase.DEALING})
"""Phases a round cannot be resumed from after a restart."""


@dataclass(frozen=True, slots=True)
class Recovery:
    """What start-up did: the round resumed (if any) and the rounds voided, with reasons."""

    resumed: str | None
    phase: Phase | None
    voided: tuple[tuple[str, str], ...]


def recover(engine: OversightEngine[Any]) -> Recovery:
    """Resume or void every open round of the engine's game and mode (real or replay)."""
    mine = [o for o in engine.journal.open_rounds()
            if o.replay == engine.replay and o.records
            and o.records[0].kind == "round_opened"
            and o.records[0].payload().get("game") == engine.game.name]
    mine.sort(key=lambda o: o.records[-1].seq)
    voided: list[tuple[str, str]] = []
    resumed: str | None = None
    phase: Phase | None = None
    for index, open_round in enumerate(mine):
        state = engine.load(open_round.records)
        reason = None
        if index < len(mine) - 1:
            reason = "restart: a later round was opened"
        elif state.phase in RESTART_VOIDS:
            reason = (f"restart during the deal ({state.phase.value}, "
                      f"{len(state.packets)} packets recorded): the shuffler's state is lost")
        if reason is None:
            resumed, phase = state.round_id, state.phase
        else:
            engine.void_on_restart(reason)
            voided.append((state.round_id, reason))
    if resumed is None and engine.round is not None and not engine.round.closed:
        engine.round = None
    return Recovery(resumed, phase, tuple(voided))
