"""The supervisor's audit page: ``GET /audit`` (the page), ``GET /api/audit`` (the dealer audit)
and ``GET /api/audit/randomness`` (the randomness audit), both read from the table's journal.

Only a supervisor's token may read them (401 without a token, 403 for a dealer).  The answers
are the JSON of ``paigow audit --json`` plus ``plots``: inline SVG drawn by ``audit.svg``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Query, status
from fastapi.responses import HTMLResponse

from ...audit import (
    AuditError,
    Scope,
    audit_records,
    collect,
    overall,
    parse_shifts,
    parse_time,
    run_checks,
    summarize,
    table_label,
)
from ...audit.costs import DEFAULT_SAMPLES
from ...audit.html_report import dealer_plots
from ...audit.svg import bar_chart
from ...audit.tabular import dealer_json, randomness_json
from ...journal import Record, Role
from ..deps import OperatorDep, TableDep
from ..inputs import WORD_MAX
from ..table import Table

router = APIRouter(tags=["audit"])
_PAGE = Path(__file__).parent.parent / "static" / "audit.html"
_BATCH = 1000


def _supervisor(who: OperatorDep) -> None:
    if who.role is not Role.SUPERVISOR:
        raise HTTPException(status.HTTP_403_FORBIDDEN,
                            f"{who.actor!r} has role {who.role.value!r}; the audit is for a "
                            f"supervisor")


def _records(table: Table) -> Iterator[Record]:
    """Every record, a batch at a time under the table's lock."""
    after = 0
    while True:
        batch = table.records_after(after, _BATCH)
        yield from batch
        if len(batch) < _BATCH:
            return
        after = batch[-1].seq


def _scope(start: str | None, end: str | None, dealer: str | None, shifts: str) -> Scope:
    try:
        return Scope(start=None if start is None else parse_time(start, "from"),
                     end=None if end is None else parse_time(end, "to"), dealer=dealer or None,
                     shifts=parse_shifts(shifts))
    except AuditError as err:
        raise HTTPException(422, str(err)) from err


MAX_SAMPLES = DEFAULT_SAMPLES
"""The most opponent hands the API simulates per deviation (``paigow audit``'s default): what
one request costs is set by the journal, not by the asker (the command line takes more, off the
table)."""

FromQ = Annotated[str | None, Query(alias="from", max_length=40,
                                    description="rounds opened at or after")]
ToQ = Annotated[str | None, Query(alias="to", max_length=40, description="rounds opened before")]
ShiftsQ = Annotated[str, Query(max_length=40, description="UTC hours shifts start at")]
DealerQ = Annotated[str | None, Query(max_length=WORD_MAX, description="one dealer only")]


@router.get("/audit", response_class=HTMLResponse, include_in_schema=False)
def audit_page() -> HTMLResponse:
    """The supervisor's audit page (it asks for a supervisor's token)."""
    return HTMLResponse(_PAGE.read_text(encoding="utf-8"))


@router.get("/api/audit")
def dealer_audit(table: TableDep, who: OperatorDep, start: FromQ = None, end: ToQ = None,
                 dealer: DealerQ = None, shifts: ShiftsQ = "6,14,22",
                 samples: Annotated[int, Query(ge=2, le=MAX_SAMPLES)] = 2000) -> dict[str, Any]:
    """The dealer audit of this table's journal: per dealer, shift and table, every finding,
    and the plots."""
    _supervisor(who)
    scope = _scope(start, end, dealer, shifts)
    try:
        audits = audit_records(_records(table), table_label(table.journal.where), scope,
                               samples=samples)
    except AuditError as err:
        raise HTTPException(status.HTTP_500_INTERNAL_SERVER_ERROR, str(err)) from err
    groups = summarize(audits)
    return {**dealer_json(audits, groups, scope), "plots": dealer_plots(audits, groups)}


@router.get("/api/audit/randomness")
def randomness_audit(table: TableDep, who: OperatorDep, start: FromQ = None, end: ToQ = None,
                     shifts: ShiftsQ = "6,14,22") -> dict[str, Any]:
    """The randomness audit of this table's journal, with a plot per test."""
    _supervisor(who)
    scope = _scope(start, end, None, shifts)
    draws = collect(_records(table), table_label(table.journal.where), scope)
    checks = run_checks(draws)
    plots = [f"<figure>{bar_chart(c.title, c.labels, c.observed, c.expected)}</figure>"
             for c in checks if c.labels]
    return {**randomness_json(checks, overall(checks), scope, dict(draws.notes)),
            "plots": plots}
