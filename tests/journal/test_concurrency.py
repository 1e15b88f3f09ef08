"""Readers on their own connections while writers append: every snapshot verifies."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

from controller.journal import Role
from tests.journal.helpers import Store, note

WRITES = 150
READERS = 3


def test_readers_see_consistent_prefixes_while_two_writers_append(store: Store) -> None:
    store.open().close()
    done = threading.Event()

    def write(name: str) -> list[int]:
        journal = store.open()
        seqs = [journal.append(note(i, f"{name}-{i // 5}"), actor=name, role=Role.DEVICE).seq
                for i in range(WRITES)]
        return seqs

    def read() -> list[int]:
        journal = store.open()
        seen: list[int] = []
        while not done.is_set() or not seen:
            report = journal.verify()
            assert report.ok, report.line()
            assert not seen or report.records >= seen[-1]
            seen.append(report.records)
            rounds = journal.open_rounds()
            assert all(r.records for r in rounds)
            first = [r.seq for r in journal.records(limit=5)]
            assert first == list(range(1, len(first) + 1))
        return seen

    with ThreadPoolExecutor(2 + READERS) as pool:
        readers = [pool.submit(read) for _ in range(READERS)]
        writers = [pool.submit(write, name) for name in ("a", "b")]
        written = [f.result(timeout=120) for f in writers]
        done.set()
        seen = [f.result(timeout=120) for f in readers]
    assert sorted(written[0] + written[1]) == list(range(1, 2 * WRITES + 1))
    assert all(len(s) >= 1 for s in seen)
    final = store.open().verify()
    assert final.ok and final.records == 2 * WRITES
