"""The display's settings: who may sign in (the staff list), standing tokens, the page's title.

Validated once at start-up into frozen values (``DisplaySettings.from_mapping``); unknown keys
are errors.  Every act needs the token of a session a member of staff opened with a PIN
(``controller.display.sign_in``).  Standing ``tokens`` never expire: they are for programs that
build the app themselves (tests); no command makes or reads them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..errors import ControllerError
from ..journal import Role
from ..round import Who
from ..staff import Staff

OPERATOR_ROLES = frozenset({Role.DEALER, Role.SUPERVISOR})
"""The roles a token may carry: the people at the table, never a device or the system."""


DEFAULT_TITLE = "Pai Gow table"
"""The page's title unless the settings name one."""


class DisplaySettingsError(ControllerError, ValueError):
    """The display's settings are malformed; the message names the key."""


@dataclass(frozen=True, slots=True)
class DisplaySettings:
    """Standing bearer tokens (token text -> who acts with it), the page title and the staff
    who may sign in."""

    tokens: Mapping[str, Who] = field(default_factory=dict)
    title: str = DEFAULT_TITLE
    staff: Staff = field(default_factory=Staff)
    hosts: tuple[str, ...] = ()
    """Host names served besides this machine's own (``guard.HostCheck``): the bind address
    and each ``--allowed-host``."""

    def __post_init__(self) -> None:
        for token, who in self.tokens.items():
            if not isinstance(token, str) or len(token) < 8:
                raise DisplaySettingsError("display.tokens: a token must be text of 8 "
                                           "characters or more")
            if who.role not in OPERATOR_ROLES:
                raise DisplaySettingsError(f"display.tokens: {who.actor!r} has role "
                                           f"{who.role.value!r}; a token is for a dealer or a "
                                           f"supervisor")

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> DisplaySettings:
        """From TOML-like data: ``{"title": ..., "tokens": {TOKEN: {"name", "role"}}}``."""
        unknown = sorted(set(data) - {"title", "tokens"})
        if unknown:
            raise DisplaySettingsError(f"display: unknown key {unknown[0]!r}")
        tokens: dict[str, Who] = {}
        for token, entry in dict(data.get("tokens", {})).items():
            if not isinstance(entry, Mapping) or set(entry) != {"name", "role"}:
                raise DisplaySettingsError(f"display.tokens: each token needs exactly 'name' "
                                           f"and 'role', not {entry!r}")
            try:
                role = Role(entry["role"])
            except ValueError as err:
                raise DisplaySettingsError(f"display.tokens: unknown role "
                                           f"{entry['role']!r}") from err
            tokens[str(token)] = Who(str(entry["name"]), role)
        title = data.get("title", DEFAULT_TITLE)
        if not isinstance(title, str):
            raise DisplaySettingsError(f"display.title must be text, not {title!r}")
        return cls(tokens, title)
