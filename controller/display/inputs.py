"""Bounded input types for the API's bodies and queries, and the 422 answer naming a bad value.

Every value a request brings is bounded here before any act sees it: positions, amounts and
record numbers are whole numbers in a range (JSON ``true``, ``2.5``, ``NaN`` and ``1e308`` are
not), words (a setting, a hand, a cut) are short, and free text (a void's reason, a fault's
note) is printable and at most ``TEXT_MAX`` characters, since the journal keeps it for ever.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Annotated, Any

from pydantic import AfterValidator, Field, StringConstraints

TEXT_MAX = 500
"""The longest free text (a reason, a note) an act keeps, in characters."""

WORD_MAX = 64
"""The longest word an act takes (a setting, a hand, a round id, a cut and its options)."""

MAX_CENTS = 1_000_000_000
"""The largest amount an act takes, in cents; the table's limits are far below it."""

MAX_REF = 2**53
"""The largest record number an act may name (JSON integers are exact below it)."""

SHOWN_MAX = 40
"""How much of a bad value a 422 answer repeats, in characters."""


def _printable(text: str) -> str:
    if not text.isprintable():
        raise ValueError("must be printable text (no control characters or line breaks)")
    return text


Position = Annotated[int, Field(strict=True, ge=1, le=8)]
"""A position at the table (1..8; the table checks which it has)."""

Cents = Annotated[int, Field(strict=True, ge=0, le=MAX_CENTS)]
"""An amount in cents, 0 or more."""

PositiveCents = Annotated[int, Field(strict=True, gt=0, le=MAX_CENTS)]
"""An amount in cents, more than 0."""

Ref = Annotated[int, Field(strict=True, ge=1, le=MAX_REF)]
"""A journal record's number."""

Word = Annotated[str, StringConstraints(max_length=WORD_MAX), AfterValidator(_printable)]
"""A short piece of text: a setting, a hand, a round id, a cut name or option."""

Text = Annotated[str, StringConstraints(max_length=TEXT_MAX), AfterValidator(_printable)]
"""Free text the journal keeps: printable, at most ``TEXT_MAX`` characters."""

Reason = Annotated[str, StringConstraints(min_length=1, max_length=TEXT_MAX),
                   AfterValidator(_printable)]
"""Free text that must say something (a void's reason)."""


def _shown(value: Any) -> Any:
    """A bad value as the answer repeats it: short, and always valid JSON (no NaN)."""
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else str(value)
    if isinstance(value, int | str):
        text = value if isinstance(value, str) else str(value)
        if len(text) <= SHOWN_MAX:
            return value
        return text[:SHOWN_MAX] + f"... ({len(text)} characters)"
    return type(value).__name__


def invalid(errors: Sequence[Any]) -> list[dict[str, Any]]:
    """FastAPI's validation errors as a 422's ``detail``: where (``loc``), what is wrong
    (``msg``, ``type``) and the bad value, cut short (``input``)."""
    detail = []
    for error in errors:
        item = {"loc": [str(part) if not isinstance(part, int) else part
                        for part in error.get("loc", ())],
                "msg": str(error.get("msg", "")), "type": str(error.get("type", ""))}
        if "input" in error:
            item["input"] = _shown(error["input"])
        detail.append(item)
    return detail
