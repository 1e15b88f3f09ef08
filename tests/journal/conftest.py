"""Fixtures of the journal tests: an empty journal location on each back end in turn."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.journal.helpers import BACKENDS, Store, make_store


@pytest.fixture(params=BACKENDS)
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    """An empty journal location: an SQLite file, then a fresh PostgreSQL schema."""
    yield from make_store(request.param, tmp_path)
