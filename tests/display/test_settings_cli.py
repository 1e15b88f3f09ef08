"""Settings validation, replay marking, and the ``display`` command's arguments."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from controller.commands.display import add_parsers
from controller.display import DisplaySettings, DisplaySettingsError

from .conftest import make_app, play_round


def test_settings_refuse_unknown_keys_and_bad_roles() -> None:
    made = DisplaySettings.from_mapping(
        {"tokens": {"abcdefgh12": {"name": "ann", "role": "dealer"}}})
    assert made.tokens["abcdefgh12"].actor == "ann" and "other" not in made.tokens
    with pytest.raises(DisplaySettingsError, match="unknown key 'colour'"):
        DisplaySettings.from_mapping({"colour": "red"})
    with pytest.raises(DisplaySettingsError, match="dealer or a supervisor"):
        DisplaySettings.from_mapping({"tokens": {"abcdefgh12": {"name": "x", "role": "device"}}})


def test_replayed_rounds_are_marked(journal_path: Path) -> None:
    with TestClient(make_app(journal_path, replay=True)) as client:
        play_round(client)
        assert client.get("/api/table").json()["replay"] is True
        assert client.get("/api/rounds").json()["rounds"][0]["replay"] is True


def test_display_command_arguments() -> None:
    parser = argparse.ArgumentParser()
    add_parsers(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["display", "--journal", "t.db", "--game", "tiles", "--port", "9"])
    assert (args.journal, args.game, args.port, args.host) == ("t.db", "tiles", 9, "127.0.0.1")
    assert callable(args.handler)
