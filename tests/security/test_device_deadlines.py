"""Issue 30 item 2: a device that only ACKs (or never replies, drips, floods) cannot hang a call.

Every call has one absolute deadline (``Timing.call_limit``); before the fix each duplicate ACK
moved the reply wait on, so ``paigow devices probe`` against an ACK-forever device never returned.
Real simulator processes over ptys, their hostile modes given on the command line or by ``CTRL``.
"""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from collections.abc import Iterator

import pytest

from firmware_interfaces.errors import DeviceInterrupted, DeviceTimeout
from firmware_interfaces.events import EVENT_LIMIT, EventQueue
from firmware_interfaces.link_config import Timing
from firmware_interfaces.shaker import ShakerDriver
from firmware_interfaces.shuffler import ShufflerDriver
from tests.devices.helpers import SimProcess, Start


@pytest.fixture
def start_sim() -> Iterator[Start]:
    """Simulator processes over ptys, started with options; all stopped afterwards."""
    started: list[SimProcess] = []

    def start(device: str, *options: str) -> SimProcess:
        started.append(SimProcess(device, "pty", *options))
        return started[-1]

    yield start
    for sim in started:
        sim.stop()

PROBE_TIMEOUT = 0.2
# What `devices probe --timeout 0.2` allows a hello: its call limit, with slack for a loaded
# machine and for the process's start-up (imports).
PROBE_BOUND = Timing(ack_timeout=PROBE_TIMEOUT, reply_timeout=PROBE_TIMEOUT * 4,
                     retries=2).call_limit() + 15.0
HOSTILE = [["--ack-forever"], ["--never-reply"], ["--drip", "0.05"], ["--storm"]]


def probe(url: str) -> subprocess.CompletedProcess[str]:
    """``paigow devices probe URL``, killed (and the test failed) if it outlives its bound."""
    return subprocess.run(
        [sys.executable, "-m", "controller.commands.devices", "devices", "probe", url,
         "--timeout", str(PROBE_TIMEOUT)],
        capture_output=True, text=True, timeout=PROBE_BOUND, stdin=subprocess.DEVNULL,
    )


@pytest.mark.parametrize("mode", HOSTILE, ids=lambda m: m[0].lstrip("-"))
def test_probe_of_a_hostile_device_returns_in_one_line(start_sim: Start,
                                                       mode: list[str]) -> None:
    sim = start_sim("shuffler", *mode)
    done = probe(sim.url)  # TimeoutExpired here is the bug: the probe never returned
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("paigow: error: cannot probe")
    assert "HELLO" in done.stderr


QUICK = Timing(ack_timeout=0.1, reply_timeout=0.4, retries=2)


@pytest.mark.parametrize("mode", ["ack_forever", "never_reply", "drip", "storm"])
def test_a_driver_call_ends_with_device_timeout_within_its_limit(start_sim: Start,
                                                                 mode: str) -> None:
    sim = start_sim("shaker")
    with ShakerDriver.open(sim.url, timing=QUICK) as shaker:
        shaker.control(**{mode: 0.05 if mode == "drip" else 1})
        started = time.monotonic()
        with pytest.raises(DeviceTimeout, match="STATUS"):
            shaker.status()
        # the call limit with room for a loaded machine, far below "for ever"
        assert time.monotonic() - started < QUICK.call_limit() + 5.0


def test_an_ack_storm_does_not_move_the_deadline_of_a_long_call(start_sim: Start) -> None:
    sim = start_sim("shuffler")
    with ShufflerDriver.open(sim.url, timing=QUICK) as shuffler:
        shuffler.control(ack_forever=1)
        started = time.monotonic()
        with pytest.raises(DeviceTimeout, match=r"within its|after 3 tries"):
            shuffler.deal()  # its reply wait is the driver's 10 s, the limit 10.6 s
        assert time.monotonic() - started < 10.0 + 2 * 3 * QUICK.ack_timeout + 5.0


def test_interrupt_ends_a_call_under_way_at_once(start_sim: Start) -> None:
    sim = start_sim("shuffler")
    with ShufflerDriver.open(sim.url, timing=QUICK) as shuffler:
        shuffler.control(ack_forever=1)
        timer = threading.Timer(0.5, shuffler.interrupt)
        timer.start()
        started = time.monotonic()
        with pytest.raises(DeviceInterrupted):
            shuffler.shuffle()  # 60 s reply wait: only the interrupt ends it this soon
        assert time.monotonic() - started < 30.0
        timer.join()


def test_an_event_storm_keeps_only_the_newest_events(start_sim: Start) -> None:
    # A storm of unsolicited events from a device nobody reads grew the host's queue without
    # bound; the queue now keeps the newest EVENT_LIMIT and counts what gave way.
    sim = start_sim("shaker")
    with ShakerDriver.open(sim.url, timing=QUICK) as shaker:
        shaker.control(storm=1)
        deadline = time.monotonic() + 30.0
        while shaker.stats.events <= 3 * EVENT_LIMIT and time.monotonic() < deadline:
            time.sleep(0.05)
        assert shaker.stats.events > 3 * EVENT_LIMIT  # the storm did come
        events = shaker.events
        assert isinstance(events, EventQueue)
        assert events.qsize() <= EVENT_LIMIT
        assert events.dropped >= shaker.stats.events - EVENT_LIMIT - 1


def test_the_event_queue_drops_the_oldest_first() -> None:
    from firmware_interfaces.events import DeviceEvent
    from firmware_interfaces.protocol.common import Fault

    kept = EventQueue(limit=3)
    for n in range(5):
        kept.put(DeviceEvent("shaker-1", Fault(f"f{n}")))
    assert kept.dropped == 2
    assert [kept.get_nowait().record for _ in range(3)] == [Fault(f"f{n}") for n in (2, 3, 4)]
