"""The link outside the contract: pyserial's loop:// and spy:// URLs, callbacks, error mapping."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest
import serial

from firmware_interfaces.errors import DeviceClosed, DeviceConfigError, DeviceTimeout
from firmware_interfaces.events import DeviceEvent
from firmware_interfaces.port import LineLost, open_port
from firmware_interfaces.protocol.common import Door, Fault
from firmware_interfaces.protocol.frame import Frame, Kind, encode
from firmware_interfaces.protocol.stream import StreamDecoder
from firmware_interfaces.serial_driver import Timing
from firmware_interfaces.shaker import ShakerDriver
from firmware_interfaces.shuffler import ShufflerDriver
from firmware_interfaces.sim import fake_shaker, fake_shuffler
from tests.devices.helpers import TIMING, Start


def test_frames_through_pyserial_loopback() -> None:
    port = serial.serial_for_url("loop://", timeout=0.5)
    frames = [Frame(Kind.REQUEST, n, b"DEAL") for n in range(1, 6)]
    port.write(b"".join(encode(f) for f in frames))
    got = StreamDecoder().feed(port.read(len(frames) * 13))
    port.close()
    assert got == frames


def test_on_loopback_the_host_hears_only_itself_and_times_out() -> None:
    quick = Timing(ack_timeout=0.05, retries=2)
    started = time.monotonic()
    with pytest.raises(DeviceTimeout, match="no answer to HELLO after 3 tries"):
        ShufflerDriver.open("loop://", timing=quick)
    assert time.monotonic() - started < 2


def test_spy_url_writes_a_hex_trace(start_sim: Start, tmp_path: Path) -> None:
    sim = start_sim("shaker", "--seed", "1")
    trace = tmp_path / "trace.txt"
    with ShakerDriver.open(f"spy://{sim.url}?file={trace}", timing=TIMING) as shaker:
        shaker.shake()
    sent = StreamDecoder().feed(traced(trace.read_text(), "TX"))
    received = StreamDecoder().feed(traced(trace.read_text(), "RX"))
    assert [str(f) for f in sent if isinstance(f, Frame)][1] == "Q 2 SHAKE"
    replies = [f.payload for f in received if isinstance(f, Frame) and f.kind is Kind.REPLY]
    assert replies[0].startswith(b"IDENT device=shaker") and replies[1].startswith(b"DICE")


def traced(text: str, direction: str) -> bytes:
    """The bytes of one direction of a pyserial ``spy://`` hex dump (16 per line)."""
    data = b""
    for line in text.splitlines():
        parts = line.split(None, 3)  # time, TX/RX, offset, hex and ASCII
        if len(parts) == 4 and parts[1] == direction:
            data += bytes.fromhex(parts[3][:48])
    return data


def test_bad_urls() -> None:
    with pytest.raises(DeviceConfigError):
        open_port("warp://nowhere")
    with pytest.raises(LineLost):
        open_port("/dev/no-such-port")


def test_events_go_to_the_callback_in_the_reader_thread() -> None:
    got: list[tuple[DeviceEvent, str]] = []
    done = threading.Event()

    def on_event(event: DeviceEvent) -> None:
        got.append((event, threading.current_thread().name))
        if event.record == Door(False):
            done.set()
        raise RuntimeError("a failing callback must not stop the reader")

    with fake_shuffler(1) as fake, ShufflerDriver.open(fake.connect, on_event=on_event) as dev:
        dev.control(door=1)
        dev.control(door=0)
        assert done.wait(5)
        assert dev.events.empty() and dev.status().state == "need_shuffle"
    assert [e.record for e, _ in got][:2] == [Door(True), Fault("door_open")]
    assert {name for _, name in got} == {"shuffler-reader"}


def test_a_closed_driver_refuses_requests() -> None:
    with fake_shaker(1) as fake:
        shaker = ShakerDriver.open(fake.connect)
        shaker.close()
        shaker.close()
        with pytest.raises(DeviceClosed):
            shaker.shake()


def test_the_fake_keeps_a_history_and_repeats_with_a_seed() -> None:
    decks = []
    for _ in range(2):
        with fake_shuffler(42) as fake, ShufflerDriver.open(fake.connect) as shuffler:
            shuffler.shuffle()
            decks.append([shuffler.deal().cards for _ in range(7)])
            assert fake.seen[1:] == ["SHUFFLE"] + ["DEAL"] * 7
            assert fake.seen[0].startswith("HELLO proto=2 session=")
    assert decks[0] == decks[1]
