"""The felt's states over one round of either game, in the order a dealer brings them about.

``round_steps`` turns a round's truth (what each position was dealt and how it was set, the
dice, which seats bet) into timeline steps (``vision.table_video.timeline``):

0. the empty felt;
1. the bets: chips on the betting seats' circles;
2. the dice at rest in the dice area;
3. the deal: a face-down packet (stack) in every position's high box, the dealer's included;
4. the dealer's hand set and turned up in the dealer's boxes;
5. each seat in turn, from the dealer's right: its packet gone, its low and high hands up;
6. the felt cleared.

Each step comes ``pause`` seconds after the felt is still again from the last.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..layout import DICE
from .state import PACKET_SIZES, Chips, Content, Dice, Game, Hand, Packet, TableState
from .timeline import Motion, Step

DEALER = "dealer"


def round_steps(game: Game, settings: Mapping[str, tuple[Sequence[str], Sequence[str]]],
                dice: Sequence[int], bets: Mapping[str, int], start: float = 0.0,
                motion: Motion | None = None, pause: float = 0.5) -> list[Step]:
    """The steps of one round: ``settings`` maps each position (``"dealer"``, ``"seat2"``,
    ...) to its low and high hand's codes, ``bets`` each betting seat to its chips."""
    motion = motion or Motion()
    seats = sorted((p for p in settings if p != DEALER), key=lambda p: int(p[4:]))
    states: list[TableState] = [TableState(game)]
    held: dict[str, Content] = {f"{seat}.bet": Chips(n) for seat, n in bets.items()}
    states.append(TableState.of(game, held))
    held[DICE] = Dice(tuple(dice))
    states.append(TableState.of(game, held))
    for position in settings:
        held[f"{position}.high"] = Packet(PACKET_SIZES[game])
    states.append(TableState.of(game, held))
    for position in ([DEALER] if DEALER in settings else []) + seats:
        low, high = settings[position]
        held[f"{position}.low"] = Hand(tuple(low))
        held[f"{position}.high"] = Hand(tuple(high))
        states.append(TableState.of(game, held))
    states.append(TableState(game))
    steps = [Step(start, states[0])]
    for k, state in enumerate(states[1:], 1):
        # The arm that brought the last state about, then the still felt, then a pause.
        arm = motion.arm_time(len(states[k - 2].changed(states[k - 1]))) if k > 1 else 0.0
        steps.append(Step(round(steps[-1].t + arm + motion.settle + pause, 6), state))
    return steps
