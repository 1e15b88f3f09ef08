"""The table as the web sees it: the live table plus what serving it needs.

``controller.live.Table`` is shared with the table loop; the display adds the cache of answers
to repeated acts (emptied whenever a record is published), the stream tickets an operator's
page opens its feed with (revoked when the session ends), the rate limiter of catch-up
requests, and the view of the round a page draws.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from typing import Any

from ..journal import Record
from ..live import Table as LiveTable
from ..live.device_events import DEVICE_EVENT, DEVICE_EVENT_ALERTS
from ..live.table import EventLimits, TooManyViewers
from ..live.visibility import Sight
from ..round.oversight import OversightEngine
from .cache import ActCache
from .tickets import Tickets
from .views import TableView, table_view


class Table(LiveTable):
    """The live table, with the display's act cache, stream tickets and views."""

    def __init__(self, engine: OversightEngine[Any], limits: EventLimits | None = None) -> None:
        super().__init__(engine, limits)
        self.cache = ActCache(self.lock)
        self.tickets = Tickets()
        self.catch_up_limiter: Any = None  # made on the event loop by the first catch-up

    def view(self, sight: Sight = Sight.SUPERVISOR) -> TableView:
        """The current round as ``sight`` may see it (made afresh)."""
        with self.lock:
            return table_view(self.engine, self.journal.active_faults(), sight,
                              machine=self.machine_acts,
                              device_events=() if sight is Sight.PUBLIC
                              else self.device_events())

    def device_events(self) -> list[Record]:
        """The latest ``device_event`` notes (``DEVICE_EVENT_ALERTS`` at most, oldest first)
        since the round on screen opened (all of them before the first round): a door opened
        rounds ago is no alert now, and the journal keeps it."""
        state = self.engine.round
        since = state.records[0].seq - 1 if state is not None and state.records else 0
        return self.journal.records_of_kind(DEVICE_EVENT, last=DEVICE_EVENT_ALERTS,
                                            after=since)

    def publish(self, records: Iterable[Record]) -> None:
        """Forget cached answers (the round changed), then feed the viewers."""
        records = list(records)
        if records:
            self.cache.clear()
        super().publish(records)

    def end_streams(self, live: Collection[str]) -> None:
        """Revoke the stream tickets of every session not in ``live``, then end its feeds."""
        self.tickets.revoke(live)
        super().end_streams(live)


__all__ = ["EventLimits", "Table", "TooManyViewers"]
