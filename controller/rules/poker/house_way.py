"""The one engine that sets a seven-card hand by any house way given as data."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..errors import HouseWayError
from .cards import JOKER_INDEX, Card
from .hand_shape import Pattern, Shape, shape_of
from .hands import FLUSH, STRAIGHT, STRAIGHT_FLUSH, Evaluator, category_of
from .house_way_model import Condition, HouseWay, Rule
from .setting import SPLITS, RankedSetting, Setting, rank_setting, seven


@dataclass(frozen=True, slots=True)
class HouseWayChoice:
    """The house way's setting of a hand and the rule (with its source line) that chose it."""

    setting: RankedSetting
    pattern: Pattern
    rule: str
    source: str
    plays_straight: bool


def _front(shape: Shape, play: str) -> tuple[Card, Card]:
    """The two cards a pattern play puts in the low hand."""
    g, s = shape.groups, shape.singles
    pattern = shape.pattern
    if pattern is Pattern.NO_PAIR:
        return (s[1], s[2])
    if play in ("standard", "together", "keep"):
        return (s[0], s[1])
    if play == "split" and pattern in (Pattern.TWO_PAIR, Pattern.FULL_HOUSE):
        return (g[1][0], g[1][1])
    if play == "split" and pattern is Pattern.TRIPS:
        return (g[0][0], s[0])
    if play == "split":  # quads, quads with a pair or trips, five aces: a pair of the big group
        return (g[0][0], g[0][1])
    index = {
        "highest_pair_front": 0, "middle_pair_front": 1, "lowest_pair_front": 2,
        "higher_pair_front": 0, "lower_pair_front": 1, "pair_front": 1,
    }[play]
    if pattern is Pattern.FULL_HOUSE_TWO_PAIR:
        index += 1  # groups[0] is the trips
    if index >= len(g):
        raise HouseWayError(f"play {play!r} needs a pair that the hand does not have")
    return (g[index][0], g[index][1])


def _pattern_setting(
    hand: Sequence[Card], shape: Shape, play: str, evaluator: Evaluator
) -> RankedSetting:
    """The setting a pattern play gives.  A play names ranks; where the hand holds more cards of
    a front rank than go forward (splitting trips, four of a kind, five aces), the cards put
    forward are the ones that leave the strongest high hand (e.g. a flush), first found on ties.
    """
    if play == "highest_permissible_pair_front":
        # A pair from each group, highest rank first (a pair out of the trips too): the first
        # that leaves a legal high hand.  The last group is a pair, which is always permissible.
        for group in sorted(shape.groups, key=lambda g: g[0].rank, reverse=True):
            ranked = _pair_from(hand, group, evaluator)
            if ranked.legal:
                return ranked
        raise HouseWayError(f"no pair of {hand!r} can go front")  # unreachable for full houses
    low = _front(shape, play)
    best = rank_setting(Setting.of(low, [c for c in hand if c not in low]), evaluator)
    ranks = sorted(c.rank for c in low)
    if sum(1 for c in hand if c.rank in ranks) == 2:
        return best  # no other card of a front rank: nothing to choose
    for (i, j), rest in SPLITS:
        if sorted((hand[i].rank, hand[j].rank)) != ranks:
            continue
        high_rank = evaluator.rank5([hand[k] for k in rest])
        if high_rank > best.high_rank:
            best = rank_setting(
                Setting.of((hand[i], hand[j]), [hand[k] for k in rest]), evaluator
            )
    return best


def _pair_from(hand: Sequence[Card], group: Sequence[Card], evaluator: Evaluator) -> RankedSetting:
    """Two cards of ``group`` forward, chosen to leave the strongest high hand."""
    best: RankedSetting | None = None
    for i, a in enumerate(group):
        for b in group[i + 1:]:
            ranked = rank_setting(Setting.of((a, b), [c for c in hand if c not in (a, b)]),
                                  evaluator)
            if best is None or ranked.high_rank > best.high_rank:
                best = ranked
    assert best is not None
    return best


def _pairs(shape: Shape) -> list[int]:
    return [grp[0].rank for grp in shape.groups if len(grp) == 2]


def _matches(when: Condition, shape: Shape, front_rank: int | None) -> bool:
    def inside(value: int | None, bounds: tuple[int, int] | None) -> bool:
        return bounds is None or (value is not None and bounds[0] <= value <= bounds[1])

    pairs = _pairs(shape)
    main = shape.groups[0][0].rank if shape.groups else None
    return (
        inside(main, when.rank)
        and inside(max(pairs) if pairs else None, when.high_pair)
        and inside(min(pairs) if pairs else None, when.low_pair)
        and (when.kicker_min is None or shape.kicker >= when.kicker_min)
        and (when.kicker_max is None or shape.kicker <= when.kicker_max)
        and (when.joker is None or when.joker == shape.has_joker)
        and (when.front_min is None or (front_rank is not None and front_rank >= when.front_min))
    )


_STRAIGHT_CATEGORIES = frozenset({STRAIGHT, FLUSH, STRAIGHT_FLUSH})


def _back_class(ranked: RankedSetting) -> str:
    cat = category_of(ranked.high_rank)
    if cat == STRAIGHT_FLUSH:
        return "royal" if (ranked.high_rank >> 16) & 0xF == 15 else "straight-flush"
    return "flush" if cat == FLUSH else "straight"


_BACK_ORDER = {"straight": 0, "flush": 1, "straight-flush": 2, "royal": 3}


class HouseWayEngine:
    """Sets hands by one house way under one ruleset (the evaluator's)."""

    def __init__(self, way: HouseWay, evaluator: Evaluator) -> None:
        self.way = way
        self.evaluator = evaluator

    def set_hand(self, cards: Sequence[Card | str] | str) -> HouseWayChoice:
        """The house-way setting of seven cards; never a foul (a way that would is an error)."""
        hand = seven(cards)
        shape = shape_of(hand)
        section = self.way.sections[shape.pattern]
        rule = self._first(section.unless, shape, hand, pattern_play=True) or section.default
        choice = _pattern_setting(hand, shape, rule.play, self.evaluator)
        if not choice.legal and section.foul_fallback is not None:
            rule = section.foul_fallback
            choice = _pattern_setting(hand, shape, rule.play, self.evaluator)
        straights = self._straight_settings(hand) if _may_hold_straight(hand) else []
        used_straight = False
        if straights:
            policy = self.way.straights
            sf_rule = self._first(
                [r for r in policy.unless if r.pattern in (None, shape.pattern)],
                shape, hand, pattern_play=False, pattern_choice=choice, straights=straights,
            ) or policy.defaults[shape.pattern]
            picked = self._play_straight(sf_rule.play, choice, straights)
            if picked is not choice:
                choice, rule, used_straight = picked, sf_rule, True
        if not choice.legal:
            raise HouseWayError(
                f"house way {self.way.name!r} fouls {str(choice.setting)!r} by {rule.ident}"
            )
        return HouseWayChoice(choice, shape.pattern, rule.ident, rule.source, used_straight)

    def _first(
        self,
        rules: Sequence[Rule],
        shape: Shape,
        hand: Sequence[Card],
        *,
        pattern_play: bool,
        pattern_choice: RankedSetting | None = None,
        straights: Sequence[RankedSetting] = (),
    ) -> Rule | None:
        for rule in rules:
            front: int | None = None
            if rule.when.front_min is not None:
                if pattern_play:
                    front = self.evaluator.rank2(_front(shape, rule.play))
                elif pattern_choice is not None:
                    front = self._play_straight(rule.play, pattern_choice, straights).low_rank
            if _matches(rule.when, shape, front):
                return rule
        return None

    def _straight_settings(self, hand: Sequence[Card]) -> list[RankedSetting]:
        """Legal settings whose high hand is a straight, flush or straight flush."""
        ev = self.evaluator
        policy = self.way.straights
        out = []
        for (i, j), rest in SPLITS:
            high = [hand[k] for k in rest]
            high_rank = ev.rank5(high)
            if category_of(high_rank) not in _STRAIGHT_CATEGORIES:
                continue
            low_rank = ev.rank2((hand[i], hand[j]))
            if not ev.high_beats_low(high_rank, low_rank):
                continue
            if policy.exclude_joker_ace_high and _joker_ace_high(high, high_rank):
                continue
            out.append(RankedSetting(Setting.of((hand[i], hand[j]), high), low_rank, high_rank,
                                     True))
        return out

    def _play_straight(
        self, play: str, pattern_choice: RankedSetting, straights: Sequence[RankedSetting]
    ) -> RankedSetting:
        if play == "pattern":
            return pattern_choice
        if play == "straight_with_ace_front":
            with_ace = [s for s in straights if any(c.rank == 12 for c in s.setting.low)]
            return self._best_straight(with_ace) if with_ace else pattern_choice
        best = self._best_straight(straights)
        if play == "better_front" and pattern_choice.low_rank > best.low_rank:
            return pattern_choice
        return best

    def _best_straight(self, straights: Sequence[RankedSetting]) -> RankedSetting:
        """The best low hand that keeps a complete hand behind, unless a stronger back is kept."""
        best = max(straights, key=lambda s: (s.low_rank, s.high_rank))
        thresholds = self.way.straights.stronger_back
        if thresholds:
            strongest = max(
                straights, key=lambda s: (_BACK_ORDER[_back_class(s)], s.low_rank, s.high_rank)
            )
            kind = _back_class(strongest)
            if (
                _BACK_ORDER[kind] > _BACK_ORDER[_back_class(best)]
                and kind in thresholds
                and best.low_rank < thresholds[kind]
            ):
                return strongest
        return best


_WINDOWS = tuple(
    sum(1 << (r % 13) for r in range(top - 4, top + 1)) for top in range(3, 13)
)  # the ten straights as rank bit sets; top 3 is the wheel (ace as rank 12 = -1 % 13)


def _may_hold_straight(hand: Sequence[Card]) -> bool:
    """Cheap test: could any five of these cards be a straight or a flush?"""
    jokers = sum(1 for c in hand if c.is_joker)
    suits = [0, 0, 0, 0]
    bits = 0
    for c in hand:
        if not c.is_joker:
            suits[int(c) & 3] += 1
            bits |= 1 << c.rank
    if max(suits) + jokers >= 5:
        return True
    need = 5 - jokers
    return any((bits & w).bit_count() >= need for w in _WINDOWS)


def _joker_ace_high(high: Sequence[Card], rank: int) -> bool:
    """An ace-high straight or straight flush in which the joker stands beside a natural ace."""
    if category_of(rank) not in (STRAIGHT, STRAIGHT_FLUSH) or (rank >> 16) & 0xF != 15:
        return False
    return any(int(c) == JOKER_INDEX for c in high) and any(
        c.rank == 12 and not c.is_joker for c in high
    )
