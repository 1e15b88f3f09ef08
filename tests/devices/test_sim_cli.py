"""The simulator's command-line faults (as processes) and ``paigow sim`` / ``devices probe``."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

import pytest

from controller.commands.devices import DeviceCommandError, add_parsers, cmd_probe
from firmware_interfaces.errors import DeviceFault
from firmware_interfaces.events import LINK_LOST
from firmware_interfaces.protocol.common import Cleared, Fault
from firmware_interfaces.shaker import ShakerDriver
from firmware_interfaces.shuffler import ShufflerDriver
from tests.devices.helpers import TIMING, SimProcess, Start, next_event


def paigow(*argv: str, timeout: float = 30) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "controller.commands.devices", *argv],
        capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL,
    )


@pytest.mark.parametrize(
    ("options", "count", "deck"),
    [(["--cards", "52"], 52, "missing"), (["--cards", "54"], 54, "extra"),
     (["--duplicate", "Jk"], 53, "duplicate"), (["--foreign"], 53, "foreign")],
)
def test_deck_faults_from_the_command_line(
    start_sim: Start, options: list[str], count: int, deck: str
) -> None:
    sim = start_sim("shuffler", "--seed", "1", *options)
    with ShufflerDriver.open(sim.url, timing=TIMING) as shuffler:
        result = shuffler.shuffle()
        assert (result.count, result.deck, result.ok) == (count, deck, False)


def test_jam_after_one_packet(start_sim: Start) -> None:
    sim = start_sim("shuffler", "--jam-after", "1", transport="tcp")
    with ShufflerDriver.open(sim.url, timing=TIMING) as shuffler:
        shuffler.shuffle()
        assert shuffler.deal().n == 1
        with pytest.raises(DeviceFault, match="jam"):
            shuffler.deal()


def test_a_model_that_does_not_read_cards(start_sim: Start) -> None:
    sim = start_sim("shuffler", "--no-read")
    with ShufflerDriver.open(sim.url, timing=TIMING) as shuffler:
        assert not shuffler.reads_cards and shuffler.hello.model == "PGS-7"
        shuffler.shuffle()
        packet = shuffler.deal()
        assert packet.cards is None and packet.count == 7


def test_noise_and_slow_answers_from_the_command_line(start_sim: Start) -> None:
    sim = start_sim("shuffler", "--garbage", "0.2", "--slow", "0.05", transport="tcp")
    with ShufflerDriver.open(sim.url, timing=TIMING) as shuffler:
        shuffler.shuffle()
        assert [shuffler.deal().n for _ in range(7)] == list(range(1, 8))
        assert shuffler.stats.garbage_bytes > 0


def test_drop_after_two_requests(start_sim: Start) -> None:
    sim = start_sim("shaker", "--drop-after", "2")
    with ShakerDriver.open(sim.url, timing=TIMING) as shaker:  # HELLO is the first request
        assert shaker.shake().game
        next_event(shaker, lambda e: e.record == Fault(LINK_LOST))
        next_event(shaker, lambda e: e.record == Cleared(LINK_LOST))
        assert shaker.shake().shake == 2


@pytest.mark.parametrize(
    ("options", "result"),
    [(["--cocked", "1"], "cocked"), (["--weak", "1"], "weak")],
)
def test_dice_faults_from_the_command_line(
    start_sim: Start, options: list[str], result: str
) -> None:
    sim = start_sim("shaker", "--seed", "2", *options)
    with ShakerDriver.open(sim.url, timing=TIMING) as shaker:
        assert shaker.shake().result == result
        assert shaker.shake().result == "ok"


def test_unchanged_dice_and_lid_open(start_sim: Start) -> None:
    sim = start_sim("shaker", "--unchanged", "1", "--lid-open")
    with ShakerDriver.open(sim.url, timing=TIMING) as shaker:
        assert shaker.status().state == "lid_open"
        with pytest.raises(DeviceFault, match="lid_open"):
            shaker.shake()
        shaker.control(lid="closed")
        first = shaker.shake()
        again = shaker.shake()
        assert (again.result, again.dice) == ("unchanged", first.dice)


def test_probe_prints_hello_and_status(start_sim: Start) -> None:
    sim = start_sim("shuffler", "--seed", "9", "--door-open")
    done = paigow("devices", "probe", sim.url, "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["hello"]["rng"] == "seeded" and report["hello"]["seed"] == 9
    assert report["hello"]["fw_hash"].startswith("sha256:")
    assert report["status"]["state"] == "door_open"
    text = paigow("devices", "probe", sim.url)
    assert text.returncode == 0 and "model    PGS-7R" in text.stdout
    assert "random   seeded (seed 9)" in text.stdout


def test_probe_a_silent_device_fails_in_one_line(start_sim: Start) -> None:
    sim = start_sim("shaker", "--silent-after", "0")
    done = paigow("devices", "probe", sim.url, "--timeout", "0.1")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1
    assert "no answer to HELLO after 3 tries" in done.stderr


def test_probe_a_missing_port_fails_in_one_line() -> None:
    done = paigow("devices", "probe", "/dev/no-such-port")
    assert done.returncode == 2 and done.stderr.startswith("paigow: error: cannot probe")
    assert done.stderr.count("\n") == 1


def test_probe_handler_raises_a_one_line_error() -> None:
    args = argparse.Namespace(url="socket://127.0.0.1:9", json=False, timeout=0.1)
    with pytest.raises(DeviceCommandError) as caught:
        cmd_probe(args)
    assert "\n" not in str(caught.value)


def test_paigow_sim_without_a_seed_uses_secrets_and_stops_cleanly() -> None:
    sim = SimProcess("shuffler", "pty", command=("controller.commands.devices", "sim"))
    try:
        done = paigow("devices", "probe", sim.url, "--json")
        assert json.loads(done.stdout)["hello"]["rng"] == "secrets"
        assert os.path.islink(sim.url)
    finally:
        status = sim.stop()
    assert status == 0 and not os.path.exists(sim.url)


def test_a_wrong_option_for_the_device_is_one_line() -> None:
    done = paigow("sim", "shaker", "--jam-after", "2")
    assert done.returncode == 2
    assert done.stderr == "paigow: error: sim shaker: --jam-after is not an option of the " \
        "shaker simulator\n"


def test_add_parsers_registers_both_commands() -> None:
    parser = argparse.ArgumentParser()
    add_parsers(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["sim", "shuffler", "--tcp", "127.0.0.1:0", "--seed", "4",
                              "--jam-after", "3", "--garbage", "0.2"])
    assert (args.device, args.tcp, args.seed, args.jam_after, args.garbage) == (
        "shuffler", "127.0.0.1:0", 4, 3, 0.2)
    assert callable(args.handler)
    args = parser.parse_args(["devices", "probe", "socket://127.0.0.1:4000", "--json"])
    assert args.handler is cmd_probe and args.json
