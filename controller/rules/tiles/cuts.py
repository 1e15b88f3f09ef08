"""Pai Gow cuts: the named deliveries of the woodpile a banker may call for, with their options.

The twenty cuts and their options are those of the user's seed document
(docs/sources.md: [D1], l.29-64: "the possible deals ('Pai Gow
cuts') allowed by the Australian Casino commission"), each by its traditional and English name.
A cut is a dealer's act: chosen, journaled with the round and shown to surveillance.

Which stack each position then receives is *not* given by any public source we have: the seed
names the cuts only; a Howcast video (docs/sources.md: [T8]) describes Cup Say, Jung
Quat and Chee Yee in words without a stack order; an Australian rulebook's "Approved Cuts"
appendix is not available.  So every cut is recorded only (``effect`` is None) and the deal
stays the standard woodpile count (``tile_dealing``).  A cut whose order a source gives would
carry it as ``effect``: the woodpile stack dealt in place of stack 1, 2, ... 8.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Final

from ..errors import RulesError

SIDE: Final = ("right", "left")
LEVEL: Final = ("top", "bottom")


class CutError(RulesError):
    """A cut that is not one of the named cuts, or its options are missing or unknown."""


@dataclass(frozen=True, slots=True)
class CutSpec:
    """One named cut: its names, the options it needs (each one of a few values), its source."""

    key: str  # the text form's name, e.g. "cup-say"
    traditional: str
    english: str
    options: tuple[tuple[str, tuple[str, ...]], ...]  # (option, its values), e.g. ("side", SIDE)
    line: int  # the [D1] line that names it
    note: str = ""
    effect: tuple[int, ...] | None = None  # stack order when a public source gives it

    @property
    def source(self) -> str:
        """Where the cut is named."""
        return f"[D1] l.{self.line}"

    def to_json(self) -> dict[str, Any]:
        """The cut as a picker shows it: names, options with their values, source, effect."""
        return {
            "cut": self.key, "name": self.traditional, "english": self.english,
            "options": {option: list(values) for option, values in self.options},
            "source": self.source, "note": self.note,
            "effect": "recorded only" if self.effect is None else list(self.effect),
        }


def _spec(traditional: str, english: str, line: int, *options: tuple[str, tuple[str, ...]],
          note: str = "") -> CutSpec:
    return CutSpec(_key(traditional), traditional, english, options, line, note)


def _key(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


# [D1] l.33-64, in the seed's order.  Where the traditional and the English names are the
# same (Sydney Harbour Bridge, Sydney Tower, China Bank) the seed prints the name twice.
CUTS: Final = (
    _spec("Yat Dong Dong", "One Stack", 33, ("side", SIDE)),
    _spec("Cup Say", "Tiger", 34, ("side", SIDE), ("level", LEVEL)),
    _spec("Chee Yee", "Chop the Ears", 37, ("level", LEVEL)),
    _spec("Dai Pin", "Big Slice", 38, ("side", SIDE)),
    _spec("Jung Quat", "From the Heart", 39, ("level", LEVEL)),
    _spec("Long Tau/Fong May", "Dragon Head/Phoenix Tail", 40, ("side", SIDE)),
    _spec("Wui Fung Bank", "Hong Kong Bank", 41),
    _spec("Foot Say", "Four Across", 43),
    _spec("Sydney Harbour Bridge", "Sydney Harbour Bridge", 45),
    _spec("Ghan Dong Ping Say", "Kangaroo Jump", 47, ("side", SIDE)),
    _spec("Pong Yun", "Buddhas Signal", 48, ("side", SIDE)),
    _spec("Bo Bo Go Sing", "Boy Walks Up Stairs", 49, ("side", SIDE)),
    _spec("Ghan Dong Cup Say", "Striped Tiger", 50, ("side", SIDE)),
    _spec("Yat Kai Sum May", "Chicken Three Ways", 51),
    _spec("Arn Lok Peng Sar", "Flying Dragon", 53, ("side", SIDE)),
    _spec("Sydney Tower", "Sydney Tower", 54),
    _spec("China Bank", "China Bank", 56),
    _spec("Chong Wan Sup Lok", "Sixteen Across", 58),
    _spec("Seung Gwai Pak Moon", "Ghost Closing the Door", 60),
    _spec("Gum Un Que", "Double Bridge", 62, ("side", SIDE),
          note="the seed's options read '(Right or Left, Front to Back)': right or left is the "
               "choice; 'front to back' is read as how it is delivered, not a second choice"),
)
_BY_NAME: Final[Mapping[str, CutSpec]] = MappingProxyType({
    name: spec for spec in CUTS
    for name in {spec.key, _key(spec.english), *(_key(p) for p in spec.traditional.split("/")),
                 *(_key(p) for p in spec.english.split("/"))}
})


def cut_catalog() -> list[dict[str, Any]]:
    """Every named cut in the seed's order, for the display's and the panel's picker."""
    return [spec.to_json() for spec in CUTS]


def find_cut(name: str) -> CutSpec:
    """A cut by its traditional or English name (any case, spaces or dashes)."""
    spec = _BY_NAME.get(_key(name)) if isinstance(name, str) else None
    if spec is None:
        known = ", ".join(spec.key for spec in CUTS)
        raise CutError(f"unknown cut {name!r}; known: {known}")
    return spec


@dataclass(frozen=True, slots=True)
class Cut:
    """A named cut with its chosen options.  Text form: ``cup-say:right,top``."""

    spec: CutSpec
    options: Mapping[str, str] = field(default_factory=dict)

    @classmethod
    def of(cls, name: str, options: Mapping[str, str] | None = None) -> Cut:
        """Build from a name and ``{"side": "right", "level": "top"}``; every option the cut
        has must be given, with one of its values, and no other."""
        spec = find_cut(name)
        given = dict(options or {})
        if not all(isinstance(k, str) and isinstance(v, str) for k, v in given.items()):
            raise CutError(f"cut {spec.key!r}: options must be text, got {given!r}")
        allowed = dict(spec.options)
        for option, value in given.items():
            if option not in allowed:
                raise CutError(f"cut {spec.key!r} ({spec.english}) has no option {option!r}; "
                               f"it takes {_takes(spec)}")
            if value.lower() not in allowed[option]:
                raise CutError(f"cut {spec.key!r}: {option} {value!r} is not one of "
                               f"{list(allowed[option])}")
        for option, values in spec.options:
            if option not in given:
                raise CutError(f"cut {spec.key!r} ({spec.english}) needs its {option}: "
                               f"{' or '.join(values)}")
        chosen = {option: given[option].lower() for option, _ in spec.options}
        return cls(spec, MappingProxyType(chosen))

    @classmethod
    def parse(cls, text: str) -> Cut:
        """Read ``NAME[:VALUE,VALUE]``, e.g. ``tiger:left,bottom``, ``foot-say``; each value
        belongs to one option (right/left is the side, top/bottom the level)."""
        if not isinstance(text, str) or not text.strip():
            raise CutError(f"a cut must be written as NAME[:OPTIONS], not {text!r}")
        name, _, rest = text.partition(":")
        spec = find_cut(name)
        options: dict[str, str] = {}
        for raw in (v.strip().lower() for v in rest.split(",") if v.strip()):
            option = next((o for o, values in spec.options if raw in values), None)
            if option is None:
                raise CutError(f"cut {spec.key!r} ({spec.english}): unknown option {raw!r}; "
                               f"it takes {_takes(spec)}")
            if option in options:
                raise CutError(f"cut {spec.key!r}: {option} given twice "
                               f"({options[option]!r} and {raw!r})")
            options[option] = raw
        return cls.of(spec.key, options)

    @property
    def effect(self) -> tuple[int, ...] | None:
        """The stack order the cut gives, or None when no public source says (all of them)."""
        return self.spec.effect

    def __str__(self) -> str:
        values = ",".join(self.options[o] for o, _ in self.spec.options)
        return f"{self.spec.key}:{values}" if values else self.spec.key

    def to_json(self) -> dict[str, Any]:
        """The cut as journaled: names, options, source and whether it changes the deal."""
        return {
            "cut": self.spec.key, "name": self.spec.traditional, "english": self.spec.english,
            "options": dict(self.options), "source": self.spec.source,
            "effect": "recorded only" if self.effect is None else list(self.effect),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Cut:
        """Back from ``to_json``."""
        return cls.of(str(data["cut"]), data.get("options") or {})


def _takes(spec: CutSpec) -> str:
    if not spec.options:
        return "no options"
    return "; ".join(f"{option}: {' or '.join(values)}" for option, values in spec.options)
