"""Answers to reading requests, kept until the table's next act.

Every viewer re-reads the table on every event, so fifty screens would otherwise rebuild the
same view and recall fifty times per act (the recall decodes ten rounds' records).  Round state
changes only through ``Table``'s acts and start-up recovery, which empty this cache under the
table's lock, so an answer made since then still stands.  A value is made under that lock too,
so it can never mix states from before and after an act.  (Records another process appends to
the same journal, such as a replay written into it, show in the recall after the next act.)

On the event loop, ``shared`` makes a missing value once in a worker thread and lets every
request that arrives meanwhile wait for that one; a request that arrives after an act never
joins a making begun before it (each ``clear`` starts a new generation).
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

from fastapi.concurrency import run_in_threadpool

T = TypeVar("T")


class ActCache:
    """Values keyed by what was asked, valid until ``clear``."""

    def __init__(self, lock: threading.RLock) -> None:
        self._lock = lock
        self._values: dict[Hashable, Any] = {}
        self._making: dict[tuple[Hashable, int], asyncio.Future[Any]] = {}
        self.generation = 0

    def peek(self, key: Hashable) -> Any | None:
        """The value kept for ``key``, or None; takes no lock (for the event loop)."""
        return self._values.get(key)

    def get(self, key: Hashable, make: Callable[[], T]) -> T:
        """The value for ``key``, made under the table's lock if not kept."""
        with self._lock:
            if key not in self._values:
                self._values[key] = make()
            value: T = self._values[key]
            return value

    async def shared(self, key: Hashable, make: Callable[[], T]) -> T:
        """The value for ``key`` on the event loop: kept, being made, or made now (in a
        worker thread, once for all who ask before it is done)."""
        kept = self._values.get(key)
        if kept is not None:
            value: T = kept
            return value
        slot = (key, self.generation)
        making = self._making.get(slot)
        if making is None:
            making = asyncio.ensure_future(run_in_threadpool(self.get, key, make))
            self._making[slot] = making
            making.add_done_callback(lambda _: self._making.pop(slot, None))
        made: T = await asyncio.shield(making)
        return made

    def clear(self) -> None:
        """Forget every value (call when the table changes): a new generation."""
        with self._lock:
            self.generation += 1
            self._values.clear()
