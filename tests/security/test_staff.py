"""Item 8: the staff list and its sessions.  PINs are salted scrypt hashes, never stored or taken
on the command line; the staff file is validated once (unknown keys are errors) and written for
its owner only; the session store keeps token digests only, refuses a token one character off,
and ends sessions when idle or too old by an injected clock."""

from __future__ import annotations

import hashlib
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from controller.journal import Role
from controller.round import Who
from controller.staff import (
    PinHash,
    SessionRules,
    SessionStore,
    Staff,
    StaffError,
    Throttle,
    load_staff,
    save_staff,
)

ROOT = Path(__file__).resolve().parents[2]


class Clock:
    """A clock the test moves on."""

    def __init__(self) -> None:
        self.now = 50.0

    def __call__(self) -> float:
        return self.now


def test_a_pin_hash_round_trips_and_is_salted() -> None:
    one, two = PinHash.make("246810"), PinHash.make("246810")
    assert one.text() != two.text() and one.salt != two.salt  # salted: same PIN, other hash
    assert one.text().startswith("scrypt$16384$8$1$") and "246810" not in one.text()
    again = PinHash.parse(one.text())
    assert again == one and again.matches("246810") and two.matches("246810")
    assert not again.matches("246811") and not again.matches("")
    expected = hashlib.scrypt(b"246810", salt=one.salt, n=one.n, r=one.r, p=one.p,
                              maxmem=64 * 1024 * 1024, dklen=len(one.digest))
    assert expected == one.digest  # scrypt it is, not some other hash


@pytest.mark.parametrize("text", ["", "sha256$abc", "scrypt$16384$8$1$c2FsdA==",
                                  "scrypt$1000$8$1$c2FsdHNhbHQ=$aGFzaGhhc2hoYXNoaGFzaA==",
                                  "scrypt$16384$8$1$!!$aGFzaA==",
                                  "scrypt$1048576$64$1$c2FsdHNhbHQ=$aGFzaGhhc2hoYXNoaGFzaA=="])
def test_a_bad_pin_hash_is_refused_by_name(text: str) -> None:
    with pytest.raises(StaffError, match="PIN hash"):
        PinHash.parse(text)


def test_short_or_spaced_pins_are_refused_without_repeating_them() -> None:
    for pin in ("12345", " 123456", "x" * 65):
        with pytest.raises(StaffError) as err:
            PinHash.make(pin)
        assert pin.strip() not in str(err.value)


def _entry(**changes: object) -> dict[str, object]:
    entry: dict[str, object] = {"id": "ann", "name": "Ann", "role": "dealer",
                                "pin": PinHash.make("246810").text()}
    entry.update(changes)
    return {key: value for key, value in entry.items() if value is not None}


@pytest.mark.parametrize(("data", "message"), [
    ({"staff": [_entry()], "colour": 1}, "unknown key 'colour'"),
    ({"staff": [_entry(badge=7)]}, "unknown key 'badge'"),
    ({"staff": [_entry(pin=None)]}, "missing key 'pin'"),
    ({"staff": [_entry(role="device")]}, "role 'device'"),
    ({"staff": [_entry(id="Ann Lee")]}, "staff id 'Ann Lee'"),
    ({"staff": [_entry(), _entry()]}, "'ann' appears twice"),
    ({"sessions": {"idle_minutes": 0}}, "idle_minutes must be a number > 0"),
    ({"sessions": {"idle_minutes": 90, "max_hours": 1}}, "no longer than"),
    ({"sessions": {"forever": True}}, "unknown key 'forever' in \\[sessions\\]"),
])
def test_the_staff_file_is_validated_once(data: dict[str, object], message: str) -> None:
    with pytest.raises(StaffError, match=message):
        Staff.from_mapping(data, "staff.toml")


def test_the_staff_file_round_trips_and_is_for_its_owner_only(tmp_path: Path) -> None:
    staff = Staff.from_mapping({"sessions": {"idle_minutes": 20, "max_hours": 8},
                                "staff": [_entry(name='Ann "A" Lee')]})
    path = tmp_path / "staff.toml"
    save_staff(staff, path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    again = load_staff(path)
    assert again == staff and again.sessions == SessionRules(20 * 60, 8 * 3600)
    path.write_bytes(b"\xff\xfe[[staff]]")
    with pytest.raises(StaffError, match="not UTF-8"):
        load_staff(path)


def _paigow(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "controller.cli", *args], input=stdin,
                          capture_output=True, text=True, cwd=ROOT, timeout=60,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})


def test_paigow_staff_adds_lists_and_removes_without_a_pin_on_the_command_line(
        tmp_path: Path) -> None:
    file = str(tmp_path / "staff.toml")
    added = _paigow("staff", "add", "--file", file, "--id", "ann", "--name", "Ann Lee",
                    "--role", "dealer", "--pin-stdin", stdin="246810\n")
    assert added.returncode == 0, added.stderr
    assert "246810" not in Path(file).read_text() and "246810" not in added.stdout
    assert load_staff(file).members["ann"].pin.matches("246810")
    listed = _paigow("staff", "list", "--file", file)
    assert "ann" in listed.stdout and "Ann Lee" in listed.stdout and "scrypt" not in listed.stdout
    no_terminal = _paigow("staff", "add", "--file", file, "--id", "bob", "--name", "Bob",
                          "--role", "dealer")
    assert no_terminal.returncode == 2
    assert no_terminal.stderr.startswith("paigow: error: no terminal to ask the PIN on")
    again = _paigow("staff", "add", "--file", file, "--id", "ann", "--name", "A",
                    "--role", "dealer", "--pin-stdin", stdin="135791\n")
    assert again.returncode == 2 and "already on" in again.stderr
    assert _paigow("staff", "pin", "--file", file, "--id", "ann", "--pin-stdin",
                   stdin="135791\n").returncode == 0
    assert load_staff(file).members["ann"].pin.matches("135791")
    assert _paigow("staff", "remove", "--file", file, "--id", "ann").returncode == 0
    assert load_staff(file).members == {}
    missing = _paigow("staff", "remove", "--file", file, "--id", "ann")
    assert missing.returncode == 2 and missing.stderr.count("\n") == 1


def test_the_store_keeps_only_token_digests() -> None:
    store = SessionStore()
    token, relieved = store.open(Who("ann", Role.DEALER))
    assert relieved == [] and len(token) >= 40
    assert store.keys() == [hashlib.sha256(token.encode()).hexdigest()]
    assert token not in repr(store.__dict__)
    assert store.who(token) == Who("ann", Role.DEALER)
    for forged in (token[:-1] + ("A" if token[-1] != "A" else "B"), token[:-1], token + "x",
                   "", hashlib.sha256(token.encode()).hexdigest()):
        assert store.who(forged) is None


def test_sessions_end_when_idle_or_too_old() -> None:
    clock = Clock()
    store = SessionStore(SessionRules(idle=60, longest=300), clock)
    token, _ = store.open(Who("sue", Role.SUPERVISOR))
    for _ in range(5):  # used every 59 s: never idle
        clock.now += 59
        assert store.who(token) is not None
    clock.now += 59  # 354 s old
    assert store.who(token) is None
    assert [(e.who.actor, e.reason) for e in store.expired()] == [("sue", "expired (longest)")]
    token, _ = store.open(Who("sue", Role.SUPERVISOR))
    clock.now += 60
    assert store.who(token) is None
    assert [e.reason for e in store.expired()] == ["expired (idle)"] and store.keys() == []


def test_a_dealer_relieves_the_dealer_on_duty_supervisors_stay() -> None:
    store = SessionStore()
    ann, _ = store.open(Who("ann", Role.DEALER))
    sue, _ = store.open(Who("sue", Role.SUPERVISOR))
    bob, relieved = store.open(Who("bob", Role.DEALER))
    assert [(e.who.actor, e.reason) for e in relieved] == [("ann", "relieved by bob")]
    assert store.who(ann) is None and store.who(sue) is not None and store.who(bob) is not None
    assert store.on_duty(Role.DEALER) == [Who("bob", Role.DEALER)]


def test_the_throttle_counts_wrong_pins_per_id() -> None:
    clock = Clock()
    throttle = Throttle(clock, failures=3, lockout=30)
    for _ in range(3):
        assert throttle.wait("zed") == 0
        throttle.failed("zed")
    assert throttle.wait("zed") == 30 and throttle.wait("ann") == 0
    clock.now += 30
    assert throttle.wait("zed") == 0
    throttle.failed("zed")  # a fresh run after the lockout
    assert throttle.wait("zed") == 0
    throttle.passed("zed")
