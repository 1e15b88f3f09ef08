"""Reading the golden house-way files under tests/golden/poker/."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

GOLDEN = Path(__file__).parent / "golden" / "poker"


@dataclass(frozen=True)
class GoldenCase:
    """One line: a hand, the setting the way must give, the rule that decides, the citation."""

    way: str
    line: int
    hand: str
    setting: str
    rule: str
    cite: str


def golden_cases() -> list[GoldenCase]:
    """Every case of every golden file, in file order."""
    cases = []
    for path in sorted(GOLDEN.glob("*.txt")):
        for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            text = raw.strip()
            if not text or text.startswith("#"):
                continue
            parts = [p.strip() for p in text.split("|")]
            if len(parts) != 4 or not parts[3]:
                raise ValueError(f"{path.name}:{number}: need HAND | SETTING | RULE | CITATION")
            cases.append(GoldenCase(path.stem, number, *parts))
    return cases
