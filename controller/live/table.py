"""``Table``: one round engine and its journal behind one lock, and the feed of its records.

Acts come from several threads (the table loop, the display's worker threads); the engine is
the only owner of round state and is not thread-safe, so ``Table.act`` serialises them through
one re-entrant lock.  ``ahead`` wraps each act outside the lock, so a device answers before the
lock is taken (``controller.table.ahead``) and a slow device blocks no reader.

Every record an act appended, faults included, is published to each subscriber's asyncio queue
on its own loop.  A record is filtered for each sight (``visibility``) and turned into JSON
text once per sight per publish, not once per viewer; each viewer gets its own sight's text.
``EventLimits`` caps the viewers and the records one catch-up may send.  Nothing here knows the
web: the display serves these feeds, the table loop only acts.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from typing import Any

from ..errors import ControllerError
from ..journal import Journal, Record, Role, RoundRecall
from ..round import IllegalActError, Who
from ..round.oversight import OversightEngine
from ..round.recovery import Recovery, recover
from .visibility import SIGHTS, Sight, record_for, records_for, showdown_seq

Observer = Callable[[str, Who, Mapping[str, Any]], None]
"""(``"act"`` or ``"note"``, who, what): what ``Table.observe`` is told."""

QUEUE_LIMIT = 1000
"""Records a slow viewer may fall behind before it is dropped (it reconnects and catches up)."""

Published = tuple[int, str]
"""A record as a viewer receives it: its sequence number and its JSON text."""
Batch = Mapping[Sight, Sequence[Published | None]]
"""What one publish hands every viewer: the records as each sight may see them."""


class TooManyViewers(ControllerError):
    """Every viewer's place is taken (``EventLimits.max_viewers``); the message says how many."""


@dataclass(frozen=True, slots=True)
class EventLimits:
    """Caps on the event stream: viewers at once, and records one catch-up request sends
    (a viewer further behind reconnects for the next batch)."""

    max_viewers: int = 200
    catch_up: int = 500

    def __post_init__(self) -> None:
        for name in ("max_viewers", "catch_up"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise ValueError(f"{name} must be a whole number >= 1, not {value!r}")


@dataclass(eq=False)
class Subscription:
    """One viewer's feed: journal records as (seq, JSON text) as its ``sight`` may see them,
    then None when the table closes."""

    loop: asyncio.AbstractEventLoop
    sight: Sight = Sight.PUBLIC
    session: str | None = None
    """The session (token digest) an operator's feed was opened with; it ends with it."""
    queue: asyncio.Queue[Published | None] = field(
        default_factory=lambda: asyncio.Queue(QUEUE_LIMIT))
    dropped: bool = False

    def offer(self, batch: Batch) -> None:
        """Put this sight's items on the queue (call on the subscriber's loop)."""
        for item in batch[self.sight]:
            if self.dropped:
                return
            try:
                self.queue.put_nowait(item)
            except asyncio.QueueFull:
                self.dropped = True
                self.queue = asyncio.Queue(1)
                self.queue.put_nowait(None)  # ends the stream; the page reconnects

    def end(self) -> None:
        """End the feed now, after what is already queued (call on the subscriber's loop)."""
        if self.dropped:
            return
        self.dropped = True  # nothing more is offered
        try:
            self.queue.put_nowait(None)
        except asyncio.QueueFull:  # the stream is not waiting on a full queue: replace it
            self.queue = asyncio.Queue(1)
            self.queue.put_nowait(None)


def _nothing_ahead(name: str, who: Who, *args: Any) -> AbstractContextManager[None]:
    """No device to call ahead (fakes, replay)."""
    return contextlib.nullcontext()


class Table:
    """One engine, its journal, a lock around every act, and the viewers to tell."""

    def __init__(self, engine: OversightEngine[Any], limits: EventLimits | None = None) -> None:
        self.engine = engine
        self.limits = limits or EventLimits()
        self.lock = threading.RLock()
        self.machine_acts: frozenset[str] = frozenset()
        """Acts the table's own loop does (a live table deals itself): asked by anyone else,
        they are refused, and the display does not offer them."""
        self.observe: Observer | None = None
        """Told every act asked and every note, before it is done (a recording's inputs)."""
        self.ahead: Callable[..., AbstractContextManager[None]] = _nothing_ahead
        """Wraps each act outside the lock: the table's devices answer ahead of their act there
        (``controller.table.ahead``), so no device wait holds the lock."""
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
        if name in self.machine_acts and who.role is not Role.SYSTEM:
            raise IllegalActError(name, "the table's loop does this act itself")
        if self.observe is not None:
            self.observe("act", who, {"act": name, "args": list(args), "kwargs": kwargs})
        with self.ahead(name, who, *args), self.lock:
            head = self.journal.head()[0]
            try:
                method(who, *args, **kwargs)
            finally:
                new = self.journal.records(after=head)
                self.publish(new)
        return new

    def note(self, payload: Mapping[str, Any], who: Who) -> Record:
        """Append a table-level record (no round: a sign-in, a sign-out) for ``who`` under the
        lock, and publish it."""
        if self.observe is not None:
            self.observe("note", who, {"payload": dict(payload)})
        with self.lock:
            record = self.journal.append(payload, actor=who.actor, role=who.role)
            self.publish([record])
        return record

    def recover(self) -> Recovery:
        """Resume or void a round left open by a crash (start-up), publishing what it wrote."""
        with self.lock:
            head = self.journal.head()[0]
            done = recover(self.engine)
            self.publish(self.journal.records(after=head))
        return done

    # --- reading -------------------------------------------------------------------------------

    def recall(self, last: int) -> list[RoundRecall]:
        """The last ``last`` settled rounds, oldest first, replays marked."""
        with self.lock:
            return self.journal.last_rounds(last)

    def records_after(self, seq: int, limit: int = QUEUE_LIMIT) -> list[Record]:
        """Records after ``seq`` (a viewer catching up after a reconnect)."""
        with self.lock:
            return self.journal.records(after=seq, limit=limit)

    def catch_up(self, seq: int, sight: Sight) -> list[Published]:
        """At most ``limits.catch_up`` records after ``seq``, encoded as ``sight`` may see them
        (call in a worker thread: it reads and encodes)."""
        records = self.records_after(seq, self.limits.catch_up)
        return [(data["seq"], json.dumps(data)) for data in records_for(sight, records)]

    # --- viewers -------------------------------------------------------------------------------

    def subscribe(self, sight: Sight = Sight.PUBLIC, session: str | None = None) -> Subscription:
        """A new feed for ``sight`` on the running event loop (call from a coroutine), ended
        with ``session`` if given (``end_streams``); ``TooManyViewers`` when every place is
        taken."""
        sub = Subscription(asyncio.get_running_loop(), sight, session)
        with self.lock:
            if len(self._subscribers) >= self.limits.max_viewers:
                raise TooManyViewers(f"{len(self._subscribers)} viewers already watch; the "
                                     f"table takes {self.limits.max_viewers}")
            self._subscribers.add(sub)
        return sub

    def unsubscribe(self, sub: Subscription) -> None:
        """Stop feeding ``sub``."""
        with self.lock:
            self._subscribers.discard(sub)

    def end_streams(self, live: Collection[str]) -> None:
        """Revoke the tickets and end the feeds of every session not in ``live`` (signed out,
        relieved or expired): an operator's stream does not outlive the session it was
        opened with."""
        with self.lock:
            ended = [sub for sub in self._subscribers
                     if sub.session is not None and sub.session not in live]
        for sub in ended:
            try:
                sub.loop.call_soon_threadsafe(sub.end)
            except RuntimeError:  # its loop is closed: the viewer is gone
                self.unsubscribe(sub)

    @property
    def viewers(self) -> int:
        """How many feeds are open."""
        return len(self._subscribers)

    def publish(self, records: Iterable[Record]) -> None:
        """Hand each record's JSON text, as each sight may see it, to every subscriber on that
        subscriber's loop (call under the lock, the round's state as of these records)."""
        records = list(records)
        if not records:
            return
        state = self.engine.round
        shown = showdown_seq(state.records) if state is not None else None
        rid = state.round_id if state is not None else None

        def sees(record: Record) -> bool:
            return shown is not None and record.round_id == rid and record.seq >= shown

        self._send({sight: [(r.seq, json.dumps(record_for(sight, r, sees(r))))
                            for r in records] for sight in SIGHTS})

    def close(self) -> None:
        """End every feed (shutdown), so streaming responses finish."""
        self._send({sight: [None] for sight in SIGHTS})

    def _send(self, items: Batch) -> None:
        with self.lock:
            subscribers = list(self._subscribers)
        for sub in subscribers:
            try:
                sub.loop.call_soon_threadsafe(sub.offer, items)
            except RuntimeError:  # its loop is closed: the viewer is gone
                self.unsubscribe(sub)


__all__ = ["EventLimits", "Published", "Subscription", "Table", "TooManyViewers"]
