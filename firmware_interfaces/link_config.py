"""The host link's time limits and the counters of what the line cost."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Timing:
    """Time limits of the link, in seconds; ``retries`` resends follow the first try."""

    ack_timeout: float = 0.5
    reply_timeout: float = 5.0
    retries: int = 3
    backoff_initial: float = 0.05
    backoff_max: float = 2.0

    def call_limit(self, reply_timeout: float | None = None) -> float:
        """The absolute bound of one call (or hello), whatever the device sends meanwhile.

        One reply wait, plus two ACK waits for each try: enough for a device that answers,
        even after resends on a noisy line; no ACK, NAK or frame can move it on.
        """
        reply = self.reply_timeout if reply_timeout is None else reply_timeout
        return reply + 2 * (1 + self.retries) * self.ack_timeout


@dataclass
class LinkStats:
    """Counters of what the line cost: resends, NAKs both ways, reconnects, noise."""

    requests: int = 0
    resends: int = 0
    naks_sent: int = 0
    naks_received: int = 0
    reconnects: int = 0
    events: int = 0
    garbage_bytes: int = 0
