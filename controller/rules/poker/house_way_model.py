"""House ways as data: the TOML form, validated once into frozen rules.

A house way names, for each pair pattern of a seven-card hand, a default play and the exceptions
("unless" rules) that change it, and, for hands that can hold a straight, flush or straight flush
in the five-card hand, whether to play it.  Every play and rule carries the source line it
implements.  The format is documented in ``docs/house_ways.md``.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from ..config_check import check_keys
from ..errors import HouseWayError
from .cards import RANKS
from .hand_shape import Pattern

PATTERN_PLAYS: Final[Mapping[Pattern, tuple[str, ...]]] = {
    Pattern.NO_PAIR: ("standard",),
    Pattern.ONE_PAIR: ("standard",),
    Pattern.TWO_PAIR: ("split", "together"),
    Pattern.THREE_PAIR: ("highest_pair_front", "middle_pair_front", "lowest_pair_front"),
    Pattern.TRIPS: ("keep", "split"),
    Pattern.TWO_TRIPS: ("higher_pair_front", "lower_pair_front"),
    Pattern.FULL_HOUSE: ("split", "together", "highest_permissible_pair_front"),
    Pattern.FULL_HOUSE_TWO_PAIR: (
        "highest_pair_front", "lowest_pair_front", "highest_permissible_pair_front",
    ),
    Pattern.QUADS: ("together", "split"),
    Pattern.QUADS_PAIR: ("pair_front", "split"),
    Pattern.QUADS_TRIPS: ("pair_front", "split"),
    Pattern.FIVE_ACES: ("split", "pair_front"),
}
STRAIGHT_PLAYS: Final = ("straight", "pattern", "better_front", "straight_with_ace_front")
STRONGER_BACKS: Final = ("royal", "straight-flush", "flush")
CONDITION_KEYS: Final = (
    "rank", "high_pair", "low_pair", "pair", "kicker_min", "kicker_max", "front_min", "joker",
)


def parse_rank(text: object, where: str) -> int:
    """A rank letter (2-9, T or 10, J, Q, K, A) as 0..12."""
    if not isinstance(text, str):
        raise HouseWayError(f"{where}: rank must be a string like 'K', not {text!r}")
    token = "T" if text.strip().upper() == "10" else text.strip().upper()
    if len(token) != 1 or token not in RANKS:
        raise HouseWayError(f"{where}: unknown rank {text!r}")
    return RANKS.index(token)


def parse_front(text: object, where: str) -> int:
    """A two-card threshold: ``K`` (king-high or better), ``AJ`` (ace-jack), ``77`` (pair)."""
    if not isinstance(text, str) or not 1 <= len(text.strip()) <= 2:
        raise HouseWayError(f"{where}: front threshold must be like 'K', 'AJ' or '77': {text!r}")
    token = text.strip()
    hi = parse_rank(token[0], where)
    lo = parse_rank(token[1], where) if len(token) == 2 else 0
    if hi == lo and len(token) == 2:
        return (1 << 20) | ((hi + 2) << 16)
    if lo > hi:
        raise HouseWayError(f"{where}: write the higher rank first in {text!r}")
    return ((hi + 2) << 16) | ((lo + 2) << 12)


def _rank_range(value: object, where: str) -> tuple[int, int]:
    if isinstance(value, str):
        r = parse_rank(value, where)
        return (r, r)
    if isinstance(value, list) and len(value) == 2:
        lo, hi = parse_rank(value[0], where), parse_rank(value[1], where)
        if lo > hi:
            raise HouseWayError(f"{where}: range {value!r} runs downwards")
        return (lo, hi)
    raise HouseWayError(f"{where}: expected a rank or [low, high], not {value!r}")


@dataclass(frozen=True, slots=True)
class Condition:
    """When an exception applies. Every field left None always matches."""

    rank: tuple[int, int] | None = None
    high_pair: tuple[int, int] | None = None
    low_pair: tuple[int, int] | None = None
    kicker_min: int | None = None
    kicker_max: int | None = None
    front_min: int | None = None
    joker: bool | None = None


@dataclass(frozen=True, slots=True)
class Rule:
    """A play with the condition that selects it and the source line it implements."""

    ident: str
    play: str
    source: str
    when: Condition = Condition()
    pattern: Pattern | None = None  # straights exceptions only


@dataclass(frozen=True, slots=True)
class Section:
    """The default play for one pattern and its ordered exceptions (first match wins)."""

    default: Rule
    unless: tuple[Rule, ...]
    foul_fallback: Rule | None = None  # the play to use where the chosen one would foul


@dataclass(frozen=True, slots=True)
class StraightsPolicy:
    """Whether and how hands holding a straight, flush or straight flush play it."""

    defaults: Mapping[Pattern, Rule]
    unless: tuple[Rule, ...]
    exclude_joker_ace_high: bool
    exclude_source: str
    stronger_back: Mapping[str, int]  # keep a royal / SF / flush unless the front reaches this
    stronger_back_source: str


@dataclass(frozen=True, slots=True)
class HouseWay:
    """A named, versioned house way."""

    name: str
    title: str
    version: str
    source: str
    notes: tuple[str, ...]
    sections: Mapping[Pattern, Section]
    straights: StraightsPolicy

    @classmethod
    def from_toml(cls, text: str, name: str) -> HouseWay:
        """Parse and validate a house-way TOML text; errors name the file's key and value."""
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as err:
            raise HouseWayError(f"house way {name!r}: bad TOML: {err}") from err
        return _build(data, name)


def _take(table: Mapping[str, object], allowed: set[str], where: str) -> None:
    check_keys(table, allowed, HouseWayError, where, listed="allowed")


def _text(table: Mapping[str, object], key: str, where: str) -> str:
    value = table.get(key)
    if not isinstance(value, str) or not value.strip():
        raise HouseWayError(f"{where}: {key!r} must be a non-empty string, got {value!r}")
    return value


def _table(value: object, where: str) -> Mapping[str, object]:
    if not isinstance(value, dict):
        raise HouseWayError(f"{where}: expected a table, got {value!r}")
    return value


def _condition(table: Mapping[str, object], where: str) -> Condition:
    def rng(key: str) -> tuple[int, int] | None:
        return _rank_range(table[key], f"{where}.{key}") if key in table else None

    def one(key: str) -> int | None:
        return parse_rank(table[key], f"{where}.{key}") if key in table else None

    joker = table.get("joker")
    if joker is not None and not isinstance(joker, bool):
        raise HouseWayError(f"{where}.joker must be true or false, not {joker!r}")
    high = rng("high_pair")
    pair = rng("pair")
    if high is not None and pair is not None:
        raise HouseWayError(f"{where}: 'pair' and 'high_pair' mean the same; give one")
    return Condition(
        rank=rng("rank"),
        high_pair=high or pair,
        low_pair=rng("low_pair"),
        kicker_min=one("kicker_min"),
        kicker_max=one("kicker_max"),
        front_min=parse_front(table["front_min"], f"{where}.front_min")
        if "front_min" in table else None,
        joker=joker,
    )


def _rule(value: object, where: str, plays: tuple[str, ...], conditional: bool) -> Rule:
    table = _table(value, where)
    allowed = {"play", "source"} | (set(CONDITION_KEYS) if conditional else set())
    if conditional and plays == STRAIGHT_PLAYS:
        allowed.add("pattern")
    _take(table, allowed, where)
    play = _text(table, "play", where)
    if play not in plays:
        raise HouseWayError(f"{where}: unknown play {play!r}; allowed: {list(plays)}")
    pattern = None
    if "pattern" in table:
        try:
            pattern = Pattern(str(table["pattern"]))
        except ValueError as err:
            raise HouseWayError(f"{where}: unknown pattern {table['pattern']!r}") from err
    return Rule(where, play, _text(table, "source", where),
                _condition(table, where) if conditional else Condition(), pattern)


def _unless(table: Mapping[str, object], where: str, plays: tuple[str, ...]) -> tuple[Rule, ...]:
    rules = table.get("unless", [])
    if not isinstance(rules, list):
        raise HouseWayError(f"{where}.unless must be an array of tables")
    return tuple(_rule(r, f"{where}.unless[{i}]", plays, True) for i, r in enumerate(rules))


def _build(data: Mapping[str, object], name: str) -> HouseWay:
    top = {"name", "title", "version", "source", "notes", "straights"}
    _take(data, top | {p.value for p in Pattern}, f"house way {name!r}")
    if data.get("name") != name:
        raise HouseWayError(f"house way {name!r}: its 'name' says {data.get('name')!r}")
    sections: dict[Pattern, Section] = {}
    for pattern, plays in PATTERN_PLAYS.items():
        where = f"{name}.{pattern.value}"
        if pattern.value not in data:
            raise HouseWayError(f"house way {name!r} has no [{pattern.value}] section")
        table = _table(data[pattern.value], where)
        _take(table, {"play", "source", "unless", "foul_fallback"}, where)
        default = _rule(
            {k: v for k, v in table.items() if k in ("play", "source")}, where, plays, False
        )
        fallback = (
            _rule(table["foul_fallback"], f"{where}.foul_fallback", plays, False)
            if "foul_fallback" in table
            else None
        )
        sections[pattern] = Section(default, _unless(table, where, plays), fallback)
    notes = data.get("notes", [])
    if not isinstance(notes, list) or not all(isinstance(n, str) for n in notes):
        raise HouseWayError(f"{name}.notes must be an array of strings")
    return HouseWay(
        name=name,
        title=_text(data, "title", name),
        version=_text(data, "version", name),
        source=_text(data, "source", name),
        notes=tuple(notes),
        sections=sections,
        straights=_straights(data.get("straights"), name),
    )


def _straights(value: object, name: str) -> StraightsPolicy:
    where = f"{name}.straights"
    table = _table(value, where)
    keys = {p.value for p in Pattern} | {"unless", "exclude_joker_ace_high", "stronger_back"}
    _take(table, keys, where)
    defaults = {}
    for pattern in Pattern:
        if pattern.value not in table:
            raise HouseWayError(f"{where} has no {pattern.value!r} entry")
        defaults[pattern] = _rule(table[pattern.value], f"{where}.{pattern.value}",
                                  STRAIGHT_PLAYS, False)
    exclude = table.get("exclude_joker_ace_high", {"apply": False, "source": "-"})
    ex = _table(exclude, f"{where}.exclude_joker_ace_high")
    _take(ex, {"apply", "source"}, f"{where}.exclude_joker_ace_high")
    if not isinstance(ex.get("apply"), bool):
        raise HouseWayError(f"{where}.exclude_joker_ace_high.apply must be true or false")
    stronger = _table(table.get("stronger_back", {"source": "-"}), f"{where}.stronger_back")
    _take(stronger, {*STRONGER_BACKS, "source"}, f"{where}.stronger_back")
    thresholds = {
        k: parse_front(v, f"{where}.stronger_back.{k}")
        for k, v in stronger.items()
        if k != "source"
    }
    return StraightsPolicy(
        defaults=defaults,
        unless=_unless(table, where, STRAIGHT_PLAYS),
        exclude_joker_ace_high=bool(ex["apply"]),
        exclude_source=_text(ex, "source", where),
        stronger_back=thresholds,
        stronger_back_source=_text(stronger, "source", where),
    )
