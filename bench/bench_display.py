"""Benchmark: the dealer display's event-to-page latency, and 50 viewers held while rounds play.

Run: ``bash bench/run`` (or ``.venv/bin/python bench/bench_display.py [--viewers N]
[--rounds N] [--acts N] [--no-browser] [--json]``).

The app (``create_app``) is served by uvicorn on a free 127.0.0.1 port in a thread of this
process; the table is a ``PokerRound`` on the engine's in-process fakes over a durable SQLite
journal in a temporary folder, so the figures are the display's path (journal append, publish,
SSE) rather than the devices' (``bench_engine.py`` measures those).  Acts are done by calling
``Table.act`` directly, as the web routes do.  The viewers run in a child process (this file
with ``--viewers-child``) on bare asyncio HTTP/1.1 connections; both processes stamp times
with ``time.monotonic()`` (one system-wide clock on Linux).

1. ``sse_idle``: one viewer; acts paced ``--pace`` ms apart (a dealer's pace is seconds); the
   latency of each record from the start of the ``Table.act`` call that wrote it to its
   arrival at the viewer (``from_call``), and from the act's return, when it is published
   (``from_publish``): p50, p95, p99, max.
2. ``sse_held``: ``--viewers`` viewers (50) held while ``--rounds`` rounds play at the same
   pace; every viewer must receive every record: ``missing`` counts the records a viewer never
   got, ``dropped`` the viewers the table cut off as too slow; latency as above.
3. ``sse_burst``: the same viewers while the rounds play back to back with no pause at all
   (hundreds of records a second, far beyond a dealer): the same counts, latency under
   saturation.
4. ``pages_held``: the same viewers, each behaving as the page does (on an event, wait 10 ms
   for the burst, then fetch ``/api/table``, and ``/api/rounds`` when a round has ended), acts
   ``--page-pace`` ms apart (250: four acts a second, still faster than a dealer; every act
   then costs fifty view fetches): ``view_fetched`` is the time from the act's call until a
   viewer's fetched view holds the act's last record.
5. ``dom``: headless Chromium (Debian's ``chromium`` and ``chromedriver``, via Selenium) shows
   the page; a ``MutationObserver`` stamps when the page has re-rendered the act's last record
   (``body[data-seq]``, set after ``/api/table`` and ``/api/rounds`` are fetched and drawn),
   against the wall clock at the ``Table.act`` call; skipped with a note without Chromium.

The target is p95 under 100 ms from the act to the page.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import uvicorn

from controller.display import DisplaySettings, Table, create_app
from controller.journal import JournalKey, StepClock, open_journal
from controller.profiles.poker import load_profile
from controller.round import FakeDice, FakeShuffler, PokerRound, Who
from tests.browser import chromium_missing, headless_chromium

BENCH_KEY = JournalKey.generate()
"""The journals a bench writes are keyed, as a table's are."""

DEALER, SYSTEM = Who.dealer(), Who.system()
OBSERVER = """
window.__seen = [];
new MutationObserver(() => {
  const seq = Number(document.body.dataset.seq);
  if (seq) window.__seen.push([seq, performance.timeOrigin + performance.now()]);
}).observe(document.body, {attributes: true, attributeFilter: ["data-seq"]});
"""


# --- measuring -------------------------------------------------------------------------------

def pct(values: list[float], q: float) -> float:
    """The ``q`` quantile (0..1) of ``values``, nearest rank."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered)) - 1))]


def summary(values: list[float]) -> dict[str, float]:
    """p50, p95, p99 and max of milliseconds."""
    if not values:
        return {}
    return {"n": len(values), "p50": statistics.median(values), "p95": pct(values, 0.95),
            "p99": pct(values, 0.99), "max": max(values)}


@dataclass
class Acts:
    """Each record's act: when the ``Table.act`` call began and returned (monotonic and wall)."""

    called: dict[int, float] = field(default_factory=dict)
    published: dict[int, float] = field(default_factory=dict)
    wall: dict[int, float] = field(default_factory=dict)
    last_of_act: list[int] = field(default_factory=list)

    def do(self, table: Table, name: str, who: Who, *args: Any) -> list[int]:
        """Do one act through the table and stamp its records."""
        wall, start = time.time(), time.monotonic()
        records = table.act(name, who, *args)
        done = time.monotonic()
        seqs = [r.seq for r in records]
        for seq in seqs:
            self.called[seq], self.published[seq], self.wall[seq] = start, done, wall
        if seqs:
            self.last_of_act.append(seqs[-1])
        return seqs


def play_round(table: Table, acts: Acts, pace: float = 0.0) -> None:
    """One poker round on the fakes: every act through ``Table.act``, ``pace`` s apart."""
    def act(name: str, who: Who, *args: Any) -> None:
        acts.do(table, name, who, *args)
        if pace:
            time.sleep(pace)

    act("open_round", DEALER)
    for position, wager in ((2, 2500), (4, 5000), (6, 10000)):
        act("take_bet", DEALER, position, wager)
    act("close_bets", DEALER)
    act("shuffle", SYSTEM)
    for _ in range(7):
        act("deal_packet", SYSTEM)
    act("roll", SYSTEM)
    state = table.engine.round
    assert state is not None
    for position in state.playing():
        if position != state.banker:
            act("set_hand", DEALER, position)
    act("expose_dealer", DEALER)
    act("settle", DEALER)


# --- the server ------------------------------------------------------------------------------

def free_port() -> int:
    """A free TCP port on 127.0.0.1."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@contextmanager
def served(seed: int = 7) -> Iterator[tuple[Table, str]]:
    """A table over a temporary SQLite journal, its app served by uvicorn in a thread."""
    with tempfile.TemporaryDirectory(prefix="paigow-bench-display-") as folder:
        journal = open_journal(Path(folder) / "table.db", clock=StepClock(), key=BENCH_KEY)
        engine = PokerRound(journal, load_profile("classic"), FakeShuffler(seed),
                            FakeDice(seed))
        table = Table(engine)
        port = free_port()
        config = uvicorn.Config(create_app(table, DisplaySettings()), host="127.0.0.1",
                                port=port, log_level="warning", timeout_graceful_shutdown=1)
        server = uvicorn.Server(config)
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        deadline = time.monotonic() + 20
        while not server.started:
            if time.monotonic() > deadline:
                raise RuntimeError("uvicorn did not start within 20 s")
            time.sleep(0.01)
        try:
            yield table, f"http://127.0.0.1:{port}"
        finally:
            table.close()  # end every event stream, so the server stops without cancelling
            server.should_exit = True
            thread.join(10)
            journal.close()


# --- the viewers (child process) -------------------------------------------------------------

@dataclass
class Viewer:
    """One viewer's log: records received, page data fetched, whether the server cut it off."""

    seen: list[tuple[int, float]] = field(default_factory=list)
    shown: list[tuple[int, float]] = field(default_factory=list)
    ended: bool = False
    recall_stale: bool = True


class Http:
    """A bare HTTP/1.1 keep-alive connection: the viewers' client, so that fifty of them cost
    the measuring process little (an ``httpx`` client per request costs more than the server's
    answer and would measure itself)."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                 host: str) -> None:
        self.reader, self.writer, self.host = reader, writer, host

    @classmethod
    async def open(cls, url: str) -> Http:
        """Connect to ``http://HOST:PORT``."""
        where = urlsplit(url)
        assert where.hostname is not None and where.port is not None
        reader, writer = await asyncio.open_connection(where.hostname, where.port)
        return cls(reader, writer, where.hostname)

    async def send(self, path: str) -> dict[str, str]:
        """Send a GET and read the status line and headers (lower-case names)."""
        self.writer.write(f"GET {path} HTTP/1.1\r\nHost: {self.host}\r\n\r\n".encode())
        head = (await self.reader.readuntil(b"\r\n\r\n")).decode("latin-1").split("\r\n")
        if " 200 " not in head[0]:
            raise RuntimeError(f"GET {path}: {head[0]}")
        pairs = (line.split(":", 1) for line in head[1:] if ":" in line)
        return {name.strip().lower(): value.strip() for name, value in pairs}

    async def get(self, path: str) -> bytes:
        """GET ``path``; the body."""
        headers = await self.send(path)
        return await self.reader.readexactly(int(headers["content-length"]))

    async def lines(self, path: str) -> AsyncIterator[str]:
        """GET a streamed ``path`` (chunked); its lines as they arrive."""
        headers = await self.send(path)
        assert headers.get("transfer-encoding") == "chunked", headers
        pending = b""
        while True:
            size = int((await self.reader.readline()).strip(), 16)
            if size == 0:
                return
            pending += await self.reader.readexactly(size)
            await self.reader.readexactly(2)
            *done, pending = pending.split(b"\n")
            for line in done:
                yield line.decode()

    def close(self) -> None:
        """Close the connection."""
        self.writer.close()


async def _refresh(http: Http, viewer: Viewer) -> None:
    """What the page does on an event: wait 10 ms for the burst, fetch the view, and the
    recall when a round has ended since."""
    await asyncio.sleep(0.01)
    body = await http.get("/api/table")
    if viewer.recall_stale:
        viewer.recall_stale = False
        await http.get("/api/rounds?last=10")
    viewer.shown.append((json.loads(body)["last_seq"] or 0, time.monotonic()))


async def _viewer(url: str, viewer: Viewer, connected: asyncio.Event, page: bool) -> None:
    pending: asyncio.Task[None] | None = None
    events = await Http.open(url)
    reads = await Http.open(url) if page else None
    try:
        async for line in events.lines("/api/events"):
            if line.startswith("retry:"):
                connected.set()
            elif line.startswith("id: "):
                viewer.seen.append((int(line[4:]), time.monotonic()))
            elif line.startswith("data: ") and reads is not None:
                if json.loads(line[6:])["kind"] in ("settle", "round_voided"):
                    viewer.recall_stale = True
                if pending is None or pending.done():
                    pending = asyncio.create_task(_refresh(reads, viewer))
        viewer.ended = True  # the server ended the stream: the table cut this viewer off
    finally:
        events.close()
        if reads is not None:
            reads.close()


async def _viewers(url: str, count: int, page: bool) -> None:
    viewers = [Viewer() for _ in range(count)]
    flags = [asyncio.Event() for _ in range(count)]
    tasks = [asyncio.create_task(_viewer(url, viewers[i], flags[i], page))
             for i in range(count)]
    await asyncio.wait_for(asyncio.gather(*(f.wait() for f in flags)), 30)
    print("CONNECTED", flush=True)
    line = await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
    last = int(line.split()[1])

    def behind(v: Viewer) -> bool:
        return (not v.seen or v.seen[-1][0] < last
                or (page and (not v.shown or v.shown[-1][0] < last)))

    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and any(behind(v) for v in viewers):
        await asyncio.sleep(0.05)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    print(json.dumps([{"seen": v.seen, "shown": v.shown, "ended": v.ended} for v in viewers]),
          flush=True)


class Viewers:
    """``count`` viewers in a child process (SSE only, or page-like: each event burst also
    fetches ``/api/table`` and ``/api/rounds`` as the page does); ``finish(last_seq)``
    collects what they saw."""

    def __init__(self, url: str, count: int, page: bool) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, __file__, "--viewers-child", url, str(count),
             "page" if page else "sse"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if line.strip() != "CONNECTED":
            self.proc.kill()
            raise RuntimeError(f"the viewers did not connect: {line!r}")

    def finish(self, last: int) -> list[Viewer]:
        """Tell the viewers the last record; each one's log."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(f"END {last}\n")
        self.proc.stdin.flush()
        out = self.proc.stdout.readline()
        self.proc.wait(30)
        return [Viewer([(int(q), float(t)) for q, t in v["seen"]],
                       [(int(q), float(t)) for q, t in v["shown"]], bool(v["ended"]))
                for v in json.loads(out)]


def wait_viewers(table: Table, count: int) -> None:
    """Until the table feeds ``count`` viewers (bounded)."""
    deadline = time.monotonic() + 20
    while table.viewers < count:
        if time.monotonic() > deadline:
            raise RuntimeError(f"only {table.viewers} of {count} viewers subscribed")
        time.sleep(0.01)


def sse_phase(viewers: int, rounds: int, pace: float, page: bool = False) -> dict[str, Any]:
    """Play rounds with ``viewers`` viewers; latency, missing records, dropped viewers, and for
    page-like viewers the time until their fetched view holds each act's last record."""
    with served() as (table, url):
        crowd = Viewers(url, viewers, page)
        wait_viewers(table, viewers)
        acts = Acts()
        start = time.monotonic()
        for _ in range(rounds):
            play_round(table, acts, pace)
        playing = time.monotonic() - start
        logs = crowd.finish(table.journal.head()[0])
    expected = set(acts.called)
    from_call, from_publish, to_view, missing, unshown = [], [], [], 0, 0
    for log in logs:
        got = dict(log.seen)
        missing += len(expected - set(got))
        for seq, at in got.items():
            if seq in acts.called:
                from_call.append((at - acts.called[seq]) * 1000)
                from_publish.append((at - acts.published[seq]) * 1000)
        if not page:
            continue
        for seq in acts.last_of_act:
            shown = next((t for q, t in log.shown if q >= seq), None)
            if shown is None:
                unshown += 1
            else:
                to_view.append((shown - acts.called[seq]) * 1000)
    result = {"viewers": viewers, "page_like": page, "rounds": rounds,
              "records": len(expected), "records_per_s": len(expected) / playing,
              "missing": missing, "dropped_viewers": sum(v.ended for v in logs),
              "from_call_ms": summary(from_call), "from_publish_ms": summary(from_publish)}
    if page:
        result |= {"acts": len(acts.last_of_act), "never_fetched": unshown,
                   "view_fetched_ms": summary(to_view)}
    return result


# --- the page in Chromium --------------------------------------------------------------------

def dom_phase(rounds: int, pace: float) -> dict[str, Any]:
    """Acts ``pace`` s apart; ms from each act's call to the page showing its last record."""
    missing = chromium_missing()
    if missing:
        return {"skipped": missing}
    from selenium.webdriver.support.ui import WebDriverWait

    with headless_chromium() as driver, served() as (table, url):
        driver.get(url + "/")
        WebDriverWait(driver, 20).until(
            lambda d: d.find_element("id", "link").text == "live")
        driver.execute_script(OBSERVER)
        acts = Acts()
        for _ in range(rounds):
            play_round(table, acts, pace)
        last = acts.last_of_act[-1]
        WebDriverWait(driver, 20).until(lambda d: any(
            s >= last for s, _ in d.execute_script("return window.__seen")))
        shown: list[list[float]] = driver.execute_script("return window.__seen")
        driver.quit()  # before the server stops: the page's event stream closes first
    latencies, unseen = [], 0
    for seq in acts.last_of_act:
        at = next((t for s, t in shown if s >= seq), None)
        if at is None:
            unseen += 1
        else:
            latencies.append(at - acts.wall[seq] * 1000)
    return {"acts": len(acts.last_of_act), "never_shown": unseen,
            "from_call_ms": summary(latencies)}


def report(results: dict[str, Any]) -> None:
    """Print the figures as text."""
    def line(name: str, data: dict[str, float]) -> str:
        if not data:
            return f"{name}: none"
        return (f"{name} p50 {data['p50']:.1f} ms, p95 {data['p95']:.1f} ms, "
                f"p99 {data['p99']:.1f} ms, max {data['max']:.1f} ms (n={data['n']})")

    for key in ("sse_idle", "sse_held", "sse_burst", "pages_held"):
        r = results[key]
        kind = "page-like viewer(s)" if r["page_like"] else "SSE viewer(s)"
        print(f"{key}: {r['viewers']} {kind}, {r['rounds']} rounds, {r['records']} records "
              f"({r['records_per_s']:.0f} records/s), missing {r['missing']}, dropped viewers "
              f"{r['dropped_viewers']}")
        print("  " + line("act call -> SSE client", r["from_call_ms"]))
        print("  " + line("publish  -> SSE client", r["from_publish_ms"]))
        if r["page_like"]:
            print("  " + line("act call -> view fetched", r["view_fetched_ms"])
                  + f", never fetched {r['never_fetched']}")
    dom = results["dom"]
    if "skipped" in dom:
        print(f"dom: skipped ({dom['skipped']})")
    else:
        print(f"dom: {dom['acts']} acts in headless Chromium, never shown {dom['never_shown']}")
        print("  " + line("act call -> page re-rendered", dom["from_call_ms"]))


def main(argv: list[str] | None = None) -> int:
    """Run the five phases and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--viewers", type=int, default=50, help="viewers held under load")
    parser.add_argument("--rounds", type=int, default=5, help="rounds played with the viewers")
    parser.add_argument("--acts", type=int, default=2, help="rounds paced for the latency")
    parser.add_argument("--pace", type=float, default=50.0, help="ms between paced acts")
    parser.add_argument("--page-pace", type=float, default=250.0,
                        help="ms between acts with the page-like viewers")
    parser.add_argument("--no-browser", action="store_true", help="skip the Chromium phase")
    parser.add_argument("--json", action="store_true", help="one JSON object")
    parser.add_argument("--viewers-child", nargs=3, metavar=("URL", "N", "MODE"),
                        help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.viewers_child:
        url, count, mode = args.viewers_child
        asyncio.run(_viewers(url, int(count), mode == "page"))
        return 0
    for name in ("viewers", "rounds", "acts"):
        if getattr(args, name) < 1:
            parser.error(f"--{name} {getattr(args, name)!r} must be 1 or more")
    pace = args.pace / 1000
    phases: dict[str, Callable[[], dict[str, Any]]] = {
        "sse_idle": lambda: sse_phase(1, args.acts, pace),
        "sse_held": lambda: sse_phase(args.viewers, args.rounds, pace),
        "sse_burst": lambda: sse_phase(args.viewers, args.rounds, 0.0),
        "pages_held": lambda: sse_phase(args.viewers, args.rounds, args.page_pace / 1000,
                                        page=True),
        "dom": lambda: ({"skipped": "--no-browser"} if args.no_browser
                        else dom_phase(args.acts, max(pace, 0.15))),
    }
    load_before = os.getloadavg()[0]
    results = {name: run() for name, run in phases.items()}
    load = {"before": load_before, "after": os.getloadavg()[0], "cpus": os.cpu_count()}
    if args.json:
        print(json.dumps({"benchmark": "display", **results, "load_average": load}))
    else:
        report(results)
        print(f"(1-min load average {load['before']:.1f} -> {load['after']:.1f} on "
              f"{load['cpus']} CPUs)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
