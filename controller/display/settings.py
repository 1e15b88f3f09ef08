"""The display's settings: who may act (bearer tokens) and what the page is called.

Validated once at start-up into frozen values (``DisplaySettings.from_mapping``); unknown keys
are errors.  Reading is open on the table network; every act needs a token naming an operator.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..errors import ControllerError
from ..journal import Role
from ..round import Who

OPERATOR_ROLES = frozenset({Role.DEALER, Role.SUPERVISOR})
"""The roles a token may carry: the people at the table, never a device or the system."""


DEFAULT_TITLE = "Pai Gow table"
"""The page's title unless the settings name one."""


class DisplaySettingsError(ControllerError, ValueError):
    """The display's settings are malformed; the message names the key."""


@dataclass(frozen=True, slots=True)
class DisplaySettings:
    """Bearer tokens (token text -> who acts with it) and the page title."""

    tokens: Mapping[str, Who] = field(default_factory=dict)
    title: str = DEFAULT_TITLE

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

    def who(self, token: str) -> Who | None:
        """The operator a token stands for, or None."""
        return self.tokens.get(token)
