"""The value checks of a layout file: each raises a ``LayoutError`` naming the key.

Shared by ``layout`` (felt, marks, regions) and ``layout_markers`` (the markers); keys are
named from the file's top (``felt.width``, ``seats.2.low.size``), as its reader would look.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from .config_check import check_keys
from .errors import LayoutError

Point = tuple[float, float]


def only(table: dict[str, Any], allowed: Sequence[str], prefix: str, source: str) -> None:
    """Refuse a key of ``table`` (under ``prefix``) outside ``allowed``."""
    check_keys({prefix + key: value for key, value in table.items()},
               [prefix + key for key in allowed], LayoutError, f"layout {source!r}", listed="")


def table(data: dict[str, Any], key: str, source: str) -> dict[str, Any]:
    """The table ``data[key]``."""
    value = data.get(key)
    if not isinstance(value, dict):
        raise LayoutError(f"layout {source!r}: missing table {key!r}")
    return value


def number(table: dict[str, Any], key: str, prefix: str, source: str) -> float:
    """``table[key]``, a finite number > 0."""
    value = table.get(key)
    if isinstance(value, bool) or not isinstance(value, int | float) or not value > 0 \
            or not math.isfinite(value):
        raise LayoutError(f"layout {source!r}: {prefix + key!r} must be a number > 0, "
                          f"got {value!r}")
    return float(value)


def is_number(c: Any) -> bool:
    """Whether ``c`` is a finite int or float (not a bool)."""
    return isinstance(c, int | float) and not isinstance(c, bool) and math.isfinite(c)


def points(value: Any, key: str, source: str) -> tuple[Point, ...]:
    """Four ``[x, y]`` points, the corners of a convex quadrilateral in order."""
    ok = isinstance(value, list) and len(value) == 4 and all(
        isinstance(p, list) and len(p) == 2 and all(is_number(c) for c in p) for p in value)
    if not ok:
        raise LayoutError(f"layout {source!r}: {key!r} must be four [x, y] points, "
                          f"got {value!r}")
    pts = tuple((float(p[0]), float(p[1])) for p in value)
    arr = np.array(pts)
    # Each corner must turn the same way: a convex quadrilateral, no three points in line.
    turns = []
    for i in range(4):
        (ax, ay), (bx, by) = arr[(i + 1) % 4] - arr[i], arr[(i + 2) % 4] - arr[(i + 1) % 4]
        turns.append(float(ax * by - ay * bx))
    span = max(float(np.ptp(arr[:, 0])), float(np.ptp(arr[:, 1])), 1e-9)
    if not (all(t > 1e-3 * span**2 for t in turns) or all(t < -1e-3 * span**2 for t in turns)):
        raise LayoutError(f"layout {source!r}: {key!r} must be the corners of a convex "
                          f"quadrilateral in order, got {value!r}")
    return pts


def pair(value: Any, key: str, source: str) -> Point:
    """One ``[x, y]`` pair of finite numbers."""
    if not (isinstance(value, list) and len(value) == 2 and all(is_number(c) for c in value)):
        raise LayoutError(f"layout {source!r}: {key!r} must be [x, y], got {value!r}")
    return (float(value[0]), float(value[1]))
