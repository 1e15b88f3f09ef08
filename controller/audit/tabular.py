"""The audits as JSON and CSV for other tools: plain values, money in cents."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator, Sequence
from dataclasses import asdict
from typing import Any

from .dealers import Group
from .randomness import Check
from .rounds import Correction, RoundAudit
from .scope import Scope

GROUP_COLUMNS = ("dealer", "shift", "table", "rounds", "exposed", "deviations", "deviation_rate",
                 "flagged", "realized_cents", "expected_cents", "expected_error_cents",
                 "staked_cents", "top_rule", "top_rule_count", "overrides", "fouls",
                 "corrections", "exposed_corrections", "voids")
FINDING_COLUMNS = ("kind", "round", "table", "dealer", "shift", "opened", "position", "rule",
                   "actual", "house_way", "source", "realized_cents", "expected_cents",
                   "expected_error_cents", "method", "detail")
CHECK_COLUMNS = ("name", "title", "n", "statistic", "df", "p_value", "level", "status",
                 "source", "detail")


def scope_json(scope: Scope) -> dict[str, Any]:
    """The scope an audit ran with."""
    return {"from": scope.start.isoformat() if scope.start else None,
            "to": scope.end.isoformat() if scope.end else None, "table": scope.table,
            "dealer": scope.dealer, "shifts": list(scope.shifts), "replays": scope.replays}


def group_row(group: Group) -> dict[str, Any]:
    """One dealer, shift and table as a flat row."""
    return {"dealer": group.dealer, "shift": group.shift, "table": group.table,
            "rounds": group.rounds, "exposed": group.exposed, "deviations": group.deviations,
            "deviation_rate": round(group.deviation_rate, 4), "flagged": group.flagged,
            "realized_cents": group.realized_cents,
            "expected_cents": round(group.expected_cents, 2),
            "expected_error_cents": round(group.expected_error, 2), "staked_cents": group.staked,
            "top_rule": group.top_rule, "top_rule_count": group.top_rule_count,
            "overrides": group.overrides, "fouls": group.fouls,
            "corrections": group.corrections,
            "exposed_corrections": group.exposed_corrections, "voids": group.voids}


def findings(audits: Sequence[RoundAudit]) -> Iterator[dict[str, Any]]:
    """One flat row per finding: deviation, override, foul, correction, void."""
    for a in audits:
        base = {"round": a.round_id, "table": a.table, "dealer": a.dealer, "shift": a.shift,
                "opened": a.opened.isoformat()}
        blank = dict.fromkeys(FINDING_COLUMNS, None)
        d = a.deviation
        if d is not None:
            e = d.expected
            yield {**blank, **base, "kind": "deviation", "position": 1, "rule": d.rule,
                   "actual": d.actual, "house_way": d.house_way, "source": d.source,
                   "realized_cents": d.realized_cents,
                   "expected_cents": None if e is None else round(e.cents, 2),
                   "expected_error_cents": None if e is None else round(e.error_cents, 2),
                   "method": None if e is None else e.method,
                   "detail": f"hand {' '.join(d.hand)}; "
                             f"{'flagged at the showdown' if d.flagged else 'camera only'}"}
        for o in a.overrides:
            yield {**blank, **base, "kind": "override", "position": o.position,
                   "actual": o.actual, "house_way": o.house_way, "source": o.source,
                   "detail": ("asked for the house way" if o.requested
                              else "to be set by the house way") + ", set otherwise"}
        for f in a.fouls:
            yield {**blank, **base, "kind": "foul", "position": f.position, "actual": f.setting,
                   "detail": f.result}
        for c in a.corrections:
            yield {**blank, **base, "kind": "correction", "position": c.position,
                   "actual": c.after, "detail": correction_detail(c)}
        if a.status == "voided":
            yield {**blank, **base, "kind": "void",
                   "detail": f"{a.void_reason}{' (automatic)' if a.void_auto else ''}"}


def correction_detail(c: Correction) -> str:
    """A correction in words: what it changed, who, and (after exposure) that and why."""
    text = (f"record {c.seq} corrects record {c.ref} ({c.target}): {c.before} -> {c.after}, "
            f"by {c.actor} ({c.role})")
    if c.exposed:
        text = "AFTER EXPOSURE: " + text
    if c.reason is not None:
        text += f"; reason: {c.reason}"
    return text


def round_json(audit: RoundAudit) -> dict[str, Any]:
    """One round's audit as JSON values."""
    data = asdict(audit)
    data["opened"] = audit.opened.isoformat()
    if audit.deviation is not None and audit.deviation.expected is not None:
        data["deviation"]["expected"]["method"] = audit.deviation.expected.method
    return data


def dealer_json(audits: Sequence[RoundAudit], groups: Sequence[Group],
                scope: Scope) -> dict[str, Any]:
    """The whole dealer audit as one JSON object."""
    return {"audit": "dealers", "scope": scope_json(scope),
            "groups": [group_row(g) for g in groups],
            "findings": list(findings(audits)),
            "rounds": [round_json(a) for a in audits if _notable(a)]}


def _notable(audit: RoundAudit) -> bool:
    return bool(audit.deviation or audit.overrides or audit.fouls or audit.corrections
                or audit.status == "voided")


def check_row(check: Check) -> dict[str, Any]:
    """One randomness test as a flat row."""
    return {"name": check.name, "title": check.title, "n": check.n,
            "statistic": check.statistic, "df": check.df, "p_value": check.p_value,
            "level": check.level, "status": check.status, "source": check.source,
            "detail": check.detail}


def randomness_json(checks: Sequence[Check], verdict: str, scope: Scope,
                    notes: dict[str, int]) -> dict[str, Any]:
    """The randomness audit as one JSON object."""
    return {"audit": "randomness", "scope": scope_json(scope), "verdict": verdict,
            "randomness_notes": dict(sorted(notes.items())),
            "checks": [{**check_row(c), "labels": list(c.labels), "observed": list(c.observed),
                        "expected": list(c.expected)} for c in checks]}


def to_csv(rows: Sequence[dict[str, Any]], columns: Sequence[str]) -> str:
    """Rows as CSV text with a header line."""
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(columns), extrasaction="ignore",
                            lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return out.getvalue()
