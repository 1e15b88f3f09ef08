"""What each role is offered now: the acts the page may enable, from the engine's own
``verify_x`` / ``can_x`` asked for that role, so no rule is restated here (a dealer is not
offered a correction once the hands are exposed because the engine refuses it, not because this
module says so)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..live.visibility import Sight
from ..round import IllegalActError, PiecesUnknownError, Who
from ..round.oversight import OversightEngine
from ..rules.poker.dealing import HOUSE
from .play_views import ante_due, last_wager

_PLAIN_ACTS = ("open_round", "close_bets", "shuffle", "deal_packet", "build_woodpile", "roll",
               "expose_dealer", "settle")
"""Acts that need no arguments: the page can offer them as buttons when ``can_x`` allows."""

_WHO = {Sight.DEALER: Who.dealer(), Sight.SUPERVISOR: Who.supervisor()}
"""Whom each sight's seat acts are asked for (the public is offered none)."""
_ANY_REASON = "a reason"
"""Stands in for the text an act needs when only asking whether it could be done now."""
_ANY_CUT = "foot-say"
"""A named cut with no options: stands in for the banker's call when asking ``can_cut``."""


def role_acts(engine: OversightEngine[Any], who: Who, faults: Sequence[str],
              machine: frozenset[str] = frozenset()) -> list[str]:
    """The acts ``who`` could do now: the plain ones, and those whose arguments the page asks
    for (``void``, ``bank``, ``clear_fault``) asked with stand-in values; never the acts the
    table's own loop does (``machine``)."""
    allowed = []
    for act in _PLAIN_ACTS:
        if act in machine:
            continue
        check: Callable[[Who], bool] | None = getattr(engine, f"can_{act}", None)
        if check is not None and check(who):
            allowed.append(act)
    state = engine.round
    bank_position = state.bank_offer if state is not None and state.bank_offer else 2
    can_cut: Callable[[Who, str], bool] | None = getattr(engine, "can_cut", None)
    asks: dict[str, Callable[[], bool]] = {
        "void": lambda: engine.can_void(who, _ANY_REASON),
        "bank": lambda: engine.can_bank(who, bank_position, 1),
        "clear_fault": lambda: any(engine.can_clear_fault(who, f) for f in faults),
        "offer_bank": lambda: engine.can_offer_bank(who),
        "decline_bank": lambda: engine.can_decline_bank(who),
        "cut": lambda: can_cut is not None and can_cut(who, _ANY_CUT),
    }
    allowed.extend(act for act, ask in asks.items() if ask())
    return allowed


def _offered(verify: Callable[[], object]) -> bool:
    """Whether the engine takes an act now given the input the page asks for: refused only for
    want of pieces no device told (``PiecesUnknownError``: the operator keys them in), it is
    still offered."""
    try:
        verify()
    except PiecesUnknownError:
        return True
    except IllegalActError:
        return False
    return True


def seat_acts(engine: OversightEngine[Any], position: int, sight: Sight) -> list[str]:
    """What the page may offer ``sight``'s role at one position now (nothing to the public):
    bet, repeat the last wager, correct the bet, set the hand or play the house way (the
    dealer's own hand: expose it), correct the setting (after exposure: a supervisor's, with a
    reason), read it with the camera.  Each is the engine's ``verify_x`` / ``can_x`` for that
    role, asked with what stands now (the bet, the setting) or stand-ins (the table's minimum,
    a reason)."""
    state, who = engine.round, _WHO.get(sight)
    if who is None or state is None or state.closed:
        return []
    acts = []
    stake = ante_due(engine, position)
    if stake is None:
        stake = engine.game.limits.min_bet
    if engine.can_take_bet(who, position, stake):
        acts.append("take_bet")
    repeat = last_wager(engine, position)
    if repeat is not None and engine.can_take_bet(who, position, repeat):
        acts.append("repeat_bet")
    standing = state.bets.get(position)
    if standing is not None and engine.can_correct(who, standing[1], wager=standing[0].wager,
                                                   fortune=standing[0].fortune):
        acts.append("correct_bet")
    if position == HOUSE:  # the dealer's hand (also when a player banks) is exposed, not set
        if _offered(lambda: engine.verify_expose_dealer(who)):
            acts.append("expose_dealer")
    else:
        if _offered(lambda: engine.verify_set_hand(who, position)):
            acts.append("set_hand")
        if _offered(lambda: engine.verify_play_house_way(who, position)):
            acts.append("play_house_way")
    seq = setting_seq(state, position)
    if seq is not None and engine.can_correct(who, seq, setting=str(engine.entered(position)),
                                              reason=_ANY_REASON):
        acts.append("correct_setting")
    if engine.can_read_camera(who, position):
        acts.append("read_camera")
    return acts


def setting_seq(state: Any, position: int) -> int | None:
    """The record that stands for the position's setting (the one a correction names)."""
    if state is None:
        return None
    if position in state.settings:
        seq: int = state.settings[position].seq
        return seq
    if position == HOUSE and state.exposure is not None:
        exposed: int = state.exposure.seq
        return exposed
    return None
