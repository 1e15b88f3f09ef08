"""``paigow display --tls-cert FILE --tls-key FILE`` answers over HTTPS, with a self-signed
certificate made here by ``openssl``; half the pair, or a file that is no PEM, is one line."""

from __future__ import annotations

import os
import shutil
import ssl
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx2
import pytest

from tests.display.conftest import free_port

ROOT = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}

pytestmark = pytest.mark.skipif(shutil.which("openssl") is None, reason="no openssl command")


@pytest.fixture(scope="module")
def pair(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A self-signed certificate for 127.0.0.1 and localhost, and its key."""
    folder = tmp_path_factory.mktemp("tls")
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
                    "-keyout", str(key), "-out", str(cert), "-subj", "/CN=localhost",
                    "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"],
                   check=True, capture_output=True)
    return cert, key


def paigow(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "controller.cli", *argv], cwd=ROOT, env=ENV,
                          capture_output=True, text=True, timeout=60)


@pytest.fixture
def served(pair: tuple[Path, Path], tmp_path: Path) -> Iterator[tuple[str, str]]:
    """``paigow display`` over TLS; yields its https base URL and what it printed at start."""
    cert, key = pair
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "controller.cli", "display", "--journal", str(tmp_path / "t.db"),
         "--port", str(port), "--tls-cert", str(cert), "--tls-key", str(key)],
        stderr=subprocess.PIPE, text=True, env=ENV, cwd=ROOT)
    assert proc.stderr is not None
    try:
        first = ""
        while "dealer display on" not in first and proc.poll() is None:
            first = proc.stderr.readline()
        base = f"https://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        while True:
            assert proc.poll() is None, first
            assert time.monotonic() < deadline, "the display did not answer"
            try:
                httpx2.get(f"{base}/api/table", verify=ssl.create_default_context(
                    cafile=str(cert)), timeout=5)
                break
            except httpx2.TransportError:
                time.sleep(0.1)
        yield base, first
    finally:
        proc.terminate()
        proc.wait(20)


def test_the_display_answers_over_https(served: tuple[str, str],
                                        pair: tuple[Path, Path]) -> None:
    base, printed = served
    assert "dealer display on https://" in printed
    trusted = ssl.create_default_context(cafile=str(pair[0]))
    reply = httpx2.get(f"{base}/api/table", verify=trusted, timeout=10)
    assert reply.status_code == 200 and reply.headers["x-frame-options"] == "DENY"
    with pytest.raises(httpx2.TransportError):  # plain HTTP on the TLS port is no answer
        httpx2.get(base.replace("https:", "http:") + "/api/table", timeout=10)


def test_half_a_pair_or_a_bad_file_is_one_line(pair: tuple[Path, Path], tmp_path: Path) -> None:
    cert, key = pair
    journal = str(tmp_path / "t.db")
    half = paigow("display", "--journal", journal, "--port", str(free_port()),
                  "--tls-cert", str(cert))
    assert half.returncode == 2 and half.stderr.count("\n") == 1, half.stderr  # no traceback
    assert "--tls-cert and --tls-key go together" in half.stderr
    junk = tmp_path / "junk.pem"
    junk.write_text("not a certificate\n")
    bad = paigow("display", "--journal", journal, "--port", str(free_port()),
                 "--tls-cert", str(junk), "--tls-key", str(key))
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1, bad.stderr
    assert "is not a PEM file" in bad.stderr
    for command in ("demo", "run"):
        helped = paigow(command, "--help")
        assert "--tls-cert" in helped.stdout and "--allowed-host" in helped.stdout
