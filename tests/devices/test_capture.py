"""Recording a device line to a capture file, and the file format itself: what is written,
what a reader refuses (naming file and line), and that any steps round-trip."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from firmware_interfaces.capture import Recorder
from firmware_interfaces.capture_file import (
    FORMAT,
    VERSION,
    CaptureFileError,
    CaptureWriter,
    Step,
    load_capture,
)
from firmware_interfaces.port import LineLost
from firmware_interfaces.protocol.common import HelloCmd
from firmware_interfaces.protocol.frame import Frame, Kind
from firmware_interfaces.protocol.shuffler import DEVICE_CATALOGUE, REQUEST_CATALOGUE, Packet
from firmware_interfaces.protocol.stream import StreamDecoder
from firmware_interfaces.replay_port import Replay
from firmware_interfaces.shuffler import ShufflerDriver
from tests.devices.helpers import TIMING, Start


def frames(chunks: list[bytes]) -> list[Frame]:
    decoder = StreamDecoder()
    found = [item for chunk in chunks for item in decoder.feed(chunk)]
    assert all(isinstance(item, Frame) for item in found)
    return found  # type: ignore[return-value]


def test_a_recording_passes_every_byte_through_and_notes_it_at_once(
    start_sim: Start, tmp_path: Path
) -> None:
    sim = start_sim("shuffler", "--seed", "11")
    capture = tmp_path / "shuffler.jsonl"
    with Recorder(sim.url, capture, "shuffler") as recorder, \
            ShufflerDriver.open(recorder.connect, timing=TIMING) as shuffler:
        assert shuffler.shuffle().ok
        packet = shuffler.deal()
        during = load_capture(capture)  # flushed line by line: readable while recording
    header = json.loads(capture.read_text().splitlines()[0])
    assert header["format"] == FORMAT and header["version"] == VERSION == 1
    assert (during.header.device, during.header.url) == ("shuffler", sim.url)
    assert during.steps[0].op == "open"
    writes = [s.data for s in during.steps if s.op == "write"]
    reads = [s.data for s in during.steps if s.op == "read"]
    sent = [REQUEST_CATALOGUE.decode(f.payload) for f in frames(writes) if f.kind is Kind.REQUEST]
    assert [r.NAME for r in sent] == ["HELLO", "SHUFFLE", "DEAL"]
    assert isinstance(sent[0], HelloCmd) and sent[0].nonce is not None
    got = [DEVICE_CATALOGUE.decode(f.payload) for f in frames(reads) if f.kind is Kind.REPLY]
    assert got[-1] == packet and isinstance(got[-1], Packet)
    assert [s.op for s in load_capture(capture).steps][-1] == "close"


def test_a_line_that_cannot_be_opened_is_recorded_and_replayed(tmp_path: Path) -> None:
    capture = tmp_path / "gone.jsonl"
    with Recorder(str(tmp_path / "no-such-tty"), capture, "shaker") as recorder, \
            pytest.raises(LineLost) as lost:
        recorder.connect()
    (step,) = load_capture(capture).steps
    assert step.op == "open_failed" and step.error == str(lost.value)
    with pytest.raises(LineLost) as again:
        Replay(str(capture)).connect()
    assert str(again.value) == str(lost.value)


def test_a_capture_is_never_overwritten(tmp_path: Path) -> None:
    capture = tmp_path / "kept.jsonl"
    capture.write_text("precious\n")
    with pytest.raises(CaptureFileError, match=r"kept\.jsonl"):
        Recorder("loop://", capture, "shaker")
    assert capture.read_text() == "precious\n"


def test_a_line_closed_after_its_recorder_is_still_released(tmp_path: Path) -> None:
    recorder = Recorder("loop://", tmp_path / "loop.jsonl", "shaker")
    port = recorder.connect()
    port.write(b"echo")
    assert port.read(4) == b"echo"
    recorder.close()
    port.close()  # no error: only the close step is lost
    assert [(s.op, s.data) for s in load_capture(recorder.path).steps] == [
        ("open", b""), ("write", b"echo"), ("read", b"echo")]


HEADER = json.dumps({"format": FORMAT, "version": 1, "device": "shaker", "url": "loop://",
                     "started": "2026-11-28T07:00:00.000+00:00"})


@pytest.mark.parametrize(
    ("text", "line", "says"),
    [
        ("", 1, "empty"),
        ("garbage\n", 1, "not a JSON line"),
        ('{"format": "other", "version": 1}\n', 1, "format 'other'"),
        (HEADER.replace('"version": 1', '"version": 2') + "\n", 1, "version 2"),
        (HEADER[:-1] + ', "extra": 1}\n', 1, "unknown header keys ['extra']"),
        (HEADER + '\n{"t": 0, "op": "open"}\n{"t": 0.1, "op": "write", "hex": "a5', 3,
         "not a JSON line"),
        (HEADER + '\n{"t": 0, "op": "open"}\n{"t": 0.1, "op": "peek"}\n', 3, "op 'peek'"),
        (HEADER + '\n{"t": -1, "op": "open"}\n', 2, "t -1"),
        (HEADER + '\n{"t": 0, "op": "read", "hex": "zz"}\n', 2, "hex 'zz'"),
        (HEADER + '\n{"t": 0, "op": "read", "hex": ""}\n', 2, "hex ''"),
        (HEADER + '\n{"t": 0, "op": "open", "hex": "a5"}\n', 2, "unknown keys ['hex']"),
        (HEADER + '\n{"t": 0, "op": "read_error"}\n', 2, "'error' is None"),
        (HEADER + '\n{"t": 2, "op": "open"}\n{"t": 1, "op": "close"}\n', 3, "goes back"),
        (HEADER + "\n[1, 2]\n", 2, "not a JSON object"),
    ],
)
def test_a_bad_capture_is_refused_naming_file_and_line(tmp_path: Path, text: str, line: int,
                                                       says: str) -> None:
    capture = tmp_path / "bad.jsonl"
    capture.write_text(text)
    with pytest.raises(CaptureFileError) as caught:
        Replay(str(capture))
    assert str(caught.value).startswith(f"{capture}:{line}: ")
    assert says in str(caught.value)


def test_a_capture_that_starts_without_an_open_is_refused(tmp_path: Path) -> None:
    capture = tmp_path / "headless.jsonl"
    capture.write_text(HEADER + '\n{"t": 0, "op": "read", "hex": "a5"}\n')
    with pytest.raises(CaptureFileError, match=r"headless.jsonl:2: the first step is 'read'"):
        Replay(str(capture))


times = st.floats(min_value=0, max_value=1e6, allow_nan=False, allow_infinity=False)
steps = st.one_of(
    st.builds(Step, times, st.sampled_from(["write", "read"]), st.binary(min_size=1)),
    st.builds(Step, times, st.sampled_from(["open_failed", "read_error", "write_error"]),
              error=st.text()),
    st.builds(Step, times, st.sampled_from(["open", "close"])),
)


@given(st.lists(steps, max_size=30), st.text(), st.text())
def test_any_steps_round_trip_through_the_file(written: list[Step], device: str,
                                               url: str) -> None:
    written = [Step(t, s.op, s.data, s.error) for t, s in
               zip(sorted(s.t for s in written), written, strict=True)]
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "capture.jsonl"
        writer = CaptureWriter(path, device, url)
        for step in written:
            writer.append(step)
        writer.close()
        back = load_capture(path)
    assert back.steps == tuple(written)
    assert (back.header.device, back.header.url) == (device, url)

