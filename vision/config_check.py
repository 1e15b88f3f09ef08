"""Checks of a parsed TOML table shared by every module that validates configuration.

Configuration is validated once at start-up and an unknown key is an error naming it
(``docs/architecture.md``, "Configuration checks").  The layers may not import each other, so
this standard-library module is kept byte for byte the same in ``controller/rules/``,
``firmware_interfaces/`` and ``vision/`` (``tests/rules/test_config_check.py`` says so); each
package raises its own error root through the ``error`` it passes in.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

ErrorType = Callable[[str], Exception]
"""What a check raises: a package's error class, called with the one-line message."""


def unknown_keys(table: Mapping[str, Any], known: Iterable[str]) -> list[str]:
    """The keys of ``table`` outside ``known``, sorted."""
    return sorted(set(table) - set(known))


def check_keys(table: Mapping[str, Any], known: Iterable[str], error: ErrorType, where: str = "",
               *, what: str = "key", section: str = "", listed: str = "known") -> None:
    """Raise ``error`` naming the first unknown key of ``table``:
    ``WHERE: unknown WHAT 'k' SECTION; LISTED: [known keys]`` (``WHERE: `` only when given,
    ``; LISTED: ...`` only when ``listed`` is not empty)."""
    known = sorted(known)
    unknown = unknown_keys(table, known)
    if unknown:
        prefix = f"{where}: " if where else ""
        inside = f" {section}" if section else ""
        tail = f"; {listed}: {known}" if listed else ""
        raise error(f"{prefix}unknown {what} {unknown[0]!r}{inside}{tail}")


def require_table(value: object, error: ErrorType, what: str) -> Mapping[str, Any]:
    """``value`` when it is a TOML table; else ``error``: ``WHAT must be a table, not value``."""
    if not isinstance(value, Mapping):
        raise error(f"{what} must be a table, not {value!r}")
    return value
