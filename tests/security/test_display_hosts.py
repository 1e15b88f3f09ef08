"""The Host check against DNS rebinding, on a real uvicorn: only the names the display was
started for are served, any other ``Host`` is 400 before the app sees the request."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from controller.display import create_app
from controller.display.guard import HostCheck
from tests.display.conftest import SETTINGS, make_app, serve


@pytest.fixture
def port(tmp_path: Path) -> Iterator[int]:
    """A display started for ``table.local`` (an ``--allowed-host``) on 127.0.0.1."""
    app = make_app(tmp_path / "t.db")
    table = app.state.table
    with serve(create_app(table, replace(SETTINGS, hosts=("127.0.0.1", "table.local")))) as url:
        yield int(url.rsplit(":", 1)[1])


def status_for(port: int, host: str | None) -> int:
    """The status of ``GET /api/table`` sent to 127.0.0.1 with ``host`` as its Host header
    (None: no Host header at all)."""
    head = "GET /api/table HTTP/1.1\r\n"
    if host is not None:
        head += f"Host: {host}\r\n"
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall((head + "Connection: close\r\n\r\n").encode())
        reply = b""
        while b"\r\n" not in reply:
            got = sock.recv(4096)
            if not got:
                break
            reply += got
    return int(reply.split()[1])


@pytest.mark.parametrize("host", ["127.0.0.1", "127.0.0.1:{port}", "localhost:{port}",
                                  "LOCALHOST", "[::1]:{port}", "table.local:{port}",
                                  "table.local."])
def test_the_names_it_was_started_for_are_served(port: int, host: str) -> None:
    assert status_for(port, host.format(port=port)) == 200


@pytest.mark.parametrize("host", ["evil.example", "evil.example:{port}", "127.0.0.1.evil.example",
                                  "localhost.evil.example", "10.0.0.7:{port}", "", None,
                                  "table.local@evil.example"])
def test_any_other_host_is_refused(port: int, host: str | None) -> None:
    assert status_for(port, None if host is None else host.format(port=port)) == 400


def test_bound_to_every_interface_an_address_is_served_but_no_other_name() -> None:
    check = HostCheck(["0.0.0.0"])
    assert check.allows("192.168.1.20:8000") and check.allows("[fe80::1]:8000")
    assert check.allows("localhost") and not check.allows("evil.example")
    assert not HostCheck(["127.0.0.1"]).allows("192.168.1.20")
    assert HostCheck(["table.local"]).allows("TABLE.local:443")
