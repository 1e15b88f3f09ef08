"""Where the product finds its files: the config data ships inside the wheel, and a casino's own
folder (``paigow --config DIR``, ``$PAIGOW_CONFIG``) is searched before it."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from controller.config.locations import (
    assets_dir,
    config_dirs,
    config_file,
    config_files,
    user_cache,
)

ROOT = Path(__file__).resolve().parents[2]
CODE = ("controller", "firmware_interfaces", "vision")


def _paigow(*argv: str, env: dict[str, str] | None = None,
            cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """``paigow ARGV`` in a fresh process of this interpreter."""
    return subprocess.run([sys.executable, "-m", "controller.cli", *argv], capture_output=True,
                          text=True, check=False, env=env, cwd=cwd or ROOT, timeout=120)


@pytest.fixture(scope="module")
def wheel_names(tmp_path_factory: pytest.TempPathFactory) -> set[str]:
    """The file list of a wheel built from a copy of the repo's sources (no build/ left in
    the checkout)."""
    src = tmp_path_factory.mktemp("src")
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, src / name)
    for name in (*CODE, "config"):
        shutil.copytree(ROOT / name, src / name, ignore=shutil.ignore_patterns("__pycache__"))
    dist = tmp_path_factory.mktemp("dist")
    subprocess.run([sys.executable, "-m", "pip", "wheel", str(src), "--no-deps", "--quiet",
                    "-w", str(dist)], check=True, timeout=600,
                   env={**os.environ, "PIP_NO_INPUT": "1", "PIP_DISABLE_PIP_VERSION_CHECK": "1"})
    (wheel,) = dist.glob("paigow_table-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        return set(archive.namelist())


@pytest.mark.parametrize("folder", ["house_ways/poker", "house_ways/tiles", "profiles",
                                    "tables", "layouts"])
def test_the_wheel_ships_every_config_file(wheel_names: set[str], folder: str) -> None:
    files = sorted((ROOT / "config" / folder).glob("*.toml"))
    assert files, folder
    for path in files:
        assert f"paigow_config/{folder}/{path.name}" in wheel_names


def test_the_wheel_ships_only_toml_as_config(wheel_names: set[str]) -> None:
    shipped = [n for n in wheel_names if n.startswith("paigow_config/")]
    assert shipped and all(n.endswith(".toml") for n in shipped), shipped


def test_the_wheel_leaves_out_no_module(wheel_names: set[str]) -> None:
    # pyproject.toml lists the packages: a new one not listed would be missing from the wheel.
    modules = [p.relative_to(ROOT).as_posix() for top in CODE for p in (ROOT / top).rglob("*.py")
               if "__pycache__" not in p.parts]
    assert modules
    assert [m for m in modules if m not in wheel_names] == []
    assert "controller/display/static/index.html" in wheel_names


def _casino(tmp_path: Path) -> Path:
    """A casino's folder holding one house way of its own, ``house-special``."""
    folder = tmp_path / "casino"
    ways = folder / "house_ways" / "poker"
    ways.mkdir(parents=True)
    text = (ROOT / "config" / "house_ways" / "poker" / "foxwoods.toml").read_text()
    assert 'name = "foxwoods"' in text
    (ways / "house-special.toml").write_text(text.replace('name = "foxwoods"',
                                                          'name = "house-special"', 1))
    return folder


def test_config_option_finds_a_house_way_placed_in_the_folder(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "PAIGOW_CONFIG"}
    folder = _casino(tmp_path)
    listed = _paigow("--config", str(folder), "ways", env=env, cwd=tmp_path)
    assert listed.returncode == 0, listed.stderr
    assert "house-special" in listed.stdout
    assert "mgm" in listed.stdout  # the shipped ways are still there beneath it
    hand = ("As", "Kd", "Qh", "9s", "9c", "4d", "Jk")
    done = _paigow("--config", str(folder), "set", "poker", "--way", "house-special", *hand,
                   env=env, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "pair of aces" in done.stdout
    without = _paigow("set", "poker", "--way", "house-special", *hand, env=env, cwd=tmp_path)
    assert without.returncode == 2
    assert "unknown house way 'house-special'" in without.stderr


def test_config_option_naming_no_folder_is_one_line(tmp_path: Path) -> None:
    done = _paigow("--config", str(tmp_path / "nowhere"), "ways")
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        f"paigow: error: config folder {str(tmp_path / 'nowhere')!r} is not a directory"]


def test_the_casino_folder_wins_file_by_file(tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    folder = _casino(tmp_path)
    (folder / "profiles").mkdir()
    (folder / "profiles" / "classic.toml").write_text("# the casino's own\n")
    monkeypatch.setenv("PAIGOW_CONFIG", str(folder))
    assert config_dirs()[0] == folder
    assert config_file("profiles", "classic.toml") == folder / "profiles" / "classic.toml"
    assert config_file("profiles", "ez.toml").read_text() == (
        ROOT / "config" / "profiles" / "ez.toml").read_text()
    ways = config_files("house_ways", "poker")
    assert ways["house-special"].parent == folder / "house_ways" / "poker"
    assert "mgm" in ways and list(ways) == sorted(ways)


def test_the_artwork_is_in_the_per_user_cache(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PAIGOW_ASSETS", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert user_cache() == tmp_path / "paigow"
    assert assets_dir() == tmp_path / "paigow" / "assets"
    monkeypatch.setenv("PAIGOW_ASSETS", str(tmp_path / "art"))
    assert assets_dir() == tmp_path / "art"
