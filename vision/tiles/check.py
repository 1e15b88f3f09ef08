"""The set check over a round's tile reads: 32 tiles, each face as often as a set holds it.

Pure logic on codes (``"6-6"``, ``"1-2"``, None for unknown); no imaging.  The 32 tiles make
16 pairs (docs/sources.md: [T1]): a civil pair is two tiles of
one face, a military pair two faces with the same pips (4-5 and 3-6, ...), and Gee Joon is
1-2 with 2-4.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from .faces import CIVIL, CODES, full_set

# The 16 pairs, highest first, each as the codes of its two tiles.
PAIRS: Final[tuple[tuple[str, tuple[str, str]], ...]] = (
    ("Gee Joon", ("1-2", "2-4")),
    *((name, (f"{a}-{b}", f"{a}-{b}")) for name, (a, b) in zip(
        ("Teen", "Day", "Yun", "Gor", "Mooy", "Chong", "Bon", "Foo", "Ping", "Tit", "Look"),
        CIVIL, strict=True)),
    ("Chop Gow", ("3-6", "4-5")),
    ("Chop Bot", ("2-6", "3-5")),
    ("Chop Chit", ("2-5", "3-4")),
    ("Chop Ng", ("1-4", "2-3")),
)


@dataclass(frozen=True, slots=True)
class SetCheck:
    """What a round's reads say about the set: faces missing, extra or not faces at all."""

    tiles: int
    unknown: int
    missing: tuple[str, ...]  # one entry per missing tile, e.g. ("6-6", "6-6") for both Teens
    extra: tuple[str, ...]  # one entry per tile beyond what a set holds
    invalid: tuple[str, ...]  # codes that are not a Pai Gow face
    broken_pairs: tuple[str, ...]  # names of pairs not whole among the read tiles

    @property
    def complete(self) -> bool:
        """Exactly the 32 tiles of one set, all read."""
        return self.tiles == 32 and not (self.unknown or self.missing or self.extra
                                         or self.invalid)

    @property
    def consistent(self) -> bool:
        """Nothing read contradicts one set (unknown and missing tiles aside)."""
        return not (self.extra or self.invalid) and self.tiles <= 32

    def problems(self) -> list[str]:
        """Each problem as one line, for the dealer; empty when the set is complete."""
        out = []
        if self.tiles != 32:
            out.append(f"{self.tiles} tiles seen, a set has 32")
        if self.unknown:
            out.append(f"{self.unknown} tile(s) not read")
        out += [f"extra tile {code!r}" for code in self.extra]
        out += [f"not a Pai Gow tile: {code!r}" for code in self.invalid]
        if not self.unknown:
            out += [f"missing tile {code!r}" for code in self.missing]
        return out


def check_set(codes: Iterable[str | None]) -> SetCheck:
    """Check one round's tile codes (None: unread) against a full set of 32."""
    codes = list(codes)
    unknown = sum(code is None for code in codes)
    read = Counter(_normal(code) for code in codes if code is not None)
    invalid = tuple(sorted(code for code in read.elements() if code not in CODES))
    want = Counter(full_set())
    extra = tuple(sorted((read - want).elements()))
    extra = tuple(code for code in extra if code in CODES)
    missing = tuple(sorted((want - read).elements()))
    broken = tuple(name for name, (a, b) in PAIRS
                   if (read[a] + read[b] if a != b else read[a]) % 2)
    return SetCheck(len(codes), unknown, missing, extra, invalid, broken)


def _normal(code: str) -> str:
    """``"2-1"`` as ``"1-2"``; anything unreadable is kept as given (and reported invalid)."""
    parts = code.split("-")
    if len(parts) == 2 and all(p.isdigit() for p in parts):
        lo, hi = sorted(int(p) for p in parts)
        return f"{lo}-{hi}"
    return code

