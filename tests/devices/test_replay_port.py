"""A session recorded against the simulators over a real pty, replayed with no simulator running
through the same driver calls: the same answers, the same events, and a clear error where the
host departs from the recording."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import serial

from firmware_interfaces.capture import Recorder
from firmware_interfaces.capture_file import CaptureWriter, Step, load_capture
from firmware_interfaces.device_keys import make_key, write_key_file
from firmware_interfaces.errors import DeviceFault, DeviceRefused
from firmware_interfaces.events import LINK_LOST, DeviceEvent
from firmware_interfaces.identity import Expected
from firmware_interfaces.port import Connector, LineLost
from firmware_interfaces.protocol.common import Cleared, Fault
from firmware_interfaces.protocol.frame import Frame, Kind, encode
from firmware_interfaces.protocol.records import Record, encode_record
from firmware_interfaces.protocol.shaker import Lid, ShakeResult
from firmware_interfaces.protocol.shuffler import DealCmd
from firmware_interfaces.replay_port import Replay, ReplayMismatch
from firmware_interfaces.shaker import ShakerDriver
from firmware_interfaces.shuffler import ShufflerDriver
from tests.devices.helpers import TIMING, Start, next_event

Session = Callable[[Any], list[object]]


def shuffler_session(shuffler: ShufflerDriver) -> list[object]:
    """Hello, status, a shuffle, packets until the simulator jams, the fault, counters."""
    out: list[object] = [shuffler.hello, shuffler.status(), shuffler.shuffle()]
    out += [shuffler.deal() for _ in range(3)]
    with pytest.raises(DeviceFault) as jam:
        shuffler.deal()
    out += [jam.value.code, shuffler.status(), shuffler.counters()]
    return out


def shaker_session(shaker: ShakerDriver) -> list[object]:
    """Shakes, the lid opened and closed (events), a refused shake, the player's button."""
    out: list[object] = [shaker.hello, shaker.shake()]
    shaker.control(lid="open")
    out.append(next_event(shaker, lambda e: e.record == Lid(True)).record)
    with pytest.raises(DeviceFault) as refused:
        shaker.shake()
    out.append(refused.value.code)
    shaker.control(lid="closed")
    out.append(next_event(shaker, lambda e: e.record == Lid(False)).record)
    shaker.control(button=1)
    out.append(next_event(shaker, lambda e: isinstance(e.record, ShakeResult)).record)
    out += [shaker.shake(), shaker.counters()]
    return out


def key_file(tmp_path: Path) -> tuple[bytes, str]:
    """A fresh hello key and the file the simulator reads it from."""
    key = make_key()
    path = tmp_path / "device.key"
    write_key_file(path, key)
    return key, str(path)


def run(driver: type[ShufflerDriver] | type[ShakerDriver], target: Connector,
        expected: Expected, session: Session) -> tuple[list[object], list[DeviceEvent]]:
    """Open ``driver`` on ``target``, play ``session``; its results and every event seen."""
    events: list[DeviceEvent] = []
    opened: list[ShufflerDriver | ShakerDriver] = []

    def seen(event: DeviceEvent) -> None:  # kept, and queued for the session's next_event
        events.append(event)
        opened[0].events.put(event)

    with driver.open(target, expected, timing=TIMING, on_event=seen) as device:
        opened.append(device)
        return session(device), events


def record(start_sim: Start, tmp_path: Path, kind: str, *options: str,
           session: Session) -> tuple[Path, bytes, list[object], list[DeviceEvent]]:
    """Record ``session`` against a keyed, seeded simulator over a pty, then stop it."""
    key, key_path = key_file(tmp_path)
    sim = start_sim(kind, "--seed", "11", "--key-file", key_path, *options)
    capture = tmp_path / f"{kind}.jsonl"
    driver = ShufflerDriver if kind == "shuffler" else ShakerDriver
    with Recorder(sim.url, capture, kind) as recorder:
        results, events = run(driver, recorder.connect, Expected(kind, key=key), session)
    sim.stop()
    assert sim.proc.poll() is not None  # the replay below has no device to talk to
    return capture, key, results, events


def test_a_shuffler_session_replays_with_the_same_answers(start_sim: Start,
                                                          tmp_path: Path) -> None:
    capture, key, results, _ = record(start_sim, tmp_path, "shuffler", "--jam-after", "3",
                                      session=shuffler_session)
    replay = Replay(str(capture))
    again, _ = run(ShufflerDriver, replay.connect, Expected("shuffler", key=key),
                   shuffler_session)
    assert again == results and results[3:7] != [None] * 4
    replay.check_complete()


def test_a_shaker_session_replays_its_events_in_order(start_sim: Start,
                                                      tmp_path: Path) -> None:
    capture, key, results, events = record(start_sim, tmp_path, "shaker",
                                           session=shaker_session)
    replay = Replay(str(capture))
    again, replayed = run(ShakerDriver, replay.connect, Expected("shaker", key=key),
                          shaker_session)
    assert again == results
    assert [e.record for e in replayed] == [e.record for e in events]
    assert [Lid(True), Lid(False)] == [e.record for e in events if isinstance(e.record, Lid)]
    replay.check_complete()


def test_a_dropped_line_replays_its_reconnect(start_sim: Start, tmp_path: Path) -> None:
    def session(shaker: ShakerDriver) -> list[object]:
        first = shaker.shake()
        next_event(shaker, lambda e: e.record == Fault(LINK_LOST))
        next_event(shaker, lambda e: e.record == Cleared(LINK_LOST))
        return [first, shaker.shake(), shaker.stats.reconnects]

    capture, key, results, events = record(start_sim, tmp_path, "shaker", "--drop-after", "2",
                                           session=session)
    opens = [s.op for s in load_capture(capture).steps if s.op in ("open", "close")]
    assert opens[:3] == ["open", "close", "open"]
    replay = Replay(str(capture))
    again, replayed = run(ShakerDriver, replay.connect, Expected("shaker", key=key), session)
    assert again == results and results[2] == 1
    assert [e.record for e in replayed] == [e.record for e in events]
    replay.check_complete()


def test_a_replay_keeps_checking_the_hellos_answer(start_sim: Start, tmp_path: Path) -> None:
    capture, _, _, _ = record(start_sim, tmp_path, "shaker", session=shaker_session)
    with pytest.raises(DeviceRefused, match="wrong answer to the hello's challenge"):
        run(ShakerDriver, Replay(str(capture)).connect, Expected("shaker", key=make_key()),
            shaker_session)


def test_live_hellos_draw_fresh_nonces(start_sim: Start, tmp_path: Path) -> None:
    sim = start_sim("shaker")
    hellos = []
    for n in range(2):
        with Recorder(sim.url, tmp_path / f"{n}.jsonl", "shaker") as recorder, \
                ShakerDriver.open(recorder.connect, timing=TIMING):
            pass
        hellos.append(load_capture(recorder.path).steps[1].data)
    assert hellos[0] != hellos[1]


def frame_bytes(seq: int, record: Record) -> str:
    return encode(Frame(Kind.REQUEST, seq, encode_record(record))).hex()


def test_a_host_that_writes_something_else_is_told_where(start_sim: Start,
                                                        tmp_path: Path) -> None:
    capture, key, _, _ = record(start_sim, tmp_path, "shuffler", "--jam-after", "3",
                                session=shuffler_session)
    steps = load_capture(capture).steps
    status = next(i for i, s in enumerate(steps) if s.op == "write" and b"STATUS" in s.data)
    replay = Replay(str(capture))
    with ShufflerDriver.open(replay.connect, Expected("shuffler", key=key),
                             timing=TIMING) as shuffler, \
            pytest.raises(ReplayMismatch) as caught:
        shuffler.deal()  # the recorded host asked for the status here
    message = str(caught.value)
    assert f"{capture} chunk {status} (line {status + 2})" in message
    assert frame_bytes(2, DealCmd()) in message and steps[status].data.hex() in message
    with pytest.raises(ReplayMismatch) as again:
        replay.check_complete()
    assert str(again.value) == message


def test_a_host_that_stops_early_is_told_what_it_left_out(start_sim: Start,
                                                          tmp_path: Path) -> None:
    capture, key, _, _ = record(start_sim, tmp_path, "shaker", session=shaker_session)
    replay = Replay(str(capture))
    with ShakerDriver.open(replay.connect, Expected("shaker", key=key), timing=TIMING) as shaker:
        shaker.shake()
    with pytest.raises(ReplayMismatch, match=r"chunk \d+ \(line \d+\): the recorded host wrote "
                                             r"[0-9a-f]+, this host never did"):
        replay.check_complete()


def test_a_replay_runs_faster_than_the_recording_unless_paced(start_sim: Start,
                                                              tmp_path: Path) -> None:
    def session(shaker: ShakerDriver) -> list[object]:
        return [shaker.shake() for _ in range(4)]

    began = time.monotonic()
    capture, key, results, _ = record(start_sim, tmp_path, "shaker", "--slow", "0.25",
                                      session=session)
    recorded = time.monotonic() - began
    for pace, limit in ((False, 0.5), (True, None)):
        began = time.monotonic()
        again, _ = run(ShakerDriver, Replay(str(capture), pace=pace).connect,
                       Expected("shaker", key=key), session)
        took = time.monotonic() - began
        assert again == results
        if limit is not None:
            assert took < limit < recorded
        else:
            assert took >= 5 * 0.25  # the hello and four shakes, each answered 0.25 s late


def handmade(tmp_path: Path, *steps: Step) -> str:
    """A capture written step by step, for the replay's rules one at a time."""
    path = tmp_path / "handmade.jsonl"
    writer = CaptureWriter(path, "shaker", "loop://")
    for step in (Step(0.0, "open"), *steps):
        writer.append(step)
    writer.close()
    return str(path)


def test_device_bytes_wait_for_the_write_recorded_before_them(tmp_path: Path) -> None:
    port = Replay(handmade(tmp_path, Step(0.1, "read", b"early"), Step(0.2, "write", b"ask"),
                           Step(0.3, "read", b"answer")), timeout=0.01).connect()
    assert (port.in_waiting, port.read(100), port.read(100)) == (5, b"early", b"")
    assert port.write(b"ask") == 3
    assert port.read(3) + port.read(100) == b"answer"


def test_writes_with_no_read_between_may_come_in_any_order(tmp_path: Path) -> None:
    path = handmade(tmp_path, Step(0.1, "write", b"A"), Step(0.1, "write", b"B"),
                    Step(0.2, "read", b"X"))
    replay = Replay(path, timeout=0.01)
    port = replay.connect()
    port.write(b"B")
    assert port.read(1) == b""  # the answer waits for both writes
    port.write(b"A")
    assert port.read(1) == b"X"
    replay.check_complete()
    other = Replay(path, timeout=0.01).connect()
    other.write(b"A")
    with pytest.raises(ReplayMismatch, match=r"chunk 2 \(line 4\): the host wrote 43, the "
                                             r"capture has 42"):
        other.write(b"C")


def test_recorded_failures_come_back_where_they_happened(tmp_path: Path) -> None:
    replay = Replay(handmade(tmp_path, Step(0.1, "read", b"X"), Step(0.2, "read_error",
                                                                     error="unplugged"),
                             Step(0.3, "close"), Step(0.4, "open_failed", error="no tty"),
                             Step(0.5, "open"), Step(0.6, "write", b"W"),
                             Step(0.6, "write_error", error="gone")), timeout=0.01)
    first = replay.connect()
    assert first.read(5) == b"X"
    with pytest.raises(serial.SerialException, match="unplugged"):
        first.read(5)
    first.close()
    with pytest.raises(LineLost, match="no tty"):
        replay.connect()
    with pytest.raises(serial.SerialException, match="gone"):
        replay.connect().write(b"W")
    with pytest.raises(LineLost, match="every one of its 3 recorded openings"):
        replay.connect()
    replay.check_complete()


def test_a_line_with_no_recorded_hello_refuses_the_hosts(tmp_path: Path) -> None:
    replay = Replay(handmade(tmp_path, Step(0.1, "read", b"noise")), timeout=0.01)
    with pytest.raises(ReplayMismatch, match=r"chunk 0 \(line 2\): the host says hello on a "
                                             r"line where the recorded host wrote no HELLO"):
        ShakerDriver.open(replay.connect, timing=TIMING)


def test_device_bytes_wait_for_the_recordings_clock_when_given(tmp_path: Path) -> None:
    now = [1.0]
    path = handmade(tmp_path, Step(0.5, "read", b"soon"), Step(5.0, "read", b"late"))
    port = Replay(path, clock=lambda: now[0], timeout=0.01).connect()
    assert (port.read(100), port.read(100)) == (b"soon", b"")
    now[0] = 5.0
    assert port.read(100) == b"late"


def test_recorders_given_one_start_share_one_time_scale(tmp_path: Path) -> None:
    start = time.monotonic() - 100.0
    with Recorder("loop://", tmp_path / "a.jsonl", "shaker", start=start) as recorder:
        recorder.connect().close()
    times = [s.t for s in load_capture(recorder.path).steps]
    assert len(times) == 2 and all(100.0 <= t < 200.0 for t in times)
