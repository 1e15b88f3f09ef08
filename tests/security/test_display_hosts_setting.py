"""The allowed hosts from the display's settings data (``DisplaySettings.from_mapping``, the
settings TOML): ``hosts`` was an unknown key, so a display set up from its file could not name
the host its screens use.  Now the key is read and validated once, and the names it gives are
served (others still 400) by a real uvicorn."""

from __future__ import annotations

import socket
from dataclasses import replace
from pathlib import Path

import pytest

from controller.display import DisplaySettings, DisplaySettingsError, create_app
from tests.display.conftest import SETTINGS, make_app, serve


def status_for(url: str, host: str) -> int:
    """The status of ``GET /api/table`` sent to the server at ``url`` with ``Host: host``."""
    port = int(url.rsplit(":", 1)[1])
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(f"GET /api/table HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
                     .encode())
        reply = b""
        while b"\r\n" not in reply:
            got = sock.recv(4096)
            if not got:
                break
            reply += got
    return int(reply.split()[1])


def test_hosts_from_the_settings_data_are_served(tmp_path: Path) -> None:
    made = DisplaySettings.from_mapping({"title": "Table 7",
                                         "hosts": ["table7.casino.example", "10.1.2.3"]})
    assert made.hosts == ("table7.casino.example", "10.1.2.3")
    table = make_app(tmp_path / "t.db").state.table
    with serve(create_app(table, replace(SETTINGS, hosts=made.hosts))) as url:
        assert status_for(url, "table7.casino.example") == 200
        assert status_for(url, "10.1.2.3:8000") == 200
        assert status_for(url, "evil.example") == 400


@pytest.mark.parametrize(("hosts", "named"), [
    ("table7.example", "'table7.example'"),  # one name, not a list
    ([""], "''"),
    (["table 7"], "'table 7'"),
    (["http://table7.example/"], "'http://table7.example/'"),
    (["table7.example,evil.example"], "'table7.example,evil.example'"),
    (["täble.example"], "'täble.example'"),
    ([7], "7"),
    (["a" * 254], "'aaaa"),
])
def test_bad_hosts_are_refused_naming_the_value(hosts: object, named: str) -> None:
    with pytest.raises(DisplaySettingsError, match=r"display\.hosts") as err:
        DisplaySettings.from_mapping({"hosts": hosts})
    assert named in str(err.value)


def test_settings_made_in_a_program_are_checked_too() -> None:
    with pytest.raises(DisplaySettingsError, match=r"'evil\.example/'"):
        DisplaySettings(hosts=("table7.example", "evil.example/"))
    with pytest.raises(DisplaySettingsError, match="unknown key 'host'"):
        DisplaySettings.from_mapping({"host": ["table7.example"]})
