"""Benchmark: durable journal appends per second and verify time per 10,000 records.

Run: ``bash bench/run`` (or ``.venv/bin/python bench/bench_journal.py [--appends N]
[--records N] [--pg URL] [--json]``).  Appends go through ``Journal.append`` one record at a
time, each its own committed transaction (SQLite: WAL, ``synchronous=FULL``; PostgreSQL:
``synchronous_commit=on``), cycling through a demo round's events (rolls, deals, bets, sets, a
settlement).  The verify figure is the best of three full ``verify()`` passes over a journal of
``--records`` records; that journal is filled by one bulk insert of correctly chained rows, so
filling it does not take minutes.  PostgreSQL runs in a temporary schema (dropped afterwards)
at ``--pg`` (default ``$PAIGOW_TEST_PG`` or the local test server), and is skipped with a note
when the server cannot be reached.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import psycopg

from controller.journal import (
    GENESIS,
    Journal,
    JournalKey,
    Randomness,
    Role,
    StepClock,
    open_journal,
)
from controller.journal.backend import INSERT, SET_HEAD
from controller.journal.clock import format_ts
from controller.journal.records import Row, hash_row
from controller.profiles.poker import DEFAULT_PROFILE, load_profile
from controller.rules.records import to_json
from controller.simulation.demo import play_round

BENCH_KEY = JournalKey.generate()
"""The journals a bench writes are keyed, as a table's are."""

PG_URL = os.environ.get("PAIGOW_TEST_PG", "postgresql://postgres@127.0.0.1:5432/test")


def round_events() -> list[dict[str, Any]]:
    """One demo round's events as JSON (16 records, one of them a large settlement)."""
    return [to_json(e) for e in play_round(load_profile(DEFAULT_PROFILE), seed=1).events()]


def appends(journal: Journal, count: int) -> dict[str, float]:
    """Durable appends per second, with median and p99 latency in milliseconds."""
    events = round_events()
    times = []
    for i in range(count):
        start = time.perf_counter()
        journal.append(events[i % len(events)], actor="dealer-1", role=Role.DEALER,
                       round_id=f"r{i // len(events)}", randomness=Randomness.production())
        times.append(time.perf_counter() - start)
    times.sort()
    return {"appends_per_s": count / sum(times), "median_ms": statistics.median(times) * 1e3,
            "p99_ms": times[int(len(times) * 0.99) - 1] * 1e3, "appends": count}


def chained_rows(count: int) -> list[Row]:
    """``count`` correctly chained rows, as the journal would have written them."""
    events = [json.dumps(e, sort_keys=True, separators=(",", ":")) for e in round_events()]
    rows, prev = [], GENESIS
    clock = StepClock()
    for seq in range(1, count + 1):
        event = events[seq % len(events)]
        row = Row(seq, f"r{seq // len(events)}", json.loads(event)["type"], event, "dealer-1",
                  "dealer", format_ts(clock()), "secrets", False, prev, "")
        row = row._replace(hash=hash_row(row))
        rows.append(row)
        prev = row.hash
    return rows


def verify_time(journal: Journal, fill: Callable[[list[Row]], None],
                count: int) -> dict[str, float]:
    """Seconds for a full verify of ``count`` records (best of three) and records per second."""
    fill(chained_rows(count))
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        report = journal.verify()
        best = min(best, time.perf_counter() - start)
        assert report.ok and report.records == count, report.line()
    return {"verify_s": best, "per_10k_s": best * 10_000 / count, "records": count,
            "records_per_s": count / best}


def sqlite_fill(path: Path) -> Callable[[list[Row]], None]:
    """Bulk-insert rows into the SQLite journal at ``path``."""
    import sqlite3

    def fill(rows: list[Row]) -> None:
        conn = sqlite3.connect(path)
        with conn:
            conn.executemany(INSERT, [tuple(r) for r in rows])
            conn.execute(SET_HEAD, (rows[-1].seq, rows[-1].hash))
        conn.close()
    return fill


def bench_sqlite(count: int, records: int) -> dict[str, Any]:
    """Both measurements on SQLite files in a temporary folder."""
    with tempfile.TemporaryDirectory() as tmp:
        with open_journal(Path(tmp) / "appends.db", key=BENCH_KEY) as journal:
            result: dict[str, Any] = {"append": appends(journal, count)}
        path = Path(tmp) / "verify.db"
        with open_journal(path, key=BENCH_KEY) as journal:
            result["verify"] = verify_time(journal, sqlite_fill(path), records)
    return result


@contextmanager
def pg_schema() -> Iterator[str]:
    """A temporary schema's journal URL; the schema is dropped afterwards."""
    schema = f"journal_bench_{uuid.uuid4().hex[:8]}"
    try:
        yield f"{PG_URL}?schema={schema}"
    finally:
        with psycopg.connect(PG_URL, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


def pg_fill(url: str) -> Callable[[list[Row]], None]:
    """Bulk-insert rows into the PostgreSQL journal at ``url``."""
    schema = url.rsplit("schema=", 1)[1]

    def fill(rows: list[Row]) -> None:
        with psycopg.connect(PG_URL) as conn, conn.cursor() as cur:
            cur.execute(f'SET search_path TO "{schema}"')
            cur.executemany(INSERT.replace("?", "%s"), [tuple(r) for r in rows])
            cur.execute(SET_HEAD.replace("?", "%s"), (rows[-1].seq, rows[-1].hash))
    return fill


def bench_postgres(count: int, records: int) -> dict[str, Any]:
    """Both measurements on PostgreSQL, or why they were skipped."""
    try:
        psycopg.connect(PG_URL, connect_timeout=3).close()
    except psycopg.Error as err:
        return {"skipped": f"{PG_URL} unreachable: {str(err).strip().splitlines()[0]}"}
    result: dict[str, Any] = {}
    with pg_schema() as url, open_journal(url, key=BENCH_KEY) as journal:
        result["append"] = appends(journal, count)
    with pg_schema() as url, open_journal(url, key=BENCH_KEY) as journal:
        result["verify"] = verify_time(journal, pg_fill(url), records)
    return result


def main() -> None:
    """Run the measurements and print them (``--json`` for one object)."""
    global PG_URL
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--appends", type=int, default=1000)
    parser.add_argument("--records", type=int, default=10_000)
    parser.add_argument("--pg", default=PG_URL, help="PostgreSQL server URL (no schema)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    PG_URL = args.pg
    result = {"sqlite": bench_sqlite(args.appends, args.records),
              "postgres": bench_postgres(args.appends, args.records)}
    if args.json:
        print(json.dumps(result, indent=2))
        return
    for name, r in result.items():
        if "skipped" in r:
            print(f"journal {name}: skipped ({r['skipped']})")
            continue
        a, v = r["append"], r["verify"]
        print(f"journal {name:<8}: {a['appends_per_s']:,.0f} durable appends/s (median "
              f"{a['median_ms']:.2f} ms, p99 {a['p99_ms']:.2f} ms, {a['appends']} appends); "
              f"verify {v['per_10k_s'] * 1e3:.0f} ms per 10,000 records "
              f"({v['records_per_s']:,.0f} records/s over {v['records']})")


if __name__ == "__main__":
    main()
