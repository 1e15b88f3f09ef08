"""Fixtures of the device tests: a shuffler and a shaker on every back end, simulator processes."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from tests.devices.helpers import BACKENDS, Backend, SimProcess, backend


@pytest.fixture(params=BACKENDS)
def shuffler_backend(request: pytest.FixtureRequest) -> Iterator[Backend]:
    """A shuffler on each back end in turn."""
    with backend(request.param, "shuffler", request.config) as b:
        yield b


@pytest.fixture(params=BACKENDS)
def shaker_backend(request: pytest.FixtureRequest) -> Iterator[Backend]:
    """A shaker on each back end in turn."""
    with backend(request.param, "shaker", request.config) as b:
        yield b


@pytest.fixture
def start_sim() -> Iterator[Callable[..., SimProcess]]:
    """Start simulator processes with command-line options; all are stopped afterwards."""
    started: list[SimProcess] = []

    def start(device: str, *options: str, transport: str = "pty") -> SimProcess:
        sim = SimProcess(device, transport, *options)
        started.append(sim)
        return sim

    yield start
    for sim in started:
        sim.stop()


