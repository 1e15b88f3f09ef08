"""The dealer audit and the randomness audit, read from the journal (``docs/audit.md``).

``audit_journal`` gives one ``RoundAudit`` per round in a ``Scope`` (deviation from the house
way with its realized and expected cost, players set off the house way they asked for, fouls,
corrections, voids); ``summarize`` groups them per dealer, shift and table.  ``collect`` and
``run_checks`` give the chi-square and carry-over tests over the dice and the deal orders.
``dealer_html``/``randomness_html`` and ``tabular`` write the reports.
"""

from __future__ import annotations

from .costs import DEFAULT_SAMPLES, ExpectedCost, Stake, expected_cost, table_rules
from .dealers import Group, audit_journal, audit_records, summarize, table_label
from .errors import AuditDataError, AuditError, AuditInputError
from .html_report import dealer_html, randomness_html
from .randomness import Check, Draws, collect, overall, run_checks
from .rounds import Correction, Deviation, Foul, Override, RoundAudit, audit_round
from .scope import DEFAULT_SHIFTS, Scope, parse_shifts, parse_time

__all__ = [
    "DEFAULT_SAMPLES",
    "DEFAULT_SHIFTS",
    "AuditDataError",
    "AuditError",
    "AuditInputError",
    "Check",
    "Correction",
    "Deviation",
    "Draws",
    "ExpectedCost",
    "Foul",
    "Group",
    "Override",
    "RoundAudit",
    "Scope",
    "Stake",
    "audit_journal",
    "audit_records",
    "audit_round",
    "collect",
    "dealer_html",
    "expected_cost",
    "overall",
    "parse_shifts",
    "parse_time",
    "randomness_html",
    "run_checks",
    "summarize",
    "table_label",
    "table_rules",
]
