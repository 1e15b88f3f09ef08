"""The dealer audit: every round in scope, and the figures per dealer, shift and table."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..journal import Journal, Record
from ..journal.recall import by_round
from .costs import DEFAULT_SAMPLES
from .rounds import RoundAudit, audit_round
from .scope import Scope


def table_label(location: str) -> str:
    """The table a journal belongs to when its rounds do not say: the SQLite file's stem, or
    the PostgreSQL schema (else the database name)."""
    if "://" in location and not location.startswith("sqlite:"):
        tail = location.split("://", 1)[1]
        if "schema=" in tail:
            return tail.split("schema=", 1)[1].split("&", 1)[0]
        return tail.split("?", 1)[0].rsplit("/", 1)[-1] or "table"
    return Path(location.removeprefix("sqlite:").removeprefix("//")).stem or "table"


def audit_records(records: Iterable[Record], table: str, scope: Scope, *, costs: bool = True,
                  samples: int = DEFAULT_SAMPLES) -> list[RoundAudit]:
    """Every round in scope, in journal order."""
    out = []
    for round_records in by_round(records).values():
        audit = audit_round(round_records, table, scope, costs=costs, samples=samples)
        if audit is not None:
            out.append(audit)
    return out


def audit_journal(journal: Journal, location: str, scope: Scope, *, costs: bool = True,
                  samples: int = DEFAULT_SAMPLES) -> list[RoundAudit]:
    """``audit_records`` over a whole journal."""
    return audit_records(journal.iter_records(), table_label(location), scope, costs=costs,
                         samples=samples)


@dataclass(frozen=True, slots=True)
class Group:
    """The figures of one dealer on one shift at one table."""

    dealer: str
    shift: str
    table: str
    rounds: int
    exposed: int  # rounds where the dealer's hand was exposed: the deviation rate's base
    deviations: int
    flagged: int  # deviations the engine flagged at the showdown (the rest: camera only)
    realized_cents: int
    expected_cents: float
    expected_error: float  # 95% half-width of the simulated part (0: all exact)
    staked: int
    top_rule: str | None
    top_rule_count: int
    overrides: int
    fouls: int
    corrections: int
    voids: int
    exposed_corrections: int = 0  # settings changed after the hands lay face up

    @property
    def deviation_rate(self) -> float:
        """Deviations per exposed dealer hand (0 when none was exposed)."""
        return self.deviations / self.exposed if self.exposed else 0.0


def summarize(audits: Sequence[RoundAudit]) -> list[Group]:
    """One ``Group`` per dealer, shift and table, ordered by dealer, shift, table."""
    keyed: dict[tuple[str, str, str], list[RoundAudit]] = {}
    for audit in audits:
        keyed.setdefault((audit.dealer, audit.shift, audit.table), []).append(audit)
    return [_group(key, rounds) for key, rounds in sorted(keyed.items())]


def _group(key: tuple[str, str, str], rounds: Sequence[RoundAudit]) -> Group:
    devs = [r.deviation for r in rounds if r.deviation is not None]
    rules = Counter(d.rule for d in devs)
    top = rules.most_common(1)[0] if rules else (None, 0)
    expected = [d.expected for d in devs if d.expected is not None]
    return Group(
        dealer=key[0], shift=key[1], table=key[2], rounds=len(rounds),
        exposed=sum(1 for r in rounds if r.exposed), deviations=len(devs),
        flagged=sum(1 for d in devs if d.flagged),
        realized_cents=sum(d.realized_cents or 0 for d in devs),
        expected_cents=sum(e.cents for e in expected),
        expected_error=math.sqrt(sum(e.error_cents ** 2 for e in expected)),
        staked=sum(r.staked for r in rounds), top_rule=top[0], top_rule_count=top[1],
        overrides=sum(len(r.overrides) for r in rounds),
        fouls=sum(len(r.fouls) for r in rounds),
        corrections=sum(len(r.corrections) for r in rounds),
        voids=sum(1 for r in rounds if r.status == "voided"),
        exposed_corrections=sum(1 for r in rounds for c in r.corrections if c.exposed))


__all__ = ["Group", "audit_journal", "audit_records", "summarize", "table_label"]
