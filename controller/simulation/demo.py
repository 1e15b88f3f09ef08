"""One whole rules-level round, no devices: shuffle, roll, deal, set, settle.

The journal's tests and ``bench/bench_journal.py`` use it for realistic records; ``paigow
demo`` is now the whole table (``controller/commands/table.py``).

The draws are the only randomness: from ``secrets`` in production style, or seeded for a
repeatable run; the output says which.  Every player asks for the house way here; the round's
records are the rules core's events.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Iterable
from dataclasses import dataclass

from ..errors import ConfigError
from ..profiles.poker import POKER_POSITIONS, TableProfile
from ..rules.dice import Dice
from ..rules.poker.cards import full_deck
from ..rules.poker.dealing import HOUSE, Deal, deal_cards
from ..rules.poker.hands import describe2, describe5
from ..rules.poker.setting import Setting
from ..rules.poker.settlement import Settlement, settle
from ..rules.records import Event
from ..rules.seat import Bet, HandSet, SetBy


@dataclass(frozen=True, slots=True)
class DemoRound:
    """What a demo round did, as event records, and how its draws were made."""

    randomness: str
    deal: Deal
    hands: tuple[HandSet[Setting], ...]
    bets: tuple[Bet, ...]
    settlement: Settlement[Setting]

    def events(self) -> list[Event]:
        """The round's records in the order they happened."""
        return [self.deal.dice, self.deal, *self.bets, *self.hands, self.settlement]


def _rng(seed: int | None) -> tuple[random.Random, str]:
    if seed is None:
        return secrets.SystemRandom(), "secrets (production draws)"
    return random.Random(seed), f"seeded {seed} (test and replay only)"


def play_round(
    profile: TableProfile, *, seed: int | None = None, vacant: Iterable[int] = (),
    wager: int | None = None, way: str | None = None,
) -> DemoRound:
    """Shuffle, roll three dice, deal seven packets, set every hand by the house way, settle.

    Only a banked table of seven positions: a pot (home play) or heads-up profile is refused
    by name (``controller.round.build.table_engine`` plays those)."""
    if profile.play.pot is not None or profile.positions != max(POKER_POSITIONS):
        kind = "plays a pot (home play)" if profile.play.pot is not None else \
            f"has {profile.positions} positions"
        raise ConfigError(f"table profile {profile.name!r} {kind}: play_round deals a banked "
                          f"table of seven; play it through controller.round.build.table_engine")
    rng, randomness = _rng(seed)
    deck = list(full_deck())
    rng.shuffle(deck)
    dice = Dice.of(rng.randint(1, 6) for _ in range(3))
    dealt = deal_cards(deck, dice, frozenset(vacant))
    engine = profile.engine(way)
    hands = tuple(
        HandSet(pos, engine.set_hand(dealt.hand_of(pos)).setting.setting, SetBy.HOUSE_WAY)
        for pos in sorted(dealt.playing)
    )
    stake = wager if wager is not None else profile.settlement.limits.min_bet * 5
    bets = tuple(Bet(h.position, stake) for h in hands if h.position != HOUSE)
    result = settle(hands, bets, engine.evaluator, profile.settlement)
    return DemoRound(randomness, dealt, hands, bets, result)


def describe_round(round_: DemoRound, profile: TableProfile) -> str:
    """The round as the dealer display would show it, in text."""
    ev = profile.evaluator()
    d = round_.deal
    lines = [
        f"table profile {profile.name!r}: {profile.title}; house way {profile.house_way!r}",
        f"randomness: {round_.randomness}",
        f"dice {d.dice} = {d.dice.total}: packet 1 to position {d.first}"
        + (f"; vacant {sorted(d.vacant)} collected" if d.vacant else ""),
    ]
    results = {s.bet.position: s for s in round_.settlement.seats}
    for hand in round_.hands:
        s = hand.setting
        who = "dealer" if hand.position == HOUSE else f"seat {hand.position}"
        words = f"{describe2(ev.rank2(s.low))} / {describe5(ev.rank5(s.high))}"
        line = f"{who:<7} {s!s:<28} {words}"
        seat = results.get(hand.position)
        if seat is not None and seat.comparison is not None:
            line += (f"  -> {seat.comparison.outcome.value} {seat.net / 100:+.2f}"
                     + (f" (commission {seat.commission / 100:.2f})" if seat.commission else ""))
        lines.append(line)
    total = round_.settlement.net_by_position().get(HOUSE, 0)
    commission = round_.settlement.commission_total
    lines.append(f"house net {total / 100:+.2f}, commission {commission / 100:.2f}")
    return "\n".join(lines)
