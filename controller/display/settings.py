"""The display's settings: who may sign in (the staff list), standing tokens, the page's title,
the host names it answers to, the folder of the camera's kept frames.

Validated once at start-up into frozen values (``DisplaySettings.from_mapping``); unknown keys
are errors.  Every act needs the token of a session a member of staff opened with a PIN
(``controller.display.sign_in``).  Standing ``tokens`` never expire: they are for programs that
build the app themselves (tests); no command makes or reads them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import ControllerError
from ..journal import Role
from ..round import Who
from ..rules.config_check import check_keys
from ..staff import Staff

OPERATOR_ROLES = frozenset({Role.DEALER, Role.SUPERVISOR})
"""The roles a token may carry: the people at the table, never a device or the system."""


DEFAULT_TITLE = "Pai Gow table"
"""The page's title unless the settings name one."""
HOST_MAX = 253
"""The longest host name (DNS's limit); a longer ``Host`` could never match one."""
_NOT_IN_HOSTS = frozenset("/@?#\\,")


def host_problem(name: object) -> str | None:
    """Why ``name`` is not a host name or address a request's ``Host`` could give, or None:
    ASCII (an international name in its ``xn--`` form), printable, no space, no URL part."""
    if not isinstance(name, str) or not name or len(name) > HOST_MAX:
        return f"{name!r} is not text of 1 to {HOST_MAX} characters"
    if not name.isascii() or not name.isprintable() or any(c.isspace() for c in name):
        return f"{name!r} is not a host name: ASCII with no spaces (xn-- for other scripts)"
    if _NOT_IN_HOSTS & set(name):
        return f"{name!r} is a URL or a list, not a host name"
    return None


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
    frames: Path | None = None
    """The folder the table's camera keeps the still frame of each read in (``paigow run``
    passes ``frames_beside(journal)``); a supervisor opens a closed round's frames from it
    (``routes.frames``).  None: no frame is served."""

    def __post_init__(self) -> None:
        for token, who in self.tokens.items():
            if not isinstance(token, str) or len(token) < 8:
                raise DisplaySettingsError("display.tokens: a token must be text of 8 "
                                           "characters or more")
            if who.role not in OPERATOR_ROLES:
                raise DisplaySettingsError(f"display.tokens: {who.actor!r} has role "
                                           f"{who.role.value!r}; a token is for a dealer or a "
                                           f"supervisor")
        if not isinstance(self.hosts, tuple):
            raise DisplaySettingsError(f"display.hosts must be a list of host names, not "
                                       f"{self.hosts!r}")
        for name in self.hosts:
            problem = host_problem(name)
            if problem:
                raise DisplaySettingsError(f"display.hosts: {problem}")
        if self.frames is not None and not isinstance(self.frames, Path):
            raise DisplaySettingsError(f"display.frames must be a folder's path, not "
                                       f"{self.frames!r}")

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> DisplaySettings:
        """From TOML-like data: ``{"title": ..., "hosts": [NAME, ...], "tokens": {TOKEN:
        {"name", "role"}}}``; ``hosts`` are the names served besides this machine's own, as
        ``--allowed-host`` gives them."""
        check_keys(data, ("title", "tokens", "hosts"), DisplaySettingsError, "display",
                   listed="")
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
        hosts = data.get("hosts", [])
        if not isinstance(hosts, list | tuple):
            raise DisplaySettingsError(f"display.hosts must be a list of host names, not "
                                       f"{hosts!r}")
        return cls(tokens, title, hosts=tuple(hosts))
