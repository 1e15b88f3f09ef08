"""The audits as one self-contained HTML page: tables and inline SVG plots, no script."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from html import escape
from typing import Any

from .dealers import Group
from .randomness import Check
from .rounds import RoundAudit
from .scope import Scope
from .svg import bar_chart
from .tabular import findings

_STYLE = """
body{font-family:system-ui,sans-serif;margin:1.5em;color:#222}
table{border-collapse:collapse;margin:.5em 0 1.5em}
th,td{border:1px solid #bbb;padding:.2em .5em;text-align:left;font-size:.9em}
th{background:#eee} td.num{text-align:right}
.pass{color:#1e7b34;font-weight:bold} .fail{color:#b00020;font-weight:bold}
.too.few,.incomplete{color:#8a6d00;font-weight:bold}
"""


def _page(title: str, body: Iterable[str]) -> str:
    return (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            f"<title>{escape(title)}</title><style>{_STYLE}</style></head><body>"
            f"<h1>{escape(title)}</h1>{''.join(body)}</body></html>\n")


def _table(columns: Sequence[str], rows: Iterable[Sequence[Any]], numeric: set[int]) -> str:
    head = "".join(f"<th>{escape(c)}</th>" for c in columns)
    lines = []
    for row in rows:
        cells = "".join(f'<td class="num">{escape(_cell(v))}</td>' if i in numeric
                        else f"<td>{escape(_cell(v))}</td>" for i, v in enumerate(row))
        lines.append(f"<tr>{cells}</tr>")
    if not lines:
        return "<p>None.</p>"
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(lines)}</tbody></table>"


def _cell(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:,.2f}"
    return str(value)


def _money(cents: float) -> str:
    sign = "-" if cents < 0 else ""
    return f"{sign}${abs(cents) / 100:,.2f}"


def _scope(scope: Scope, where: str) -> str:
    parts = [f"Journal: {where}",
             f"From: {scope.start.isoformat() if scope.start else 'the beginning'}",
             f"To: {scope.end.isoformat() if scope.end else 'the end'}",
             f"Table: {scope.table or 'all'}", f"Dealer: {scope.dealer or 'all'}",
             f"Shifts start at {', '.join(f'{h:02d}:00' for h in scope.shifts)} UTC",
             "Replayed rounds " + ("included" if scope.replays else "left out")]
    return "<ul>" + "".join(f"<li>{escape(p)}</li>" for p in parts) + "</ul>"


def dealer_html(audits: Sequence[RoundAudit], groups: Sequence[Group], scope: Scope,
                where: str) -> str:
    """The dealer audit: per dealer, shift and table; plots; every finding."""
    body = [_scope(scope, where), "<h2>Per dealer, shift and table</h2>",
            _table(["dealer", "shift", "table", "rounds", "exposed", "deviations", "rate",
                    "realized cost", "expected cost", "± (95%)", "rule most often broken",
                    "overrides", "fouls", "corrections", "after exposure", "voids"],
                   ([g.dealer, g.shift, g.table, g.rounds, g.exposed, g.deviations,
                     f"{g.deviation_rate:.1%}", _money(g.realized_cents),
                     _money(g.expected_cents), _money(g.expected_error),
                     f"{g.top_rule} ({g.top_rule_count})" if g.top_rule else "",
                     g.overrides, g.fouls, g.corrections, g.exposed_corrections, g.voids]
                    for g in groups),
                   {3, 4, 5, 6, 7, 8, 9, 11, 12, 13, 14, 15})]
    body.append("<h2>Plots</h2>")
    body.extend(dealer_plots(audits, groups))
    rows = list(findings(audits))
    kinds = [("deviation", "Dealer settings off the house way"),
             ("override", "Players who asked for the house way and were set otherwise"),
             ("foul", "Foul calls"), ("correction", "Corrections"),
             ("void", "Voided rounds")]
    for kind, title in kinds:
        picked = [r for r in rows if r["kind"] == kind]
        body.append(f"<h2>{escape(title)} ({len(picked)})</h2>")
        if kind == "deviation":
            body.append(_table(["round", "dealer", "opened", "rule", "dealer set", "house way",
                                "read from", "realized cost", "expected cost", "method",
                                "detail"],
                               ([r["round"], r["dealer"], r["opened"], r["rule"], r["actual"],
                                 r["house_way"], r["source"],
                                 "" if r["realized_cents"] is None
                                 else _money(r["realized_cents"]),
                                 "" if r["expected_cents"] is None
                                 else _money(r["expected_cents"]),
                                 r["method"], r["detail"]] for r in picked), {7, 8}))
        else:
            body.append(_table(["round", "dealer", "opened", "position", "setting",
                                "house way", "detail"],
                               ([r["round"], r["dealer"], r["opened"], r["position"],
                                 r["actual"], r["house_way"], r["detail"]] for r in picked),
                               {3}))
    body.append("<p>Realized cost: what the house would have had at position 1 with the house "
                "way's setting, minus what the settlement paid. Expected cost: the same "
                "choice against every opponent hand the other pieces allow, set by the house "
                "way (tiles: exact; cards: simulated, with the 95% interval shown).</p>")
    return _page("Dealer audit", body)


def dealer_plots(audits: Sequence[RoundAudit], groups: Sequence[Group]) -> list[str]:
    """The dealer audit's plots, each a ``<figure>`` holding an inline SVG."""
    by_dealer: dict[str, list[Group]] = defaultdict(list)
    for g in groups:
        by_dealer[g.dealer].append(g)
    dealers = sorted(by_dealer)
    if not dealers:
        return ["<p>No rounds in scope.</p>"]
    rate = [sum(g.deviations for g in by_dealer[d]) / max(1, sum(g.exposed for g in
                                                                 by_dealer[d]))
            * 100 for d in dealers]
    cost = [sum(g.expected_cents for g in by_dealer[d]) / 100 for d in dealers]
    realized = [sum(g.realized_cents for g in by_dealer[d]) / 100 for d in dealers]
    rules = Counter(a.deviation.rule for a in audits if a.deviation is not None)
    out = [bar_chart("Deviation rate by dealer", dealers, rate, suffix="%"),
           bar_chart("Expected cost by dealer", dealers, cost, prefix="$"),
           bar_chart("Realized cost by dealer", dealers, realized, prefix="$")]
    if rules:
        top = rules.most_common(12)
        out.append(bar_chart("Rules most often broken", [r for r, _ in top],
                             [float(n) for _, n in top]))
    return [f"<figure>{svg}</figure>" for svg in out]


def randomness_html(checks: Sequence[Check], verdict: str, scope: Scope, where: str,
                    notes: dict[str, int]) -> str:
    """The randomness audit: the verdict, every test, and its observed against expected."""
    body = [_scope(scope, where),
            f'<p>Verdict: <span class="{escape(verdict)}">{escape(verdict.upper())}</span></p>',
            "<p>Randomness notes on the records: "
            + escape(", ".join(f"{k}: {v}" for k, v in sorted(notes.items())) or "none")
            + "</p>",
            _table(["test", "n", "statistic", "df", "p-value", "level", "result", "standard",
                    "detail"],
                   ([c.title, c.n, c.statistic, c.df,
                     None if c.p_value is None else f"{c.p_value:.4g}", f"{c.level:.0%}",
                     c.status, c.source, c.detail] for c in checks), {1, 2, 3, 4})]
    for c in checks:
        if c.labels:
            what = ("chi-square per card (red: its expected value)" if c.name.startswith("card")
                    else "observed (bars) and expected (red)")
            chart = bar_chart(f"{c.title}: {what}", c.labels, c.observed, c.expected)
            body.append(f"<figure>{chart}</figure>")
    return _page("Randomness audit", body)
