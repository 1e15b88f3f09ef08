"""Canonical JSON: the one byte form of an event that the journal stores and hashes.

Keys sorted, no spaces, ASCII only (other characters as ``\\uXXXX`` escapes), no NaN or
infinities, and no floats at all: money and counts are integer cents and integers, and any
verifier in any language prints an integer, a string, a boolean or null the same way.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

Json = dict[str, Any]
"""A decoded JSON object."""


class CanonicalError(ValueError):
    """A value that has no canonical JSON form here (float, non-string key, unknown type)."""


def _check(value: object, where: str) -> None:
    if value is None or isinstance(value, bool | int | str):
        return
    if isinstance(value, float):
        raise CanonicalError(f"{where}: floats are not stored, use integers or text: {value!r}")
    if isinstance(value, list | tuple):
        for i, item in enumerate(value):
            _check(item, f"{where}[{i}]")
        return
    if isinstance(value, Mapping):
        for key, item in value.items():
            if not isinstance(key, str):
                raise CanonicalError(f"{where}: object keys must be text, not {key!r}")
            _check(item, f"{where}.{key}")
        return
    raise CanonicalError(f"{where}: not a JSON value: {value!r}")


_ENCODER = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=True,
                            allow_nan=False)


def dumps(value: object) -> str:
    """The canonical spelling of a value already known to hold only JSON types (no checks)."""
    return _ENCODER.encode(value)


def canonical(value: object) -> str:
    """The canonical JSON text of a value; CanonicalError names what has no canonical form."""
    _check(value, "$")
    return dumps(value)


def _refuse(text: str) -> Any:
    raise CanonicalError(f"floats are not stored: {text}")


_DECODER = json.JSONDecoder(parse_float=_refuse, parse_constant=_refuse)


def parse_canonical(text: str) -> Json:
    """The object a canonical text holds; CanonicalError if it is not one, or not canonical."""
    try:
        value = _DECODER.decode(text)
    except CanonicalError:
        raise
    except (TypeError, ValueError) as err:
        raise CanonicalError(f"not JSON: {err}") from err
    if not isinstance(value, dict):
        raise CanonicalError(f"not a JSON object: {text[:40]!r}")
    if dumps(value) != text:
        raise CanonicalError("not in canonical form (sorted keys, no spaces, ASCII)")
    return value
