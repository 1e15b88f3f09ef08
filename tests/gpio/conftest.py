"""GPIO test fixtures: a fresh MockFactory per test (reset afterwards), the sim table's pins."""

from __future__ import annotations

import time
import tomllib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from gpiozero import Device  # type: ignore[import-untyped]

from firmware_interfaces.gpio import MockLines, TablePins, mock_factory

SIM_TABLE = Path(__file__).resolve().parents[2] / "config" / "tables" / "sim-table.toml"


class FakeClock:
    """A monotonic clock the test moves by hand."""

    def __init__(self, start: float = 100.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


def wait_until(condition: Callable[[], bool], timeout: float = 5.0) -> None:
    """Poll a condition a background thread sets (a generous timeout, never a fixed sleep)."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("condition not met in time")
        time.sleep(0.001)


@pytest.fixture
def factory() -> Iterator[Any]:
    """A fresh MockFactory; the global ``Device.pin_factory`` must stay untouched."""
    global_before = Device.pin_factory
    factory: Any = mock_factory()
    yield factory
    factory.reset()
    assert Device.pin_factory is global_before, "a device fell back to the global pin factory"


@pytest.fixture
def table_pins() -> TablePins:
    return TablePins.from_config(tomllib.loads(SIM_TABLE.read_text(encoding="utf-8")))


@pytest.fixture
def mock(factory: Any, table_pins: TablePins) -> MockLines:
    return MockLines(factory, table_pins)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture(name="wait_until")
def wait_until_fixture() -> Callable[..., None]:
    return wait_until
