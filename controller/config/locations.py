"""Where the product finds its files: the config data it ships, a casino's own config folder,
and the per-user cache (the camera's card artwork, house-way tables).

The one place that knows these folders, so the product runs the same from a checkout and from an
installed wheel.  The config data (house ways, profiles, tables, layouts) stays at the repo's
root as ``config/``; the wheel carries it as the code-free package ``paigow_config``, read with
``importlib.resources``.  A casino's folder (``paigow --config DIR`` or ``$PAIGOW_CONFIG``)
is looked in first, file by file: what it holds wins, what it lacks comes from the shipped data.
"""

from __future__ import annotations

import os
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path

from ..errors import ConfigError

CONFIG_ENV = "PAIGOW_CONFIG"
"""The environment variable naming a casino's own config folder (``--config`` sets it)."""

ASSETS_ENV = "PAIGOW_ASSETS"
"""The environment variable naming the folder of the camera's artwork, instead of the cache's."""

CONFIG_PACKAGE = "paigow_config"
"""The package name ``config/`` ships under in the wheel (``pyproject.toml``)."""

_CHECKOUT_CONFIG = Path(__file__).resolve().parents[2] / "config"


def _on_disk(root: Traversable) -> Path:
    """The folder behind a package's resources: pip unpacks a wheel onto the file system, and
    the file readers (size limits, TOML) take paths."""
    if isinstance(root, Path):
        return root
    # A namespace package (config/ holds no code) is a MultiplexedPath; its entries are paths.
    for child in root.iterdir():
        if isinstance(child, Path):
            return child.parent
    raise ConfigError(f"the shipped config {root!r} is empty or not on the file system")


@cache
def shipped_config() -> Path:
    """The config data this installation ships: ``paigow_config`` (a wheel, or the checkout's
    editable install), else the checkout's ``config/`` when the project runs from its tree."""
    try:
        return _on_disk(resources.files(CONFIG_PACKAGE))
    except ModuleNotFoundError:  # run from the tree with no install (``PYTHONPATH=.``)
        return _CHECKOUT_CONFIG
    except NotADirectoryError:
        # An editable install: Python 3.11's namespace reader refuses the placeholder entry
        # setuptools' editable finder puts on the package's path; the data is the checkout's.
        return _CHECKOUT_CONFIG


def use_config(folder: str | Path) -> None:
    """Make ``folder`` the casino's own config folder for this process and its children
    (``paigow --config DIR``); ConfigError names a folder that does not exist."""
    path = Path(folder)
    if not path.is_dir():
        raise ConfigError(f"config folder {str(folder)!r} is not a directory")
    os.environ[CONFIG_ENV] = str(path.resolve())


def config_dirs() -> list[Path]:
    """The config folders in the order they are searched: the casino's own, then the shipped."""
    override = os.environ.get(CONFIG_ENV)
    shipped = shipped_config()
    return [Path(override), shipped] if override else [shipped]


def config_file(*parts: str) -> Path:
    """The first ``parts`` path (e.g. ``"profiles", "classic.toml"``) that exists among the
    config folders; when none holds it, its place in the first folder (for the message)."""
    folders = config_dirs()
    for folder in folders:
        path = folder.joinpath(*parts)
        if path.exists():
            return path
    return folders[0].joinpath(*parts)


def config_files(*parts: str) -> dict[str, Path]:
    """The ``.toml`` files in one config subfolder, by name (stem), the casino's winning."""
    found: dict[str, Path] = {}
    for folder in reversed(config_dirs()):
        found.update((p.stem, p) for p in folder.joinpath(*parts).glob("*.toml"))
    return dict(sorted(found.items()))


def user_cache() -> Path:
    """The per-user cache: ``$XDG_CACHE_HOME/paigow``, else ``~/.cache/paigow``."""
    base = os.environ.get("XDG_CACHE_HOME")
    return (Path(base) if base else Path.home() / ".cache") / "paigow"


def assets_dir() -> Path:
    """The camera's card artwork and its deck calibrations: ``$PAIGOW_ASSETS``, else the
    per-user cache's ``assets`` (drawn on first use: ``controller.table.artwork``)."""
    override = os.environ.get(ASSETS_ENV)
    return Path(override) if override else user_cache() / "assets"
