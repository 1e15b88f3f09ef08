"""The journal's exceptions, all under ``JournalError`` (a ``ControllerError``)."""

from __future__ import annotations

from ..errors import ControllerError


class JournalError(ControllerError):
    """Root of the errors raised by the journal; the message is one line."""


class JournalURLError(JournalError, ValueError):
    """A journal location that names no back end or cannot be opened."""


class RecordError(JournalError, ValueError):
    """A record the journal refuses to append: bad payload, actor, round id or mode."""


class ReplayMixError(RecordError):
    """A replayed record for a real round, or a real record for a replayed round."""


class QueryError(JournalError, ValueError):
    """A read the journal cannot answer as asked (a count below one)."""


class JournalCorruptError(JournalError):
    """A stored row that cannot be read back as a record: changed behind the journal's back."""


def one_line(err: BaseException) -> str:
    """The first line of an exception's message (drivers add context lines and carets)."""
    lines = str(err).strip().splitlines()
    return lines[0].strip() if lines else type(err).__name__


class JournalKeyError(JournalError):
    """A key that is missing, malformed, readable by others, or not the journal's own."""


class RoundClosedError(RecordError):
    """A record for a round that a ``settle`` or ``round_voided`` record already closed."""


class JournalLockedError(JournalError):
    """A second writer: another controller holds the journal's writer lock."""
