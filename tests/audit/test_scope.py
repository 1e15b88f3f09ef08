"""Shifts, times and table names of the audit's scope."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from controller.audit import AuditInputError, Scope, parse_shifts, parse_time, table_label

moments = st.datetimes(min_value=datetime(2020, 1, 1), max_value=datetime(2030, 1, 1),
                       timezones=st.just(UTC))
shift_sets = st.sets(st.integers(0, 23), min_size=1, max_size=6).map(lambda s: tuple(sorted(s)))


@given(moments, shift_sets)
def test_every_moment_falls_in_the_shift_it_is_named_after(moment: datetime,
                                                           starts: tuple[int, ...]) -> None:
    name = Scope(shifts=starts).shift(moment)
    day, hours = name.split(" ")
    begin, end = (int(h) for h in hours.split("-"))
    start = datetime.fromisoformat(day).replace(hour=begin, tzinfo=UTC)
    length = (end - begin) % 24 or 24
    assert begin in starts and start <= moment < start + timedelta(hours=length)


def test_a_night_shift_belongs_to_the_day_it_started() -> None:
    scope = Scope()
    assert scope.shift(datetime(2026, 11, 23, 3, 0, tzinfo=UTC)) == "2026-11-22 22-06"
    assert scope.shift(datetime(2026, 11, 22, 22, 0, tzinfo=UTC)) == "2026-11-22 22-06"
    assert scope.shift(datetime(2026, 11, 22, 13, 59, tzinfo=UTC)) == "2026-11-22 06-14"


def test_times_are_utc_and_bad_ones_are_named() -> None:
    assert parse_time("2026-11-22") == datetime(2026, 11, 22, tzinfo=UTC)
    assert parse_time("2026-11-22T08:00+02:00") == datetime(2026, 11, 22, 6, tzinfo=UTC)
    assert parse_time("2026-11-22T06:00Z") == datetime(2026, 11, 22, 6, tzinfo=UTC)
    with pytest.raises(AuditInputError, match="'22/11/2026'"):
        parse_time("22/11/2026")
    with pytest.raises(AuditInputError, match="'6,6'"):
        parse_shifts("6,6")
    with pytest.raises(AuditInputError, match="is not after"):
        Scope(start=parse_time("2026-11-22"), end=parse_time("2026-11-21"))


@pytest.mark.parametrize(("location", "label"), [
    ("/var/lib/paigow/table7.db", "table7"),
    ("sqlite:/var/lib/paigow/t3.db", "t3"),
    ("postgresql://paigow@db/casino?schema=table9", "table9"),
    ("postgresql://paigow@db/casino", "casino"),
])
def test_the_table_a_journal_belongs_to(location: str, label: str) -> None:
    assert table_label(location) == label
