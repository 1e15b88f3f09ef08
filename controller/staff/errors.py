"""The staff package's exception root: a bad staff file, PIN or sign-in."""

from __future__ import annotations

from ..errors import ConfigError


class StaffError(ConfigError):
    """A staff file, entry or PIN that cannot be used; the message names the value."""
