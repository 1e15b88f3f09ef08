"""The table as the web sees it: one round engine and its journal behind one lock.

Acts from the web run in FastAPI's thread pool; ``Table.act`` serialises them through one lock
(the engine is the only owner of round state and is not thread-safe), then publishes every
record the act appended, faults included, to each subscriber's asyncio queue on its own loop.
A record is turned into JSON text once per publish, not once per viewer.
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..journal import Journal, Record, RoundRecall
from ..round import IllegalActError, Who
from ..round.oversight import OversightEngine
from ..round.recovery import Recovery, recover
from .cache import ActCache
from .views import TableView, table_view

QUEUE_LIMIT = 1000
"""Records a slow viewer may fall behind before it is dropped (it reconnects and catches up)."""

Published = tuple[int, str]
"""A record as a viewer receives it: its sequence number and its JSON text."""


@dataclass(eq=False)
class Subscription:
    """One viewer's feed: journal records as (seq, JSON text), then None when the table
    closes."""

    loop: asyncio.AbstractEventLoop
    queue: asyncio.Queue[Published | None] = field(
        default_factory=lambda: asyncio.Queue(QUEUE_LIMIT))
    dropped: bool = False

    def offer(self, items: Sequence[Published | None]) -> None:
        """Put items on the queue (call on the subscriber's loop)."""
        for item in items:
            if self.dropped:
                return
            try:
                self.queue.put_nowait(item)
            except asyncio.QueueFull:
                self.dropped = True
                self.queue = asyncio.Queue(1)
                self.queue.put_nowait(None)  # ends the stream; the page reconnects


class Table:
    """One engine, its journal, a lock around every act, and the viewers to tell."""

    def __init__(self, engine: OversightEngine[Any]) -> None:
        self.engine = engine
        self.lock = threading.RLock()
        self.cache = ActCache(self.lock)
        self._subscribers: set[Subscription] = set()

    @property
    def journal(self) -> Journal:
        """The engine's journal."""
        return self.engine.journal

    # --- acts ----------------------------------------------------------------------------------

    def act(self, name: str, who: Who, *args: Any, **kwargs: Any) -> list[Record]:
        """Do the engine's act ``name`` for ``who``; the records it appended, all published.

        Records appended before a refusal or a lost device (a fault) are published too.
        """
        method = getattr(self.engine, name, None)
        if method is None or name.startswith("_") or not callable(method):
            raise IllegalActError(name, f"this table plays {self.engine.game.name}")
        with self.lock:
            head = self.journal.head()[0]
            try:
                method(who, *args, **kwargs)
            finally:
                self.cache.clear()
                new = self.journal.records(after=head)
                self.publish(new)
        return new

    def note(self, payload: Mapping[str, Any], who: Who) -> Record:
        """Append a table-level record (no round: a sign-in, a sign-out) for ``who`` under the
        lock, and publish it."""
        with self.lock:
            record = self.journal.append(payload, actor=who.actor, role=who.role)
            self.publish([record])
        return record

    def recover(self) -> Recovery:
        """Resume or void a round left open by a crash (start-up), publishing what it wrote."""
        with self.lock:
            head = self.journal.head()[0]
            done = recover(self.engine)
            self.cache.clear()
            self.publish(self.journal.records(after=head))
        return done

    # --- reading -------------------------------------------------------------------------------

    def view(self) -> TableView:
        """The current round as the dealer screen shows it (made afresh)."""
        with self.lock:
            return table_view(self.engine, self.journal.active_faults())

    def recall(self, last: int) -> list[RoundRecall]:
        """The last ``last`` settled rounds, oldest first, replays marked."""
        with self.lock:
            return self.journal.last_rounds(last)

    def records_after(self, seq: int, limit: int = QUEUE_LIMIT) -> list[Record]:
        """Records after ``seq`` (a viewer catching up after a reconnect)."""
        with self.lock:
            return self.journal.records(after=seq, limit=limit)

    # --- viewers -------------------------------------------------------------------------------

    def subscribe(self) -> Subscription:
        """A new feed on the running event loop (call from a coroutine)."""
        sub = Subscription(asyncio.get_running_loop())
        with self.lock:
            self._subscribers.add(sub)
        return sub

    def unsubscribe(self, sub: Subscription) -> None:
        """Stop feeding ``sub``."""
        with self.lock:
            self._subscribers.discard(sub)

    @property
    def viewers(self) -> int:
        """How many feeds are open."""
        return len(self._subscribers)

    def publish(self, records: Iterable[Record]) -> None:
        """Hand each record's JSON text to every subscriber, on that subscriber's loop."""
        items: list[Published | None] = [(r.seq, json.dumps(r.to_json())) for r in records]
        if items:
            self._send(items)

    def close(self) -> None:
        """End every feed (shutdown), so streaming responses finish."""
        self._send([None])

    def _send(self, items: Sequence[Published | None]) -> None:
        with self.lock:
            subscribers = list(self._subscribers)
        for sub in subscribers:
            try:
                sub.loop.call_soon_threadsafe(sub.offer, items)
            except RuntimeError:  # its loop is closed: the viewer is gone
                self.unsubscribe(sub)
