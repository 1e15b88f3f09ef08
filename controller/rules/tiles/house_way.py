"""The one engine that sets four tiles by any tile house way given as data.

Every play chooses among the legal settings of the hand (``tile_settings``: at most three, each
with the better hand high), so the engine can never set a foul.  The result depends only on the
faces, never on their order, and is cached per face multiset: ``table()`` gives the setting of
all 8,130 multisets at once, for odds enumeration.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations_with_replacement
from types import MappingProxyType

from ..errors import HouseWayError
from .codes import Code, Threshold, is_value, matches
from .dominoes import FACES, Tile
from .hands import DEFAULT_TILE_RULES, PAIR_BASE, TileRules, single_rank
from .house_way_model import SIDES, Pick, TileRule, TileWay, When
from .setting import RankedTileSetting, four, tile_settings

Hand = tuple[Tile, ...]


@dataclass(frozen=True, slots=True)
class TileWayChoice:
    """The house way's setting of four tiles and the rule (with its source line) that chose it."""

    setting: RankedTileSetting
    rule: str
    source: str


@dataclass(frozen=True, slots=True)
class _Hand:
    """What the rules ask of one hand, computed once."""

    tiles: Hand
    settings: tuple[RankedTileSetting, ...]
    pairs: tuple[int, ...]  # pair groups held
    best_low: int
    best_high: int
    top: int  # the highest single rank among the four tiles


def _section(hand: _Hand) -> str:
    if len(hand.pairs) == 2:
        return "two_pairs"
    if hand.pairs:
        return "pairs"
    groups = {t.group for t in hand.tiles}
    if groups & {1, 2} and any(t.pips in (7, 8, 9) for t in hand.tiles):
        return "strong"
    return "other"


def _pair_hands(ranked: RankedTileSetting) -> int:
    return sum(1 for h in (ranked.low_rank, ranked.high_rank) if h >> 8 >= PAIR_BASE)


def _is_kind(kind: tuple[str, Code | None], pair: Sequence[Tile], rank: int) -> bool:
    name, code = kind
    if not is_value(name, rank >> 8, pair):
        return False
    return code is None or any(code >> t & 1 for t in pair)


class TileWayEngine:
    """Sets four tiles by one tile house way under one ruleset, for one side of the table.

    ``side`` is ``"banker"`` (the house way as the dealer plays it, the default) or
    ``"player"``; it matters only to rules with a ``side`` condition (a strategy table with a
    banker and a player column, such as Luger's)."""

    def __init__(self, way: TileWay, rules: TileRules = DEFAULT_TILE_RULES,
                 side: str = "banker") -> None:
        if side not in SIDES:
            raise HouseWayError(f"side {side!r} is not one of {list(SIDES)}")
        self.way = way
        self.rules = rules
        self.side = side
        self._memo: dict[Hand, TileWayChoice] = {}
        self._table: Mapping[Hand, TileWayChoice] | None = None

    def set_hand(self, tiles: str | Sequence[Tile | str]) -> TileWayChoice:
        """The house-way setting of four tiles (text like ``"6-6 4-5 1-2 3-3"`` or tiles)."""
        key = tuple(sorted(four(tiles)))
        found = self._memo.get(key)
        if found is None:
            found = self._memo[key] = self._decide(key)
        return found

    def table(self) -> Mapping[Hand, TileWayChoice]:
        """Every face multiset that one set can deal (8,130), sorted by face index, with its
        house-way choice; computed once per engine.  Look up ``tuple(sorted(tiles))``."""
        if self._table is None:
            self._table = MappingProxyType({key: self.set_hand(key) for key in face_multisets()})
        return self._table

    def _decide(self, tiles: Hand) -> TileWayChoice:
        settings = tile_settings(tiles, self.rules)
        groups = [t.group for t in tiles]
        hand = _Hand(
            tiles, settings, tuple(sorted({g for g in groups if groups.count(g) == 2})),
            max(s.low_rank for s in settings), max(s.high_rank for s in settings),
            max(single_rank(t, self.rules) for t in tiles),
        )
        section = self.way.sections[_section(hand)]
        for rule in (*self.way.exceptions, *section.unless):
            chosen = self._apply(rule, hand, section.skip_dominated)
            if chosen is not None:
                return TileWayChoice(chosen, rule.ident, rule.source)
        chosen = self._apply(section.default, hand, False)
        if chosen is None or not chosen.legal:
            raise HouseWayError(f"tile house way {self.way.name!r} cannot set "
                                f"{' '.join(map(str, tiles))!r} by {section.default.ident}")
        return TileWayChoice(chosen, section.default.ident, section.default.source)

    def _apply(self, rule: TileRule, hand: _Hand, skip_dominated: bool) -> RankedTileSetting | None:
        """The setting a rule chooses for the hand, or None when the rule does not apply."""
        if not self._when(rule.when, hand):
            return None
        pool = self._pool(rule, hand)
        if not pool:
            return None
        chosen = max(pool, key=self._order(rule, hand))
        check = rule.check
        if check.requires and not any(self._makes(chosen, r) for r in check.requires):
            return None
        if check.low_below is not None and chosen.low_rank >= self._rank(check.low_below):
            return None
        if skip_dominated and any(s.low_rank > chosen.low_rank and s.high_rank > chosen.high_rank
                                  for s in hand.settings):
            return None
        return chosen

    def _order(self, rule: TileRule, hand: _Hand) -> Callable[[RankedTileSetting], tuple[int, ...]]:
        """The play's order on settings (the greatest is chosen).  With ``prefer_top_tile`` the
        hands' values come first, then the side of the top tile, then the full ranks."""
        sign = -1 if rule.play == "lowest_high" else 1
        high_first = rule.play in ("best_high", "lowest_high")
        prefer = rule.pick.prefer_top_tile

        def key(s: RankedTileSetting) -> tuple[int, ...]:
            ranks = (sign * s.high_rank, s.low_rank) if high_first else (s.low_rank, s.high_rank)
            if prefer is None:
                return ranks
            cats = ((sign * (s.high_rank >> 8), s.low_rank >> 8) if high_first
                    else (s.low_rank >> 8, s.high_rank >> 8))
            side = s.setting.high if prefer == "high" else s.setting.low
            on_side = int(max(single_rank(t, self.rules) for t in side) == hand.top)
            return (*cats, on_side, *ranks)

        return key

    def _rank(self, threshold: Threshold) -> int:
        return threshold.rank(self.rules)

    def _makes(self, s: RankedTileSetting, makes: tuple[Threshold, Threshold]) -> bool:
        return s.low_rank >= self._rank(makes[0]) and s.high_rank >= self._rank(makes[1])

    def _when(self, when: When, hand: _Hand) -> bool:
        tiles = hand.tiles
        if when.side is not None and when.side != self.side:
            return False
        if when.pairs is not None and len(hand.pairs) != when.pairs:
            return False
        if when.tiles and not any(matches(tiles, p) for p in when.tiles):
            return False
        if when.pair is not None or when.others:
            if len(hand.pairs) != 1:
                return False
            inside = [t for t in tiles if t.group == hand.pairs[0]]
            if when.pair is not None and not all(when.pair >> t & 1 for t in inside):
                return False
            rest = [t for t in tiles if t.group != hand.pairs[0]]
            if when.others and not any(matches(rest, p) for p in when.others):
                return False
        if when.has and not matches(tiles, when.has):
            return False
        for key, threshold in when.best:
            value = hand.best_low if key.startswith("best_low") else hand.best_high
            limit = self._rank(threshold)
            if key.endswith("_min") and value < limit:
                return False
            if key.endswith("_max") and value > limit:
                return False
            if key.endswith("_below") and value >= limit:
                return False
        return True

    def _pool(self, rule: TileRule, hand: _Hand) -> list[RankedTileSetting]:
        pool = list(hand.settings)
        play, pick = rule.play, rule.pick
        if play == "keep":
            pool = [s for s in pool if _pair_hands(s) == len(hand.pairs) > 0]
        elif play == "split":
            pool = [s for s in pool if hand.pairs and _pair_hands(s) == 0]
        elif play == "dominant":
            pool = [s for s in pool if _dominates(s, hand.settings)]
        elif play == "form":
            for kind in pick.kinds:
                formed = [s for s in pool if _is_kind(kind, s.setting.low, s.low_rank)
                          or _is_kind(kind, s.setting.high, s.high_rank)]
                if formed:
                    pool = formed
                    break
            else:
                return []
        return [s for s in pool if self._picks(pick, s, hand)]

    def _picks(self, pick: Pick, s: RankedTileSetting, hand: _Hand) -> bool:
        low, high = s.setting.low, s.setting.high
        if pick.makes is not None and not self._makes(s, pick.makes):
            return False
        if pick.points is not None and not (
            is_value(pick.points[0], s.low_rank >> 8, low)
            and is_value(pick.points[1], s.high_rank >> 8, high)
        ):
            return False
        if pick.together is not None and not any(
            matches(h, pick.together) and (
                pick.together_points is None
                or pick.together_points[0] <= (s.low_rank if h is low else s.high_rank) >> 8
                <= pick.together_points[1]
            )
            for h in (low, high)
        ):
            return False
        if pick.high_has is not None and not any(pick.high_has >> t & 1 for t in high):
            return False
        if pick.low_has is not None and not any(pick.low_has >> t & 1 for t in low):
            return False
        if pick.top_tile is not None:
            side = high if pick.top_tile == "high" else low
            if max(single_rank(t, self.rules) for t in side) != hand.top:
                return False
        return True


def _dominates(s: RankedTileSetting, settings: Sequence[RankedTileSetting]) -> bool:
    """At least as good in both hands as every other setting, and better than one of them."""
    better = False
    for t in settings:
        if t.low_rank > s.low_rank or t.high_rank > s.high_rank:
            return False
        better = better or t.low_rank < s.low_rank or t.high_rank < s.high_rank
    return better


def face_multisets() -> Iterator[Hand]:
    """Every multiset of four faces one set can hold (8,130), each sorted by face index."""
    for combo in combinations_with_replacement(FACES, 4):
        if all(combo.count(t) <= t.copies for t in set(combo)):
            yield combo
