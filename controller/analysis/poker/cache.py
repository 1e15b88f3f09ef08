"""A disk cache of full-deck house-way tables, keyed by everything a table depends on.

A table is a pure function of the way's TOML text, the ruleset, the rules core's code and the
class enumeration's code, so its file name carries a SHA-256 of all of them: editing any of
them makes a new key and the old file is simply not read again.  The folder is
``$PAIGOW_CACHE`` or the per-user cache's ``poker_tables``; ``PAIGOW_CACHE=off`` turns the
cache off.  A file that cannot be read or written is ignored: the table is then computed.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path

import numpy as np
import numpy.typing as npt

from controller.config.house_ways import poker_way_file
from controller.config.locations import user_cache
from controller.rules.poker.hand_rules import PokerRules

_SOURCES = (*sorted((Path(__file__).resolve().parents[2] / "rules").rglob("*.py")),
            Path(__file__).with_name("classes.py"))
Table = tuple[npt.NDArray[np.int32], npt.NDArray[np.int32]]


def cache_dir() -> Path | None:
    """Where tables are kept, or None when the cache is off."""
    text = os.environ.get("PAIGOW_CACHE")
    if text is not None and text.strip().lower() in ("", "off", "0", "no"):
        return None
    return Path(text) if text else user_cache() / "poker_tables"


def table_key(name: str, rules: PokerRules) -> str:
    """A digest of the way's text, the ruleset and the code that makes the table."""
    digest = hashlib.sha256()
    digest.update(repr(rules).encode())
    for path in [poker_way_file(name), *_SOURCES]:
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:24]


def load(name: str, rules: PokerRules, size: int) -> Table | None:
    """The cached table, if there is one of the right size."""
    folder = cache_dir()
    if folder is None:
        return None
    path = folder / f"{name}-{table_key(name, rules)}.npz"
    try:
        with np.load(path) as data:
            low, high = data["low"], data["high"]
    except (OSError, KeyError, ValueError):
        return None
    if low.shape != (size,) or high.shape != (size,):
        return None
    return low.astype(np.int32), high.astype(np.int32)


def store(name: str, rules: PokerRules, table: Table) -> None:
    """Keep a table (written to a temporary file, then renamed into place)."""
    folder = cache_dir()
    if folder is None:
        return
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=folder, suffix=".npz", delete=False) as handle:
            np.savez(handle, low=table[0], high=table[1])
        os.replace(handle.name, folder / f"{name}-{table_key(name, rules)}.npz")
    except OSError:
        return
