"""The controller's exception root (the rules core has its own, ``rules.errors.RulesError``)."""

from __future__ import annotations


class ControllerError(Exception):
    """Root of the errors raised by the controller outside the rules core."""


class ConfigError(ControllerError, ValueError):
    """A configuration file that is missing, unreadable or invalid; the message names it."""


class UsageError(Exception):
    """A command-line mistake: reported in one line with exit status 2."""
