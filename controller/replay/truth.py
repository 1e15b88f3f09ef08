"""A synthetic recording's truth checked against a journal: did every round settle as it was
played, and did the camera read every setting?

``paigow sim record`` writes ``truth.jsonl`` beside the recording (one line a round: its id,
the bets, each position's setting as laid on the felt, the settlement the rules give for those
settings).  ``check_truth`` compares each round of a journal (the replay's own) with it:

- the settlement's net per position must be the truth's, and so must every setting it
  settled (the banker's and each bet's), order within a hand aside;
- a position counts as read when the camera's ``camera_read`` record names its setting;
  any other (unsure, or read otherwise) had its setting keyed by the dealer;
- the dice count as read when the camera's ``camera_dice`` record names the shaker's roll
  (in any order); other dice are a difference (the felt shows the shaker's).

A round the truth names but the journal did not settle is a difference.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import ControllerError
from ..journal import Record

TRUTH = "truth.jsonl"


class TruthError(ControllerError):
    """A truth file that cannot be read; the message names the line."""


@dataclass
class TruthCheck:
    """What the truth check found: rounds checked and settled as the truth says, positions
    read by the camera and keyed, the differences (in order)."""

    rounds: int = 0
    settled: int = 0
    positions: int = 0
    camera_read: int = 0
    dice_read: int = 0
    keyed: list[str] = field(default_factory=list)
    differences: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """Every round settled as its truth says."""
        return not self.differences

    def to_json(self) -> dict[str, Any]:
        """The ``truth`` object of ``paigow replay DIR --json``."""
        return {"rounds": self.rounds, "settled_as_truth": self.settled,
                "positions": self.positions, "camera_read": self.camera_read,
                "keyed": len(self.keyed), "dice_read": self.dice_read,
                "first_difference": self.differences[0] if self.differences else None}


def read_truth(folder: Path) -> list[Mapping[str, Any]] | None:
    """The truth lines of the recording in ``folder``, or None when it has none."""
    path = folder / TRUTH
    if not path.is_file():
        return None
    rounds: list[Mapping[str, Any]] = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        try:
            entry = json.loads(line)
            str(entry["round_id"]), dict(entry["settings"]), dict(entry["settlement"]["net"])
        except (ValueError, KeyError, TypeError) as err:
            raise TruthError(f"{path}:{number}: not a truth line ({err})") from err
        rounds.append(entry)
    return rounds


def check_truth(truth: Iterable[Mapping[str, Any]], records: Iterable[Record]) -> TruthCheck:
    """Each truth round against the journal's ``records`` (module docstring)."""
    by_round: dict[str, list[Record]] = {}
    for record in records:
        if record.round_id is not None:
            by_round.setdefault(record.round_id, []).append(record)
    found = TruthCheck()
    for entry in truth:
        found.rounds += 1
        round_id = str(entry["round_id"])
        settings = {int(p): hand_key(s) for p, s in dict(entry["settings"]).items()}
        kept = by_round.get(round_id, [])
        read = {int(r.payload()["position"]): r.payload().get("setting") for r in kept
                if r.kind == "camera_read"}
        for position, want in sorted(settings.items()):
            found.positions += 1
            seen = read.get(position)
            if seen is not None and hand_key(str(seen)) == want:
                found.camera_read += 1
            else:
                found.keyed.append(f"{round_id} position {position}")
        for dice in (r.payload() for r in kept if r.kind == "camera_dice"):
            if dice.get("dice") is None:
                continue
            if sorted(dice["dice"]) != sorted(dice["roll"]):
                found.differences.append(f"round {round_id}: the camera saw dice "
                                         f"{dice['dice']}, the shaker rolled {dice['roll']}")
            else:
                found.dice_read += 1
        settle = next((r.payload() for r in kept if r.kind == "settle"), None)
        if settle is None:
            found.differences.append(f"round {round_id}: not settled")
            continue
        difference = _settlement_difference(round_id, settle, entry["settlement"], settings)
        if difference is None:
            found.settled += 1
        else:
            found.differences.append(difference)
    return found


def hand_key(setting: str) -> tuple[tuple[str, ...], ...]:
    """A setting's text as its hands' pieces, each hand's sorted (``LOW / HIGH``)."""
    return tuple(tuple(sorted(half.split())) for half in setting.split("/"))


def _settlement_difference(round_id: str, settle: Mapping[str, Any],
                           truth: Mapping[str, Any],
                           settings: Mapping[int, tuple[tuple[str, ...], ...]]) -> str | None:
    net = {str(p): int(v) for p, v in dict(settle.get("net", {})).items()}
    want = {str(p): int(v) for p, v in dict(truth["net"]).items()}
    if net != want:
        return f"round {round_id}: settled {net}, the truth says {want}"
    used = {int(settle["banker"]): settle.get("banker_setting")} if "banker" in settle else {}
    for seat in settle.get("seats", []):
        used[int(seat["bet"]["position"])] = seat["comparison"].get("setting")
    for position, setting in sorted(used.items()):
        if not isinstance(setting, Mapping) or position not in settings:
            continue
        key = (tuple(sorted(setting["low"])), tuple(sorted(setting["high"])))
        if key != settings[position]:
            return (f"round {round_id}: position {position} settled as {setting}, the truth "
                    f"says {settings[position]}")
    return None


__all__ = ["TRUTH", "TruthCheck", "TruthError", "check_truth", "hand_key", "read_truth"]
