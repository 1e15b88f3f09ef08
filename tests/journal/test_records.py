"""The pure parts: canonical JSON (Hypothesis), record hashes, the chain check on rows in memory,
anchors, randomness notes and the clock."""

from __future__ import annotations

import json
import tempfile
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.journal import (
    GENESIS,
    Anchor,
    CanonicalError,
    Randomness,
    Role,
    StepClock,
    canonical,
    format_ts,
    open_journal,
    parse_canonical,
    parse_ts,
)
from controller.journal.chain import verify_rows
from controller.journal.records import Row, hash_row
from tests.journal.helpers import demo_events

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-(2**70), max_value=2**70) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20,
)
json_objects = st.dictionaries(st.text(), json_values, max_size=6)


@given(json_objects)
def test_canonical_text_round_trips(value: dict[str, Any]) -> None:
    text = canonical(value)
    assert text.isascii() and "\n" not in text
    assert parse_canonical(text) == value
    assert canonical(json.loads(text)) == text


@given(json_objects)
def test_canonical_text_ignores_key_order(value: dict[str, Any]) -> None:
    assert canonical(dict(reversed(list(value.items())))) == canonical(value)


@given(json_objects.filter(bool))
def test_any_other_spelling_is_not_canonical(value: dict[str, Any]) -> None:
    spaced = json.dumps(value, indent=1, ensure_ascii=False)
    with pytest.raises(CanonicalError):
        parse_canonical(spaced)


@pytest.mark.parametrize("text", ['{"a":1.0}', '{"a":NaN}', "[1]", '{"a":1,"a":2}', "nope"])
def test_texts_without_a_canonical_object_are_refused(text: str) -> None:
    with pytest.raises(CanonicalError):
        parse_canonical(text)


@settings(max_examples=25, deadline=None)
@given(st.integers(min_value=0, max_value=10**6))
def test_rules_events_survive_the_journal(seed: int) -> None:
    with tempfile.TemporaryDirectory() as tmp, \
            open_journal(Path(tmp) / "j.db", clock=StepClock()) as journal:
        for event in demo_events(seed):
            journal.append(event, actor="d", role=Role.DEALER, round_id="r")
        assert [r.rules_event() for r in journal.round("r")] == demo_events(seed)
        assert journal.verify().ok


def _rows(n: int) -> list[Row]:
    rows, prev = [], GENESIS
    for seq in range(1, n + 1):
        row = Row(seq, "r1" if seq % 2 else None, "note", canonical({"type": "note", "v": 1,
                  "i": seq}), "a", "system", format_ts(datetime(2025, 1, 1, tzinfo=UTC)),
                  None, False, prev, "")
        row = row._replace(hash=hash_row(row))
        rows.append(row)
        prev = row.hash
    return rows


def test_the_chain_of_a_fixed_journal_has_a_fixed_head() -> None:
    # Pins the documented encoding: changing it is a new FORMAT, never a quiet edit.
    rows = _rows(3)
    assert rows[0].hash == "e889f65f772c031fcd86f356b6cf63df5440f3710040ed60841464a483c5bc89"
    assert rows[2].hash == "3fcd40917cdec5bbe880372707c4ae77cbf2775e164493f10655977b7acdb9eb"
    report = verify_rows(rows, (3, rows[-1].hash))
    assert report.ok and report.records == 3 and report.last_hash == rows[-1].hash


def test_the_head_must_match_the_last_row() -> None:
    rows = _rows(3)
    assert verify_rows(rows, (4, "a" * 64)).first_bad == 4  # a record deleted from the end
    assert verify_rows(rows, (2, rows[1].hash)).first_bad == 3  # one slipped onto the end
    assert verify_rows(rows, (3, "a" * 64)).first_bad == 3  # the last one rewritten


def test_rows_in_memory_name_the_first_problem() -> None:
    rows = _rows(5)
    head = (5, rows[-1].hash)
    assert verify_rows(rows[:2] + rows[3:], head).first_bad == 3
    assert verify_rows([rows[0], rows[2], rows[1], *rows[3:]], head).first_bad == 2
    odd = rows[4]._replace(replay=2)  # type: ignore[arg-type]  # a tampered SQLite column
    assert verify_rows([*rows[:4], odd], head).first_bad == 5
    assert verify_rows(rows[:4], head).first_bad == 5
    assert verify_rows([], (0, GENESIS)).ok


def test_anchors_parse_and_print() -> None:
    anchor = Anchor.parse(f" 12:{'AB' * 32} ")
    assert anchor == Anchor(12, "ab" * 32) and str(anchor) == f"12:{'ab' * 32}"
    for bad in ("12", "0:" + "a" * 64, "x:" + "a" * 64, "3:" + "a" * 63):
        with pytest.raises(ValueError):
            Anchor.parse(bad)


def test_randomness_notes_parse_and_print() -> None:
    assert str(Randomness.production()) == "secrets"
    assert Randomness.parse("seeded:-42") == Randomness.seeded(-42)
    assert str(Randomness.seeded(7)) == "seeded:7"
    for bad in ("random", "seeded:", "seeded:x", "Secrets"):
        with pytest.raises(ValueError):
            Randomness.parse(bad)


def test_times_are_stored_in_utc_with_microseconds() -> None:
    moment = datetime(2025, 6, 1, 14, 0, 0, 5, tzinfo=timezone(timedelta(hours=2)))
    assert format_ts(moment) == "2025-06-01T12:00:00.000005Z"
    assert parse_ts("2025-06-01T12:00:00.000005Z") == moment
    clock = StepClock(step=timedelta(seconds=2))
    assert clock() + timedelta(seconds=2) == clock()
    for bad in ("2025-06-01T12:00:00Z", "2025-06-01 12:00:00.000000Z", 5):
        with pytest.raises(ValueError):
            parse_ts(bad)  # type: ignore[arg-type]
