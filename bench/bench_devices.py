"""Benchmark: device command round trip over a pty (median, p99) and stream-decoder frames/s.

Run: ``bash bench/run`` (or ``.venv/bin/python bench/bench_devices.py [--requests N] [--json]``).
The simulator runs as its own process behind a pseudo-terminal, as in the contract tests; a
round trip is one request frame out, then the device's ACK and reply frames back. The same is
measured over TCP and over the in-process fake for comparison. The decoder figure is the best
of several passes over a stream of PACKET reply frames fed in 4 KiB chunks.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from firmware_interfaces.protocol.frame import Frame, Kind, encode
from firmware_interfaces.protocol.records import encode_record
from firmware_interfaces.protocol.shuffler import Packet
from firmware_interfaces.protocol.stream import StreamDecoder
from firmware_interfaces.shuffler import ShufflerDriver
from firmware_interfaces.sim import fake_shuffler


def start_sim(transport: str) -> tuple[subprocess.Popen[bytes], str]:
    """A shuffler simulator process and the URL it printed."""
    where = ["--pty"] if transport == "pty" else ["--tcp", "127.0.0.1:0"]
    proc = subprocess.Popen(
        [sys.executable, "-m", "firmware_interfaces.sim", "shuffler", "--seed", "1", *where],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
    )
    assert proc.stdout is not None
    return proc, proc.stdout.readline().decode().strip()


def round_trips(open_driver: Callable[[], ShufflerDriver], count: int) -> dict[str, float]:
    """Milliseconds per STATUS request: median, p99 and max over ``count`` requests."""
    driver = open_driver()
    try:
        for _ in range(50):
            driver.status()
        times = []
        for _ in range(count):
            start = time.perf_counter()
            driver.status()
            times.append((time.perf_counter() - start) * 1000)
    finally:
        driver.close()
    times.sort()
    return {
        "median_ms": statistics.median(times),
        "p99_ms": times[int(len(times) * 0.99) - 1],
        "max_ms": times[-1],
        "requests": count,
    }


def over_process(transport: str, count: int) -> dict[str, float]:
    proc, url = start_sim(transport)
    try:
        return round_trips(lambda: ShufflerDriver.open(url), count)
    finally:
        proc.terminate()
        proc.wait(10)


def over_fake(count: int) -> dict[str, float]:
    with fake_shuffler(1) as fake:
        return round_trips(lambda: ShufflerDriver.open(fake.connect), count)


def decoder_rate(frames: int, repeats: int) -> dict[str, float]:
    """Frames per second and MB/s of ``StreamDecoder`` on a stream of PACKET replies."""
    packet = Packet(1, 3, 7, ("As", "Kd", "Qh", "9s", "9c", "4d", "Jk"))
    one = encode(Frame(Kind.REPLY, 3, encode_record(packet)))
    wire = one * frames
    chunks = [wire[i : i + 4096] for i in range(0, len(wire), 4096)]
    best = float("inf")
    for _ in range(repeats):
        decoder = StreamDecoder()
        start = time.perf_counter()
        got = sum(len(decoder.feed(c)) for c in chunks)
        best = min(best, time.perf_counter() - start)
        assert got == frames
    start = time.perf_counter()
    for _ in range(frames):
        encode(Frame(Kind.REPLY, 3, b"PACKET shuffle=1 n=3 count=7 cards=As,Kd,Qh,9s,9c,4d,Jk"))
    encode_rate = frames / (time.perf_counter() - start)
    return {"frames_per_s": frames / best, "mb_per_s": len(wire) / best / 1e6,
            "frame_bytes": len(one), "encode_frames_per_s": encode_rate}


def main() -> None:
    """Run the measurements and print them (``--json`` for one object)."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--frames", type=int, default=20000)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    result = {
        "round_trip_pty": over_process("pty", args.requests),
        "round_trip_tcp": over_process("tcp", args.requests),
        "round_trip_fake": over_fake(args.requests),
        "decoder": decoder_rate(args.frames, repeats=5),
    }
    if args.json:
        print(json.dumps(result, indent=2))
        return
    for name in ("pty", "tcp", "fake"):
        r = result[f"round_trip_{name}"]
        print(f"device round trip over {name:<4}: median {r['median_ms']:.3f} ms, "
              f"p99 {r['p99_ms']:.3f} ms, max {r['max_ms']:.3f} ms ({r['requests']} STATUS)")
    d = result["decoder"]
    print(f"stream decoder: {d['frames_per_s']:,.0f} frames/s ({d['mb_per_s']:.1f} MB/s, "
          f"{d['frame_bytes']}-byte frames); encoder {d['encode_frames_per_s']:,.0f} frames/s")


if __name__ == "__main__":
    main()
