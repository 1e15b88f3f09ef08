"""Options and fixtures for the whole suite: ``--hardware URL`` runs the device contract on a real
device; ``pg_url`` is a journal URL in a fresh PostgreSQL schema; journals are keyed with
``TEST_KEY`` through the environment."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from controller.journal import KEY_ENV
from tests.journal.helpers import PG_URL, TEST_KEY, pg_schema

# Every journal the suite makes is keyed with the test key, set in the environment so that the
# `paigow` processes tests start use it too; a test that wants an unkeyed journal says so
# (key=UNKEYED), one that wants no key removes the variable.
os.environ[KEY_ENV] = TEST_KEY.secret.hex()
os.environ.pop("PAIGOW_JOURNAL_KEY_FILE", None)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--hardware",
        action="append",
        default=[],
        metavar="URL",
        help="pyserial URL of a real shuffler or shaker for tests/devices (repeatable); "
        "without it the hardware back end is skipped",
    )


@pytest.fixture
def pg_url(request: pytest.FixtureRequest) -> Iterator[str]:
    """A journal URL in a fresh schema on the PostgreSQL test server, dropped after the test
    (skipped with the reason when the server cannot be reached)."""
    with pg_schema(request.module.__name__.rsplit(".", 1)[-1]) as schema:
        yield f"{PG_URL}?schema={schema}"
