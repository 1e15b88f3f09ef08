"""Issue 30 item 9: a device's identity is proved by a challenge-response, not taken on its word.

Before the fix a line replaying the simulator's hello was accepted. Now the host sends a fresh
nonce in each HELLO and the device answers with HMAC-SHA256 under its key (named in the table
file); a copied hello carries the MAC of another nonce and is refused. Real simulator processes
over ptys; the copier is a real pty that replays a recorded IDENT.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from controller.simulation.table import open_simulated_table
from controller.table import TableConfigError, TableDeviceError
from firmware_interfaces.errors import DeviceConfigError, DeviceRefused
from firmware_interfaces.gpio import mock_factory
from firmware_interfaces.identity import Expected
from firmware_interfaces.protocol.challenge import hello_mac
from firmware_interfaces.protocol.frame import Frame, Kind, encode
from firmware_interfaces.protocol.records import encode_record
from firmware_interfaces.protocol.stream import StreamDecoder
from firmware_interfaces.shaker import ShakerDriver
from firmware_interfaces.sim.base import firmware_hash
from firmware_interfaces.sim.channels import PtyListener
from firmware_interfaces.sim.shuffler import ShufflerSim
from firmware_interfaces.table_config import parse_table
from tests.devices.helpers import TIMING, SimProcess
from tests.devices.test_golden_frames import cases, parse_hex
from tests.table.conftest import SIM_TABLE

TEST_KEY = bytes(range(32))  # the key of the golden frames: 00 01 02 .. 1f
PANEL = SIM_TABLE.read_text().split("[shuffler]")[0]


def _key_file(tmp_path: Path, key: bytes, name: str = "shaker.key") -> Path:
    path = tmp_path / name
    path.write_text(key.hex() + "\n")
    path.chmod(0o600)
    return path


# --- the exchange byte for byte -------------------------------------------------------------


def test_golden_hello_and_its_answer_byte_for_byte() -> None:
    frames = {Frame.parse(c["frame"]).kind: (Frame.parse(c["frame"]), parse_hex(c["bytes"]))
              for c in cases("link.txt") if "HELLO" in c["frame"] or "IDENT" in c["frame"]}
    hello, hello_wire = frames[Kind.REQUEST]
    ident, ident_wire = frames[Kind.REPLY]
    nonce = dict(f.split("=") for f in hello.payload.decode().split()[1:])["nonce"]
    assert encode(hello) == hello_wire and encode(ident) == ident_wire
    # HMAC-SHA256(key, nonce's 16 bytes || the IDENT payload before " mac="), from the bytes
    signed, _, mac = ident.payload.rpartition(b" mac=")
    expected = hmac.new(TEST_KEY, bytes.fromhex(nonce) + signed, hashlib.sha256).hexdigest()
    assert mac.decode() == expected
    # the simulator with that key (seed 11) answers that nonce with exactly these bytes
    device = ShufflerSim(11)
    device.key = TEST_KEY
    assert device.ident.fw_hash == firmware_hash("PGS-7R")
    answer = encode(Frame(Kind.REPLY, 1, encode_record(device.hello(nonce))))
    assert answer == ident_wire
    # the same answer does not answer another nonce
    assert hello_mac(TEST_KEY, "ff" * 16, device.ident) != expected


# --- a copied hello, over ptys --------------------------------------------------------------


@pytest.fixture
def keyed_shaker(tmp_path: Path) -> Iterator[tuple[SimProcess, bytes]]:
    key = os.urandom(32)
    sim = SimProcess("shaker", "pty", "--key-file", str(_key_file(tmp_path, key)))
    try:
        yield sim, key
    finally:
        sim.stop()


@pytest.fixture
def copier(keyed_shaker: tuple[SimProcess, bytes]) -> Iterator[str]:
    """A pty that answers every request with the shaker's hello as recorded once."""
    sim, key = keyed_shaker
    with ShakerDriver.open(sim.url, Expected("shaker", key=key), timing=TIMING) as shaker:
        recorded = encode_record(shaker.hello)  # a genuine answer, to an old nonce
    listener = PtyListener()
    stop = threading.Event()

    def replay() -> None:
        channel = listener.accept(0.1)
        assert channel is not None
        decoder = StreamDecoder()
        while not stop.is_set():
            for item in decoder.feed(channel.recv(0.02)):
                if isinstance(item, Frame) and item.kind is Kind.REQUEST:
                    channel.send(encode(Frame(Kind.ACK, item.seq))
                                 + encode(Frame(Kind.REPLY, item.seq, recorded)))

    thread = threading.Thread(target=replay, daemon=True)
    thread.start()
    try:
        yield listener.url
    finally:
        stop.set()
        thread.join(5)
        listener.close()


def test_the_keyed_simulator_is_accepted(keyed_shaker: tuple[SimProcess, bytes]) -> None:
    sim, key = keyed_shaker
    with ShakerDriver.open(sim.url, Expected("shaker", key=key), timing=TIMING) as shaker:
        assert shaker.hello.mac is not None and shaker.shake().shake == 1


def test_a_copied_hello_is_refused_naming_the_device(copier: str) -> None:
    with pytest.raises(DeviceRefused) as refused:
        ShakerDriver.open(copier, Expected("shaker", key=os.urandom(32)), timing=TIMING)
    message = str(refused.value)
    assert "\n" not in message and "shaker SIM-" in message and "challenge" in message


def test_a_copied_hello_is_refused_even_with_the_right_key(
        copier: str, keyed_shaker: tuple[SimProcess, bytes]) -> None:
    _, key = keyed_shaker
    with pytest.raises(DeviceRefused, match="wrong answer to the hello's challenge"):
        ShakerDriver.open(copier, Expected("shaker", key=key), timing=TIMING)


def test_a_table_refuses_the_copier_at_start_up_in_one_line(
        tmp_path: Path, copier: str, keyed_shaker: tuple[SimProcess, bytes]) -> None:
    _, key = keyed_shaker
    path = tmp_path / "table.toml"
    path.write_text(PANEL + f'[shaker]\nurl = "{copier}"\nallow_seeded = true\n'
                            f'key_file = "{_key_file(tmp_path, key)}"\n')
    with pytest.raises(TableDeviceError) as refused:
        open_simulated_table(path, "tiles", pin_factory=mock_factory(), timing=TIMING)
    assert "\n" not in str(refused.value) and "[shaker]" in str(refused.value)


def test_probe_with_the_key_refuses_the_copier_in_one_line(
        tmp_path: Path, copier: str, keyed_shaker: tuple[SimProcess, bytes]) -> None:
    sim, key = keyed_shaker
    key_file = _key_file(tmp_path, key)
    run = [sys.executable, "-m", "controller.commands.devices", "devices", "probe"]
    good = subprocess.run([*run, sim.url, "--key-file", str(key_file)], capture_output=True,
                          text=True, timeout=60)
    assert good.returncode == 0 and "identity checked" in good.stdout.replace("  ", " ")
    bad = subprocess.run([*run, copier, "--key-file", str(key_file)], capture_output=True,
                         text=True, timeout=60)
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "challenge" in bad.stderr


# --- the key in the table file --------------------------------------------------------------


def test_a_real_device_must_name_its_key(tmp_path: Path) -> None:
    with pytest.raises(DeviceConfigError, match=r"\[shaker\] names no hello key"):
        parse_table(PANEL + '[shaker]\nurl = "/dev/ttyUSB0"\n', "t.toml")


def test_a_key_inline_in_the_table_file_is_an_unknown_key() -> None:
    with pytest.raises(DeviceConfigError, match="unknown key 'key'"):
        parse_table(PANEL + f'[shaker]\nurl = "/dev/ttyUSB0"\nkey = "{"00" * 32}"\n', "t.toml")


def test_a_key_file_others_may_read_is_refused(tmp_path: Path) -> None:
    path = _key_file(tmp_path, os.urandom(32))
    path.chmod(0o644)
    with pytest.raises(DeviceConfigError, match="may be read by others"):
        parse_table(PANEL + f'[shaker]\nurl = "/dev/ttyUSB0"\nkey_file = "{path}"\n', "t.toml")


def test_a_key_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    text = PANEL + '[shaker]\nurl = "/dev/ttyUSB0"\nkey_env = "PAIGOW_TEST_SHAKER_KEY"\n'
    with pytest.raises(DeviceConfigError, match=r"'PAIGOW_TEST_SHAKER_KEY'.* not set"):
        parse_table(text, "t.toml")
    monkeypatch.setenv("PAIGOW_TEST_SHAKER_KEY", "zz")
    with pytest.raises(DeviceConfigError, match="32 to 128 hex digits"):
        parse_table(text, "t.toml")
    monkeypatch.setenv("PAIGOW_TEST_SHAKER_KEY", TEST_KEY.hex())
    shaker = parse_table(text, "t.toml").shaker
    assert shaker is not None and shaker.expected.key == TEST_KEY
    assert TEST_KEY.hex() not in repr(shaker)  # the key never shows in a repr


def test_the_sim_table_needs_no_setup_and_its_simulators_answer_the_challenge() -> None:
    with open_simulated_table(SIM_TABLE, "tiles", seed=3, timing=TIMING) as devices:
        assert devices.dice.driver.hello.mac is not None  # a throwaway key, made by the host
        assert devices.dice.roll().faces is not None


def test_the_table_error_is_a_table_config_error_for_a_bad_key(tmp_path: Path) -> None:
    path = tmp_path / "table.toml"
    path.write_text(PANEL + '[shaker]\nurl = "sim://shaker"\nkey_file = "missing.key"\n')
    with pytest.raises(TableConfigError, match=r"missing\.key"):
        open_simulated_table(path, "tiles")
