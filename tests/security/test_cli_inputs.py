"""Issue 30 item 10 (first part): hostile files and ports on the command line.

A file that is not UTF-8, JSON or TOML nested 100,000 deep, or a PNG whose header claims 10^10
pixels, given to any command that reads it, ends in exit 2 and one ``paigow: error:`` line
naming the file, never a traceback.  ``--port 99999`` is refused when the arguments are
parsed; a port in use is one line naming it, before anything starts.
"""

from __future__ import annotations

import socket
import struct
import subprocess
import sys
import zlib
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.cli_run import run

ROOT = Path(__file__).resolve().parents[2]
SIM_TABLE = ROOT / "config" / "tables" / "sim-table.toml"


def _chunk(kind: bytes, data: bytes) -> bytes:
    return (struct.pack(">I", len(data)) + kind + data
            + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))


def bomb_png(path: Path, width: int = 100_000, height: int = 100_000) -> Path:
    """A valid-looking PNG of a few dozen bytes whose header claims ``width * height`` pixels."""
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", header)
                     + _chunk(b"IDAT", zlib.compress(b"\0" * 1024)) + _chunk(b"IEND", b""))
    return path


@pytest.fixture
def latin(tmp_path: Path) -> Path:
    """A file in Latin-1, not UTF-8 (a hand list, a round, a table or staff file alike)."""
    path = tmp_path / "latin1.toml"
    path.write_bytes("# Sp\xe9cial\nname = 'caf\xe9'\n".encode("latin-1"))
    return path


@pytest.fixture
def deep_json(tmp_path: Path) -> Path:
    """JSON nested 100,000 arrays deep."""
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000)
    return path


@pytest.fixture
def deep_toml(tmp_path: Path) -> Path:
    """TOML with an array nested 100,000 deep."""
    path = tmp_path / "deep.toml"
    path.write_text("name = " + "[" * 100_000 + "]" * 100_000 + "\n")
    return path


def free_port() -> int:
    """A port nothing listens on now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    return port


@pytest.fixture
def taken_port() -> Iterator[int]:
    """A port another socket is listening on for the test's length."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen()
        yield sock.getsockname()[1]


def one_line(err: str, *names: str) -> str:
    """The single ``paigow: error:`` line of ``err``, checked to name each of ``names``."""
    assert "Traceback" not in err
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("paigow: error: "), err
    for name in names:
        assert name in lines[0], (name, err)
    return lines[0]


def test_a_round_file_not_utf8_or_nested_too_deep(capsys: pytest.CaptureFixture[str],
                                                  latin: Path, deep_json: Path) -> None:
    code, _, err = run(capsys, "settle", str(latin))
    assert code == 2 and "not UTF-8" in one_line(err, str(latin))
    code, _, err = run(capsys, "settle", str(deep_json))
    assert code == 2 and "nested too deeply" in one_line(err, str(deep_json))
    code, _, err = run(capsys, "settle", "--json", str(deep_json))
    assert code == 2 and "nested too deeply" in one_line(err, str(deep_json))


@pytest.mark.parametrize("argv", [("set", "poker"), ("set", "tiles"), ("compare", "poker"),
                                  ("compare", "tiles")])
def test_a_hand_file_not_utf8(capsys: pytest.CaptureFixture[str], latin: Path,
                              argv: tuple[str, str]) -> None:
    code, _, err = run(capsys, *argv, "--file", str(latin))
    assert code == 2 and "not UTF-8" in one_line(err, str(latin))


def test_a_profile_file_not_utf8_or_too_deep(capsys: pytest.CaptureFixture[str], latin: Path,
                                             deep_toml: Path) -> None:
    code, _, err = run(capsys, "set", "poker", "--profile", str(latin),
                       "As", "Kd", "Qh", "Jc", "9s", "5d", "2c")
    assert code == 2 and "not UTF-8" in one_line(err, str(latin))
    code, _, err = run(capsys, "set", "poker", "--profile", str(deep_toml),
                       "As", "Kd", "Qh", "Jc", "9s", "5d", "2c")
    assert code == 2 and "nested too deeply" in one_line(err, str(deep_toml))


def test_a_table_file_not_utf8_or_too_deep(capsys: pytest.CaptureFixture[str], latin: Path,
                                           deep_toml: Path) -> None:
    for bad, why in ((latin, "not UTF-8"), (deep_toml, "nested too deeply")):
        code, _, err = run(capsys, "run", "--table", str(bad), "--rounds", "1",
                           "--no-display")
        assert code == 2 and why in one_line(err, str(bad))


def test_a_staff_file_not_utf8(capsys: pytest.CaptureFixture[str], latin: Path,
                               tmp_path: Path) -> None:
    """``display --tokens`` became ``--staff``: the file it reads is refused in one line."""
    code, _, err = run(capsys, "display", "--journal", str(tmp_path / "j.db"),
                       "--port", str(free_port()), "--staff", str(latin))
    assert code == 2 and "UTF-8" in one_line(err, str(latin))


def test_a_layout_file_not_utf8(capsys: pytest.CaptureFixture[str], latin: Path,
                                tmp_path: Path) -> None:
    image = tmp_path / "frame.png"
    image.write_bytes(b"")  # never read: the layout is refused first
    code, _, err = run(capsys, "vision", "read", "--game", "tiles", "--layout", str(latin),
                       str(image))
    assert code == 2 and "not UTF-8" in one_line(err, str(latin))


def test_an_image_claiming_ten_billion_pixels(capsys: pytest.CaptureFixture[str],
                                              tmp_path: Path) -> None:
    bomb = bomb_png(tmp_path / "bomb.png")
    code, _, err = run(capsys, "vision", "read", "--game", "tiles", str(bomb))
    assert code == 2 and "100000x100000" in one_line(err, str(bomb))
    faces = tmp_path / "faces"
    faces.mkdir()
    face = bomb_png(faces / "As.png")
    code, _, err = run(capsys, "vision", "calibrate", "cards", str(faces),
                       "--out", str(tmp_path / "deck.npz"))
    assert code == 2 and "100000x100000" in one_line(err, str(face))


def test_an_image_just_over_the_limit_is_refused_unread(tmp_path: Path) -> None:
    """The header is read before any decoding: 9,000 x 9,000 is over the limit, refused."""
    from vision.errors import ImageError
    from vision.image_size import MAX_IMAGE_PIXELS
    from vision.sources import read_image

    assert MAX_IMAGE_PIXELS < 9_000 * 9_000
    with pytest.raises(ImageError, match="claims 9000x9000"):
        read_image(bomb_png(tmp_path / "big.png", 9_000, 9_000))


def paigow(*argv: str) -> tuple[int, str]:
    """``paigow ARGV`` in its own process (a server that wrongly starts is killed by the
    timeout, failing the test, instead of hanging it): exit status and standard error."""
    done = subprocess.run([sys.executable, "-m", "controller.cli", *argv], cwd=ROOT,
                          capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    return done.returncode, done.stderr


@pytest.mark.parametrize("argv", [
    ("display", "--journal", "j.db", "--port", "99999"),
    ("demo", "--no-display", "--port", "99999"),
    ("run", "--table", str(SIM_TABLE), "--port", "99999"),
    ("sim", "shuffler", "--tcp", "127.0.0.1:99999"),
])
def test_a_port_out_of_range_is_refused_when_parsed(argv: tuple[str, ...]) -> None:
    code, err = paigow(*argv)
    assert code == 2 and "99999" in one_line(err)


@pytest.mark.parametrize("argv", [
    ("display", "--journal", "{tmp}/j.db", "--port", "{port}"),
    ("demo", "--game", "tiles", "--rounds", "1", "--journal", "{tmp}/j.db", "--port", "{port}"),
    ("run", "--table", str(SIM_TABLE), "--rounds", "1", "--journal", "{tmp}/j.db",
     "--port", "{port}"),
    ("sim", "shuffler", "--tcp", "127.0.0.1:{port}"),
])
def test_a_port_in_use_is_one_line(capsys: pytest.CaptureFixture[str], taken_port: int,
                                   tmp_path: Path, argv: tuple[str, ...]) -> None:
    args = [a.format(tmp=tmp_path, port=taken_port) for a in argv]
    code, _, err = run(capsys, *args)
    line = one_line(err, f"port {taken_port} on 127.0.0.1 is in use")
    assert code == 2, line
    assert not (tmp_path / "j.db").exists()  # refused before the journal was made


def test_the_real_command_says_a_port_in_use_in_one_line(taken_port: int,
                                                         tmp_path: Path) -> None:
    """The console script in its own process: no server log lines, no traceback."""
    code, err = paigow("display", "--journal", str(tmp_path / "j.db"), "--port",
                       str(taken_port))
    assert code == 2
    assert err == f"paigow: error: port {taken_port} on 127.0.0.1 is in use\n"
