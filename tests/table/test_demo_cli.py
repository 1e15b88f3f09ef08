"""``paigow demo`` and ``paigow run`` as their own processes: rounds, summary, journal, display."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from controller.journal import open_journal

from .conftest import SIM_TABLE, _assets

ROOT = Path(__file__).resolve().parents[2]
ROUND_LINE = re.compile(r"^(r\d{6}) (poker|tiles) ")


def paigow(*argv: str, timeout: float = 240) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "controller.cli", *argv], cwd=ROOT,
                          capture_output=True, text=True, timeout=timeout, check=False)


@pytest.fixture(autouse=True)
def _artwork() -> None:
    if not _assets():
        pytest.skip("card artwork missing and scripts/test_assets.sh failed (no network?)")


@pytest.mark.parametrize(("game", "seed", "profile"), [
    ("poker", 31, None), ("tiles", 32, None),
    # the home, rotation and heads-up tables
    ("poker", 33, "home"), ("poker", 34, "rotation"), ("poker", 35, "heads-up"),
    ("tiles", 36, "tiles-heads-up"),
])
def test_demo_plays_n_rounds_and_its_journal_verifies_and_replays(
        game: str, seed: int, profile: str | None, tmp_path: Path) -> None:
    journal = tmp_path / "demo.sqlite"
    chosen = [] if profile is None else ["--profile", profile]
    done = paigow("demo", "--game", game, "--rounds", "3", "--no-display", "--seed", str(seed),
                  "--journal", str(journal), *chosen)
    assert done.returncode == 0, done.stderr
    ids = [m.group(1) for line in done.stdout.splitlines() if (m := ROUND_LINE.match(line))]
    assert len(ids) == 3
    assert "3 round(s): " in done.stdout and f"randomness: seeded {seed}" in done.stdout
    assert re.search(r"house net [+-]\d+\.\d\d, commission \d+\.\d\d", done.stdout)
    verify = paigow("journal", "verify", str(journal))
    assert verify.returncode == 0 and "ok" in verify.stdout, verify.stdout + verify.stderr
    stored = open_journal(journal)
    try:
        closed = [r.round_id for r in stored.records()
                  if r.kind in ("settle", "round_voided")]
        assert closed == ids
        draws = {str(r.randomness) for r in stored.records() if r.randomness is not None}
        assert draws == {f"seeded:{seed}"}
        if profile is not None:
            opened = [r.payload() for r in stored.records() if r.kind == "round_opened"]
            assert [o["profile"] for o in opened] == [profile] * 3
    finally:
        stored.close()
    replay = paigow("replay", str(journal))
    assert replay.returncode == 0, replay.stdout + replay.stderr
    assert replay.stdout.count(": same") == 3


def test_a_seeded_demo_is_repeatable(tmp_path: Path) -> None:
    played = []
    for name in ("a", "b"):
        journal = tmp_path / f"{name}.sqlite"
        done = paigow("demo", "--game", "tiles", "--rounds", "2", "--no-display", "--seed", "41",
                      "--deviation-rate", "0.5", "--journal", str(journal))
        assert done.returncode == 0, done.stderr
        stored = open_journal(journal)
        try:
            played.append([(r.kind, r.event, r.actor) for r in stored.records()])
        finally:
            stored.close()
    assert played[0] == played[1] and len(played[0]) > 20


def test_unseeded_demo_draws_from_secrets(tmp_path: Path) -> None:
    journal = tmp_path / "demo.sqlite"
    done = paigow("demo", "--game", "tiles", "--rounds", "1", "--no-display",
                  "--journal", str(journal))
    assert done.returncode == 0, done.stderr
    assert "randomness: secrets" in done.stdout
    stored = open_journal(journal)
    try:
        assert {str(r.randomness) for r in stored.records() if r.randomness} == {"secrets"}
    finally:
        stored.close()


def test_the_display_shows_the_rounds_played(tmp_path: Path) -> None:
    cmd = [sys.executable, "-m", "controller.cli", "demo", "--rounds", "2", "--seed", "33",
           "--port", "0", "--pace", "0", "--linger", "--journal", str(tmp_path / "j.sqlite")]
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    try:
        assert proc.stdout is not None
        lines: list[str] = []
        for line in proc.stdout:
            lines.append(line.rstrip("\n"))
            if line.startswith("display stays up"):
                break
        text = "\n".join(lines)
        url = re.search(r"dealer display: (http://127\.0\.0\.1:\d+/)", text)
        assert url, text
        # demo only: its made-up staff signed in, their PINs and tokens printed
        dealer = re.search(r"dealer demo-dealer \(PIN \d{6}\) token: (\S{40,})", text)
        assert dealer and re.search(r"supervisor demo-supervisor \(PIN \d{6}\) token: \S{40,}",
                                    text), text
        asked = urllib.request.Request(url.group(1) + "api/operator",
                                       headers={"Authorization": f"Bearer {dealer.group(1)}"})
        with urllib.request.urlopen(asked, timeout=10) as reply:
            assert json.load(reply)["actor"] == "demo-dealer"
        ids = [m.group(1) for line in lines if (m := ROUND_LINE.match(line))]
        with urllib.request.urlopen(url.group(1) + "api/rounds?last=10", timeout=10) as reply:
            rounds = json.load(reply)["rounds"]
        settled = [line.split()[0] for line in lines
                   if ROUND_LINE.match(line) and "VOID" not in line]
        assert len(ids) == 2 and [r["round_id"] for r in rounds] == settled[::-1]
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=30)
        assert proc.returncode == 0, err
        with open_journal(tmp_path / "j.sqlite") as journal:  # the acts are the signed-in staff's
            opened = journal.records_of_kind("round_opened")
            assert {r.actor for r in opened} == {"demo-dealer"}
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()


def test_run_with_a_bad_table_file_stops_at_start_naming_the_key(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text(SIM_TABLE.read_text().replace("[shaker]\n", "[shaker]\ncolour = 'red'\n"))
    done = paigow("run", "--table", str(bad), "--rounds", "1", "--no-display",
                  "--journal", str(tmp_path / "j.sqlite"))
    assert done.returncode == 2
    assert done.stderr.startswith("paigow: error: ") and done.stderr.count("\n") == 1
    assert "'colour'" in done.stderr and "[shaker]" in done.stderr
    missing = paigow("run", "--table", str(tmp_path / "nope.toml"), "--no-display",
                     "--journal", str(tmp_path / "j.sqlite"))
    assert missing.returncode == 2 and "nope.toml" in missing.stderr
    assert not (tmp_path / "j.sqlite").exists()
    profile = tmp_path / "odd.toml"
    profile.write_text("colour = 'red'\n" + (ROOT / "config" / "profiles" / "classic.toml")
                       .read_text().replace('name = "classic"', 'name = "odd"'))
    odd = paigow("run", "--table", str(SIM_TABLE), "--profile", str(profile), "--no-display",
                 "--journal", str(tmp_path / "j.sqlite"))
    assert odd.returncode == 2 and "unknown key 'colour'" in odd.stderr, odd.stderr
    assert not (tmp_path / "j.sqlite").exists()
    real = tmp_path / "real.toml"  # a real shuffler on a machine without GPIO (this one)
    real.write_text(SIM_TABLE.read_text().replace('"sim://shuffler"', '"/dev/ttyUSB9"'))
    keyless = paigow("run", "--table", str(real), "--no-display",
                     "--journal", str(tmp_path / "j.sqlite"))
    assert keyless.returncode == 2 and "[shuffler] names no hello key" in keyless.stderr
    key = tmp_path / "shuffler.key"
    key.write_text("ab" * 32 + "\n")
    key.chmod(0o600)
    real.write_text(SIM_TABLE.read_text().replace(
        '"sim://shuffler"', f'"/dev/ttyUSB9"\nkey_file = "{key}"'))
    no_gpio = paigow("run", "--table", str(real), "--no-display",
                     "--journal", str(tmp_path / "j.sqlite"))
    assert no_gpio.returncode == 2  # on a Pi: the port that is not there
    assert "no GPIO pin factory" in no_gpio.stderr or "ttyUSB9" in no_gpio.stderr


@pytest.mark.parametrize(("option", "named"), [
    (["--deviation-rate", "2"], "'2'"),
    (["--rounds", "0"], "'0'"),
    (["--profile", "nosuch"], "'nosuch'"),
    (["--game", "tiles", "--profile", "classic"], "classic"),
])
def test_bad_options_exit_2_naming_the_value(option: list[str], named: str,
                                             tmp_path: Path) -> None:
    done = paigow("demo", "--no-display", "--rounds", "1", *option,
                  "--journal", str(tmp_path / "j.sqlite"), timeout=60)
    assert done.returncode == 2, done.stdout
    assert done.stderr.startswith("paigow: error: ") and named in done.stderr
    assert not (tmp_path / "j.sqlite").exists()
