"""Line faults, on every back end: noise, dropped line, silence, slow answers, a refused device."""

from __future__ import annotations

import time

import pytest

from firmware_interfaces.errors import DeviceRefused, DeviceTimeout
from firmware_interfaces.events import LINK_LOST
from firmware_interfaces.identity import Expected
from firmware_interfaces.protocol.common import Cleared, Fault
from firmware_interfaces.serial_driver import Timing
from firmware_interfaces.shaker import ShakerDriver
from firmware_interfaces.shuffler import ShufflerDriver
from tests.devices.helpers import TIMING, Backend, eventually, next_event


def test_noise_costs_resends_never_a_wrong_answer(shuffler_backend: Backend) -> None:
    shuffler_backend.require_control()
    shuffler = shuffler_backend.open(ShufflerDriver, timing=Timing(
        ack_timeout=0.2, reply_timeout=2.0, retries=8))
    shuffler.shuffle()
    shuffler.control(garbage=0.25)
    packets = [shuffler.deal() for _ in range(7)]
    statuses = [shuffler.status() for _ in range(25)]
    shuffler.control(garbage=0)
    assert [p.n for p in packets] == list(range(1, 8))
    assert {s.packets for s in statuses} == {7}
    stats = shuffler.stats
    assert stats.garbage_bytes > 0
    assert stats.naks_sent + stats.naks_received + stats.resends > 0
    assert shuffler.counters().packets >= 7  # resent DEALs were answered from memory


def test_a_dropped_line_is_a_fault_then_cleared(shuffler_backend: Backend) -> None:
    shuffler_backend.require_control()
    shuffler = shuffler_backend.open(ShufflerDriver)
    shuffler.shuffle()
    shuffler.control(drop=1)
    lost = next_event(shuffler, lambda e: e.record == Fault(LINK_LOST))
    assert lost.detail
    next_event(shuffler, lambda e: e.record == Cleared(LINK_LOST))
    assert shuffler.connected and shuffler.stats.reconnects == 1
    assert shuffler.deal().n == 1  # same device, same deck: the state survived the drop


def test_a_request_during_the_drop_goes_through_after_it(shaker_backend: Backend) -> None:
    shaker_backend.require_control()
    shaker = shaker_backend.open(ShakerDriver)
    first = shaker.shake()
    shaker.control(drop=1)
    assert shaker.shake().shake == first.shake + 1  # waits out the reconnect, within retries
    next_event(shaker, lambda e: e.record == Cleared(LINK_LOST))


def test_silence_is_a_timeout_and_the_device_comes_back(shuffler_backend: Backend) -> None:
    shuffler_backend.require_control()
    quick = Timing(ack_timeout=0.1, reply_timeout=0.5, retries=2)
    shuffler = shuffler_backend.open(ShufflerDriver, timing=quick)
    shuffler.control(silence=1.0)
    started = time.monotonic()
    with pytest.raises(DeviceTimeout, match="no answer to STATUS after 3 tries"):
        shuffler.status()
    assert time.monotonic() - started < 1.0  # bounded by the retries, not by the silence

    def answers() -> bool:
        try:
            shuffler.ping()
        except DeviceTimeout:
            return False
        return True

    eventually(answers, timeout=5)


def test_slow_answers_are_resent_but_done_once(shuffler_backend: Backend) -> None:
    shuffler_backend.require_control()
    impatient = Timing(ack_timeout=0.3, reply_timeout=0.15, retries=6)
    shuffler = shuffler_backend.open(ShufflerDriver, timing=impatient)
    before = shuffler.counters().shuffles
    shuffler.control(slow=0.4)
    assert shuffler.shuffle().ok
    shuffler.control(slow=0)
    assert shuffler.stats.resends >= 1
    assert shuffler.counters().shuffles == before + 1


def test_slow_answers_within_the_reply_time_need_no_resend(shaker_backend: Backend) -> None:
    shaker_backend.require_control()
    shaker = shaker_backend.open(ShakerDriver)
    shaker.control(slow=0.4)  # longer than the ACK timeout: the ACK came at once
    assert shaker.shake().game
    shaker.control(slow=0)
    assert shaker.stats.resends == 0


@pytest.mark.parametrize(
    ("expected", "named"),
    [
        (Expected("shuffler", firmware_hashes=frozenset({"sha256:" + "0" * 64})), "firmware hash"),
        (Expected("shuffler", model="XYZ-1"), "model"),
        (Expected("shaker"), "expected a shaker"),
    ],
)
def test_a_device_the_profile_does_not_approve_is_refused(
    shuffler_backend: Backend, expected: Expected, named: str
) -> None:
    with pytest.raises(DeviceRefused, match=named):
        shuffler_backend.open(ShufflerDriver, expected)


def test_a_seeded_simulator_is_refused_where_seeds_are_not_allowed(
    shuffler_backend: Backend,
) -> None:
    shuffler_backend.require_control()
    with pytest.raises(DeviceRefused, match="seeded"):
        shuffler_backend.open(ShufflerDriver, Expected("shuffler", allow_seeded=False))


def test_the_approved_device_is_accepted(shuffler_backend: Backend) -> None:
    first = shuffler_backend.open(ShufflerDriver)
    hello = first.hello
    first.close()  # one host per line, as on a serial port
    approved = Expected("shuffler", hello.model, frozenset({hello.fw_hash}))
    assert shuffler_backend.open(ShufflerDriver, approved, timing=TIMING).hello == hello
