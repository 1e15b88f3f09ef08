"""Tile house ways as data: the TOML form, validated once into frozen rules.

A way is ordered rules, first match wins: global ``exceptions``, then the section the hand falls
in (``two_pairs``, ``pairs``, ``strong`` for hands that can make a wong, gong or high nine,
``other``), its ``unless`` rules in order and its default.  A rule has conditions on the hand,
a play that picks one of the legal settings, filters on what it may pick and checks on what it
picked; every rule carries the ``source`` line it implements.  The format is documented in
``docs/tile_house_ways.md``; unknown keys, plays, codes and values are errors naming them.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from ..config_check import check_keys
from ..errors import HouseWayError
from .codes import (
    Code,
    Threshold,
    check_alias,
    parse_code,
    parse_makes,
    parse_points,
    parse_threshold,
)

SECTIONS: Final = ("two_pairs", "pairs", "strong", "other")
PLAYS: Final = ("keep", "split", "form", "dominant", "best_low", "best_high", "lowest_high")
DEFAULT_PLAYS: Final[Mapping[str, tuple[str, ...]]] = {
    "two_pairs": ("keep", "best_low", "best_high"),
    "pairs": ("keep", "split", "best_low", "best_high"),
    "strong": ("form", "best_low", "best_high"),
    "other": ("best_low", "best_high", "lowest_high"),
}
KINDS: Final = ("wong", "gong", "high_nine")
SIDES: Final = ("banker", "player")  # who the engine sets the hand for (``When.side``)
_BEST: Final = ("best_low_min", "best_low_max", "best_low_below", "best_high_min",
                "best_high_below")
WHEN_KEYS: Final = ("tiles", "pair", "others", "has", "pairs", "side", *_BEST)
PICK_KEYS: Final = ("kinds", "makes", "points", "together", "together_points", "high_has",
                    "low_has", "top_tile", "prefer_top_tile")
CHECK_KEYS: Final = ("requires", "low_below")
Pattern = tuple[Code, ...]


@dataclass(frozen=True, slots=True)
class When:
    """Conditions on the four tiles; every field left empty always matches."""

    tiles: tuple[Pattern, ...] = ()  # the hand matches one of these four-code patterns
    pair: Code | None = None  # a one-pair hand whose pair is of these tiles
    others: tuple[Pattern, ...] = ()  # the two tiles beside the pair match one of these
    has: Pattern = ()  # distinct tiles match each of these codes
    pairs: int | None = None  # how many pairs the hand holds
    best: tuple[tuple[str, Threshold], ...] = ()  # (key of _BEST, threshold) on the best hands
    side: str | None = None  # "banker" or "player": the rule holds only for that side's hands


@dataclass(frozen=True, slots=True)
class Pick:
    """Filters on the settings a play may choose from."""

    kinds: tuple[tuple[str, Code | None], ...] = ()  # form: wong/gong/high_nine, in order
    makes: tuple[Threshold, Threshold] | None = None  # low and high at least these
    points: tuple[str, str] | None = None  # exact values of the low and the high hand
    together: tuple[Code, Code] | None = None  # one hand is these two tiles
    together_points: tuple[int, int] | None = None  # ... worth this many points
    high_has: Code | None = None
    low_has: Code | None = None
    top_tile: str | None = None  # "high" or "low": where the hand's highest tile goes
    # "high" or "low": among settings of equal hand values (points, gong, wong, pair), the one
    # with the hand's highest tile on that side; a preference, not a filter
    prefer_top_tile: str | None = None


@dataclass(frozen=True, slots=True)
class Check:
    """Checks on the setting a play chose; a rule whose choice fails them does not apply."""

    requires: tuple[tuple[Threshold, Threshold], ...] = ()  # any one of these LOW/HIGH
    low_below: Threshold | None = None


@dataclass(frozen=True, slots=True)
class TileRule:
    """A play, its conditions, and the source line it implements."""

    ident: str
    play: str
    source: str
    when: When = When()
    pick: Pick = Pick()
    check: Check = Check()


@dataclass(frozen=True, slots=True)
class TileSection:
    """The default play of one kind of hand and its ordered exceptions."""

    default: TileRule
    unless: tuple[TileRule, ...]
    skip_dominated: bool = False  # a rule whose choice is lower in both hands does not apply
    skip_source: str = ""


@dataclass(frozen=True, slots=True)
class TileWay:
    """A named, versioned tile house way."""

    name: str
    title: str
    version: str
    source: str
    notes: tuple[str, ...]
    exceptions: tuple[TileRule, ...]
    sections: Mapping[str, TileSection]

    @classmethod
    def from_toml(cls, text: str, name: str) -> TileWay:
        """Parse and validate a tile house-way TOML text; errors name the key and the value."""
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as err:
            raise HouseWayError(f"tile house way {name!r}: bad TOML: {err}") from err
        return _Builder(name).build(data)


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


def _list(value: object, where: str) -> list[object]:
    return value if isinstance(value, list) else [value]


class _Builder:
    """Reads one way; holds its name and code aliases while it does."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.aliases: dict[str, Code] = {}
        self.idents: set[str] = set()

    def code(self, value: object, where: str) -> Code:
        return parse_code(value, where, self.aliases)

    def patterns(self, value: object, size: int, where: str) -> tuple[Pattern, ...]:
        items = _list(value, where)
        if items and all(isinstance(i, str) for i in items):
            items = [items]  # one pattern written flat
        out = []
        for item in items:
            if not isinstance(item, list) or len(item) != size:
                raise HouseWayError(f"{where}: expected {size} tile codes, got {item!r}")
            out.append(tuple(self.code(c, where) for c in item))
        return tuple(out)

    def build(self, data: Mapping[str, object]) -> TileWay:
        name = self.name
        top = {"name", "title", "version", "source", "notes", "codes", "exceptions", *SECTIONS}
        _take(data, top, f"tile house way {name!r}")
        if data.get("name") != name:
            raise HouseWayError(f"tile house way {name!r}: its 'name' says {data.get('name')!r}")
        for alias, value in _table(data.get("codes", {}), f"{name}.codes").items():
            where = f"{name}.codes.{alias}"
            self.aliases[check_alias(alias, where)] = self.code(value, where)
        notes = data.get("notes", [])
        if not isinstance(notes, list) or not all(isinstance(n, str) for n in notes):
            raise HouseWayError(f"{name}.notes must be an array of strings")
        exc = _table(data.get("exceptions", {"rules": []}), f"{name}.exceptions")
        _take(exc, {"rules"}, f"{name}.exceptions")
        sections = {s: self.section(data, s) for s in SECTIONS}
        return TileWay(
            name=name, title=_text(data, "title", name), version=_text(data, "version", name),
            source=_text(data, "source", name), notes=tuple(notes),
            exceptions=self.rules(exc.get("rules", []), "exceptions"), sections=sections,
        )

    def section(self, data: Mapping[str, object], key: str) -> TileSection:
        where = f"{self.name}.{key}"
        if key not in data:
            raise HouseWayError(f"tile house way {self.name!r} has no [{key}] section")
        table = _table(data[key], where)
        _take(table, {"play", "source", "unless", "skip_dominated", *PICK_KEYS}, where)
        default = self.rule({k: v for k, v in table.items() if k not in ("unless",
                                                                          "skip_dominated")},
                            key, where, conditional=False)
        if default.play not in DEFAULT_PLAYS[key]:
            raise HouseWayError(f"{where}: play {default.play!r} cannot be the default here; "
                                f"allowed: {list(DEFAULT_PLAYS[key])}")
        skip, skip_source = False, ""
        if "skip_dominated" in table:
            sd = _table(table["skip_dominated"], f"{where}.skip_dominated")
            _take(sd, {"apply", "source"}, f"{where}.skip_dominated")
            if not isinstance(sd.get("apply"), bool):
                raise HouseWayError(f"{where}.skip_dominated.apply must be true or false")
            skip, skip_source = bool(sd["apply"]), _text(sd, "source", where)
        return TileSection(default, self.rules(table.get("unless", []), key), skip, skip_source)

    def rules(self, value: object, section: str) -> tuple[TileRule, ...]:
        where = f"{self.name}.{section}"
        if not isinstance(value, list):
            raise HouseWayError(f"{where} rules must be an array of tables")
        return tuple(self.rule(r, f"{section}.{{}}", f"{where}[{i}]", True, i)
                     for i, r in enumerate(value))

    def rule(self, value: object, label: str, where: str, conditional: bool,
             index: int = 0) -> TileRule:
        table = _table(value, where)
        allowed = {"play", "source", *PICK_KEYS}
        if conditional:
            allowed |= {"id", *WHEN_KEYS, *CHECK_KEYS}
        _take(table, allowed, where)
        play = _text(table, "play", where)
        if play not in PLAYS:
            raise HouseWayError(f"{where}: unknown play {play!r}; allowed: {list(PLAYS)}")
        ident = label
        if conditional:
            rid = table.get("id", f"unless[{index}]")
            if not isinstance(rid, str) or not rid.strip() or " " in rid:
                raise HouseWayError(f"{where}: 'id' must be a word, got {rid!r}")
            ident = label.format(rid)
        ident = f"{self.name}.{ident}"
        if ident in self.idents:
            raise HouseWayError(f"{where}: rule {ident!r} is defined twice")
        self.idents.add(ident)
        pick = self.pick(table, where)
        if (play == "form") != bool(pick.kinds):
            raise HouseWayError(f"{where}: 'kinds' goes with play 'form' and only there")
        return TileRule(ident, play, _text(table, "source", where),
                        self.when(table, where), pick, self.check(table, where))

    def when(self, t: Mapping[str, object], where: str) -> When:
        side = t.get("side")
        if side is not None and side not in SIDES:
            raise HouseWayError(f"{where}.side must be one of {list(SIDES)}, not {side!r}")
        pairs = t.get("pairs")
        if pairs is not None and pairs not in (0, 1, 2):
            raise HouseWayError(f"{where}.pairs must be 0, 1 or 2, not {pairs!r}")
        pair = None
        if "pair" in t:
            codes = [self.code(c, f"{where}.pair") for c in _list(t["pair"], where)]
            pair = 0
            for c in codes:
                pair |= c
        return When(
            tiles=self.patterns(t["tiles"], 4, f"{where}.tiles") if "tiles" in t else (),
            pair=pair,
            others=self.patterns(t["others"], 2, f"{where}.others") if "others" in t else (),
            has=tuple(self.code(c, f"{where}.has") for c in _list(t.get("has", []), where)),
            pairs=pairs if isinstance(pairs, int) else None,
            best=tuple((k, parse_threshold(t[k], f"{where}.{k}")) for k in _BEST if k in t),
            side=side if isinstance(side, str) else None,
        )

    def pick(self, t: Mapping[str, object], where: str) -> Pick:
        kinds = []
        for kind in _list(t.get("kinds", []), where):
            if not isinstance(kind, str) or kind.split(":")[0] not in KINDS:
                raise HouseWayError(f"{where}.kinds: unknown kind {kind!r}; known: {list(KINDS)}"
                                    " (optionally ':CODE', e.g. 'gong:L8')")
            head, _, code = kind.partition(":")
            kinds.append((head, self.code(code, f"{where}.kinds") if code else None))
        together = None
        if "together" in t:
            pattern = self.patterns(t["together"], 2, f"{where}.together")
            if len(pattern) != 1:
                raise HouseWayError(f"{where}.together: give one pair of codes")
            together = (pattern[0][0], pattern[0][1])
        tp = t.get("together_points")
        if tp is not None and together is None:
            raise HouseWayError(f"{where}.together_points needs 'together'")
        if tp is not None and not (isinstance(tp, list) and len(tp) == 2
                                   and all(isinstance(x, int) and 0 <= x <= 9 for x in tp)):
            raise HouseWayError(f"{where}.together_points must be [low, high] in 0..9, not {tp!r}")
        top = t.get("top_tile")
        if top not in (None, "high", "low"):
            raise HouseWayError(f"{where}.top_tile must be 'high' or 'low', not {top!r}")
        prefer = t.get("prefer_top_tile")
        if prefer not in (None, "high", "low"):
            raise HouseWayError(f"{where}.prefer_top_tile must be 'high' or 'low', "
                                f"not {prefer!r}")
        return Pick(
            kinds=tuple(kinds),
            makes=parse_makes(t["makes"], f"{where}.makes") if "makes" in t else None,
            points=parse_points(t["points"], f"{where}.points") if "points" in t else None,
            together=together,
            together_points=(tp[0], tp[1]) if isinstance(tp, list) else None,
            high_has=self.code(t["high_has"], f"{where}.high_has") if "high_has" in t else None,
            low_has=self.code(t["low_has"], f"{where}.low_has") if "low_has" in t else None,
            top_tile=top if isinstance(top, str) else None,
            prefer_top_tile=prefer if isinstance(prefer, str) else None,
        )

    def check(self, t: Mapping[str, object], where: str) -> Check:
        requires = tuple(parse_makes(r, f"{where}.requires")
                         for r in _list(t.get("requires", []), where))
        below = t.get("low_below")
        return Check(requires, parse_threshold(below, f"{where}.low_below")
                     if below is not None else None)
