"""The supervisor's audit page: ``GET /audit`` (the page), ``GET /api/audit`` (the dealer audit)
and ``GET /api/audit/randomness`` (the randomness audit), both read from the table's journal.

Only a supervisor's token may read them (401 without a token, 403 for a dealer).  The answers
are the JSON of ``paigow audit --json`` plus ``plots``: inline SVG drawn by ``audit.svg``.

Like ``paigow audit``, both verify the journal's chain first, in a worker thread (one verify at
a time), its records read a batch at a time so the table keeps appending meanwhile.  A journal
that does not verify is refused with 409 (the request is sound and the server well; the journal
is in a state no report may be built on), ``detail`` naming the first bad record, also given as
``first_bad`` and ``reason``.  ``unverified=true`` reports without verifying, and the report's
first member is then ``unverified``, the line the page shows first, as a red banner.  Nothing is
cached between requests: a record edited after one verify must fail the next.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path
from typing import Annotated, Any, TypeVar

import anyio
from fastapi import APIRouter, HTTPException, Query, Request, status
from fastapi.responses import HTMLResponse, JSONResponse

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
from ...journal import Record, Role, VerifyReport
from ..deps import OperatorDep, TableDep
from ..inputs import WORD_MAX
from ..table import Table

router = APIRouter(tags=["audit"])
_PAGE = Path(__file__).parent.parent / "static" / "audit.html"
_BATCH = 1000
T = TypeVar("T")


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


UnverifiedQ = Annotated[bool, Query(description="report even when the journal does not verify "
                                               "(the report then opens with 'unverified')")]
_REFUSED: dict[int | str, dict[str, Any]] = {
    409: {"description": "the journal does not verify: `detail` names the first bad record "
                         "(`first_bad`, `reason`); `unverified=true` reports anyway"}}


def banner(where: str) -> str:
    """The first line of a report made without verifying the journal at ``where``."""
    return (f"UNVERIFIED: the chain of {where} was not checked (unverified=true); nothing here "
            f"is proven to be what the table wrote")


def refusal(where: str, report: VerifyReport) -> JSONResponse:
    """409 for a journal that does not verify, naming its first bad record."""
    return JSONResponse(
        {"detail": f"{where}: {report.line()}; refusing to audit a journal that does not "
                   f"verify (unverified=true to go on)",
         "first_bad": report.first_bad, "reason": report.reason or report.unchecked},
        status_code=status.HTTP_409_CONFLICT)


async def _in_thread(request: Request, work: Callable[[], T], *, verify: bool = False) -> T:
    """``work`` in a worker thread; a verify waits for any other verify to end first."""
    limiter = None
    if verify:
        limiter = getattr(request.app.state, "verify_limiter", None)
        if limiter is None:
            limiter = request.app.state.verify_limiter = anyio.CapacityLimiter(1)
    return await anyio.to_thread.run_sync(work, limiter=limiter)


async def _verified(request: Request, table: Table,
                    unverified: bool) -> tuple[str | None, JSONResponse | None]:
    """The banner a report opens with (``unverified``), or the refusal of a journal that does
    not verify, or neither."""
    where = table.journal.where
    if unverified:
        return banner(where), None
    report = await _in_thread(request, partial(table.journal.verify, batch=_BATCH), verify=True)
    return None, None if report.ok else refusal(where, report)


def _first(mark: str | None, data: dict[str, Any]) -> dict[str, Any]:
    """A report with ``unverified`` as its first member when it was made without verifying."""
    return data if mark is None else {"unverified": mark, **data}


def _dealers(table: Table, scope: Scope, samples: int) -> dict[str, Any]:
    try:
        audits = audit_records(_records(table), table_label(table.journal.where), scope,
                               samples=samples)
    except AuditError as err:
        raise HTTPException(status.HTTP_500_INTERNAL_SERVER_ERROR, str(err)) from err
    groups = summarize(audits)
    return {**dealer_json(audits, groups, scope), "plots": dealer_plots(audits, groups)}


def _randomness(table: Table, scope: Scope) -> dict[str, Any]:
    draws = collect(_records(table), table_label(table.journal.where), scope)
    checks = run_checks(draws)
    plots = [f"<figure>{bar_chart(c.title, c.labels, c.observed, c.expected)}</figure>"
             for c in checks if c.labels]
    return {**randomness_json(checks, overall(checks), scope, dict(draws.notes)),
            "plots": plots}


@router.get("/api/audit", response_model=None, responses=_REFUSED)
async def dealer_audit(request: Request, table: TableDep, who: OperatorDep,
                       start: FromQ = None, end: ToQ = None, dealer: DealerQ = None,
                       shifts: ShiftsQ = "6,14,22",
                       samples: Annotated[int, Query(ge=2, le=MAX_SAMPLES)] = 2000,
                       unverified: UnverifiedQ = False) -> dict[str, Any] | JSONResponse:
    """The dealer audit of this table's journal, verified first: per dealer, shift and table,
    every finding, and the plots."""
    _supervisor(who)
    scope = _scope(start, end, dealer, shifts)
    mark, refused = await _verified(request, table, unverified)
    if refused is not None:
        return refused
    return _first(mark, await _in_thread(request, partial(_dealers, table, scope, samples)))


@router.get("/api/audit/randomness", response_model=None, responses=_REFUSED)
async def randomness_audit(request: Request, table: TableDep, who: OperatorDep,
                           start: FromQ = None, end: ToQ = None, shifts: ShiftsQ = "6,14,22",
                           unverified: UnverifiedQ = False) -> dict[str, Any] | JSONResponse:
    """The randomness audit of this table's journal, verified first, with a plot per test."""
    _supervisor(who)
    scope = _scope(start, end, None, shifts)
    mark, refused = await _verified(request, table, unverified)
    if refused is not None:
        return refused
    return _first(mark, await _in_thread(request, partial(_randomness, table, scope)))
