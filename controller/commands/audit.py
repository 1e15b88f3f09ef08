"""``paigow audit JOURNAL``: the dealer audit (default) or the randomness audit
(``--randomness``), as an HTML report, CSV and JSON (``docs/audit.md``).

The journal is verified first: one that fails (or whose key is missing or wrong) is refused
with one line naming the first bad record, exit status 1, unless ``--unverified``; then every
output opens with an ``UNVERIFIED`` line (the summary's first line, the HTML page's first
element, a ``#`` line before the CSV header, the JSON object's first member ``unverified``).
The dealer audit exits 0.  The randomness audit exits 1 when any test fails at its
regulator's confidence level, else 0 (the verdict, ``pass`` or ``incomplete``, is printed).
A journal that cannot be opened, or a bad option, is one ``paigow: error:`` line, status 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from html import escape
from pathlib import Path
from typing import Any

from ..audit import (
    DEFAULT_SAMPLES,
    Scope,
    audit_journal,
    collect,
    dealer_html,
    overall,
    parse_shifts,
    parse_time,
    randomness_html,
    run_checks,
    summarize,
    table_label,
)
from ..audit.tabular import (
    CHECK_COLUMNS,
    FINDING_COLUMNS,
    GROUP_COLUMNS,
    check_row,
    dealer_json,
    findings,
    group_row,
    randomness_json,
    to_csv,
)
from ..errors import ControllerError
from ..journal import Journal, JournalError
from .common import UsageError, run_alone
from .journal import (
    UNVERIFIED_FLAG,
    JournalCommandError,
    JournalUnverifiedError,
    add_key_option,
    open_reader,
    verify_first,
)


class AuditCommandError(ControllerError):
    """The audit command could not run; the message is one line."""


def _open(location: str, key_file: str | None) -> Journal:
    try:
        return open_reader(location, key_file)
    except JournalCommandError as err:
        raise AuditCommandError(str(err)) from err


def _marked(text: str, form: str, banner: str | None) -> str:
    """An output with the ``UNVERIFIED`` line first, in the form's own way."""
    if banner is None:
        return text
    if form == "html":
        mark = (f'<p class="unverified" style="background:#b00020;color:#fff;padding:.5em;'
                f'font-weight:bold">{escape(banner)}</p>')
        head, body, rest = text.partition("<body>")
        return f"{head}{body}{mark}{rest}" if body else mark + text
    if form == "csv":
        return f"# {banner}\n{text}"
    return text


def _scope(args: argparse.Namespace) -> Scope:
    return Scope(start=None if args.start is None else parse_time(args.start, "--from"),
                 end=None if args.end is None else parse_time(args.end, "--to"),
                 table=args.table, dealer=args.dealer,
                 shifts=parse_shifts(args.shifts), replays=args.replays)


def _write(target: str, text: str) -> None:
    if target == "-":
        sys.stdout.write(text)
        return
    try:
        Path(target).write_text(text, encoding="utf-8")
    except OSError as err:
        raise UsageError(f"cannot write {target!r}: {err.strerror}") from err


def _check_outputs(args: argparse.Namespace) -> None:
    if args.randomness and args.findings_csv:
        raise UsageError("--findings-csv belongs to the dealer audit, not --randomness")
    targets = [t for t in (args.report, args.csv, args.findings_csv, args.json) if t]
    if targets.count("-") > 1:
        raise UsageError("only one output may go to standard output ('-')")
    if isinstance(args.samples, int) and args.samples < 2:
        raise UsageError(f"--samples {args.samples!r} must be 2 or more")


def cmd_audit(args: argparse.Namespace) -> int:
    """Run the dealer audit or the randomness audit over a journal."""
    _check_outputs(args)
    scope = _scope(args)
    journal = _open(args.journal, args.key_file)
    try:
        where = journal.where
        try:
            args.banner = verify_first(journal, args.unverified, "audit")
        except JournalUnverifiedError as err:
            print(f"paigow: {err}", file=sys.stderr)
            return 1
        except JournalCommandError as err:
            raise AuditCommandError(str(err)) from err
        if args.randomness:
            return _randomness(args, journal, scope, where)
        return _dealers(args, journal, scope, where)
    except JournalError as err:
        raise AuditCommandError(str(err)) from err
    finally:
        journal.close()


def _first(banner: str | None, data: dict[str, Any]) -> dict[str, Any]:
    """A JSON report with ``unverified`` as its first member when there is a banner."""
    return data if banner is None else {"unverified": banner, **data}


def _dealers(args: argparse.Namespace, journal: Journal, scope: Scope, where: str) -> int:
    audits = audit_journal(journal, args.journal, scope, costs=not args.no_costs,
                           samples=args.samples)
    groups = summarize(audits)
    banner = args.banner
    if args.report:
        _write(args.report, _marked(dealer_html(audits, groups, scope, where), "html", banner))
    if args.csv:
        _write(args.csv, _marked(to_csv([group_row(g) for g in groups], GROUP_COLUMNS), "csv",
                                 banner))
    if args.findings_csv:
        _write(args.findings_csv, _marked(to_csv(list(findings(audits)), FINDING_COLUMNS),
                                          "csv", banner))
    if args.json:
        _write(args.json, json.dumps(_first(banner, dealer_json(audits, groups, scope)),
                                     indent=1) + "\n")
    if "-" not in (args.report, args.csv, args.findings_csv, args.json):
        if banner:
            print(banner)
        devs = sum(g.deviations for g in groups)
        print(f"{where}: {len(audits)} rounds, {devs} dealer deviations, "
              f"{sum(g.overrides for g in groups)} overrides, {sum(g.fouls for g in groups)} "
              f"fouls, {sum(g.corrections for g in groups)} corrections "
              f"({sum(g.exposed_corrections for g in groups)} after exposure), "
              f"{sum(g.voids for g in groups)} voids")
        for g in groups:
            cost = f"expected ${g.expected_cents / 100:,.2f}"
            if g.expected_error:
                cost += f" ±{g.expected_error / 100:,.2f}"
            print(f"  {g.dealer} {g.shift} {g.table}: {g.deviations}/{g.exposed} deviations "
                  f"({g.deviation_rate:.1%}), realized ${g.realized_cents / 100:,.2f}, {cost}"
                  + (f", most often {g.top_rule}" if g.top_rule else ""))
    return 0


def _randomness(args: argparse.Namespace, journal: Journal, scope: Scope, where: str) -> int:
    draws = collect(journal.iter_records(), table_label(args.journal), scope)
    checks = run_checks(draws)
    verdict = overall(checks)
    notes: dict[str, Any] = dict(draws.notes)
    banner = args.banner
    if args.report:
        _write(args.report, _marked(randomness_html(checks, verdict, scope, where, notes),
                                    "html", banner))
    if args.csv:
        _write(args.csv, _marked(to_csv([check_row(c) for c in checks], CHECK_COLUMNS), "csv",
                                 banner))
    if args.json:
        _write(args.json, json.dumps(_first(banner, randomness_json(checks, verdict, scope,
                                                                    notes)), indent=1) + "\n")
    if "-" not in (args.report, args.csv, args.json):
        if banner:
            print(banner)
        print(f"{where}: randomness {verdict.upper()}")
        for c in checks:
            p = "" if c.p_value is None else f" p={c.p_value:.4g}"
            print(f"  {c.status:<7} {c.title} (n={c.n}){p} at {c.level:.0%}: {c.detail}")
    return 1 if verdict == "fail" else 0


def add_parsers(sub: Any) -> None:
    """Register ``audit``."""
    p = sub.add_parser("audit", help="dealer audit (house way, fouls, corrections, voids) "
                                     "or randomness audit of a journal")
    p.add_argument("journal", metavar="JOURNAL", help="SQLite path or postgresql:// URL")
    p.add_argument("--randomness", action="store_true",
                   help="chi-square tests of dice, first positions and card positions, "
                        "repeated and carried-over shuffles (exit 1 on a failure)")
    p.add_argument("--from", dest="start", metavar="T", help="rounds opened at or after T "
                                                             "(2026-11-22 or ...T06:00Z)")
    p.add_argument("--to", dest="end", metavar="T", help="rounds opened before T")
    p.add_argument("--table", metavar="ID", help="one table (default: all)")
    p.add_argument("--dealer", metavar="ID", help="one dealer (default: all)")
    p.add_argument("--shifts", default="6,14,22", metavar="H,H,...",
                   help="UTC hours shifts start at (default 6,14,22)")
    p.add_argument("--replays", action="store_true", help="include replayed rounds")
    p.add_argument("--report", metavar="OUT.html", help="write the HTML report")
    p.add_argument("--csv", metavar="OUT.csv",
                   help="per dealer, shift and table (or per test with --randomness)")
    p.add_argument("--findings-csv", metavar="OUT.csv",
                   help="one row per deviation, override, foul, correction and void")
    p.add_argument("--json", metavar="OUT.json", help="everything as one JSON object "
                                                      "('-': standard output)")
    p.add_argument("--samples", type=int, default=DEFAULT_SAMPLES, metavar="N",
                   help=f"opponent hands simulated per card deviation (default "
                        f"{DEFAULT_SAMPLES})")
    p.add_argument("--no-costs", action="store_true", help="skip the expected costs")
    p.add_argument(UNVERIFIED_FLAG, action="store_true",
                   help="report on a journal without verifying it first (every output then "
                        "opens with an UNVERIFIED line)")
    add_key_option(p)
    p.set_defaults(handler=cmd_audit)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m controller.commands.audit ...``."""
    return run_alone(add_parsers, argv)


if __name__ == "__main__":
    raise SystemExit(main())
