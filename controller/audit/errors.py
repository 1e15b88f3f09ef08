"""The audit's one exception root and its precise subclasses."""

from __future__ import annotations

from ..errors import ControllerError


class AuditError(ControllerError):
    """Root of every error the audit raises."""


class AuditInputError(AuditError, ValueError):
    """A filter, option or time given to the audit is malformed; the message names it."""


class AuditDataError(AuditError):
    """A journal record cannot be read as the round engine writes it; names the record."""
