"""Banking rotation (rules.rotation): golden turns and cover checks cited to
docs/sources.md [D3]."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from controller.rules.errors import SettlementError
from controller.rules.rotation import (
    BankOffer,
    CoverError,
    TurnError,
    check_cover,
    in_turn,
    offer,
    turn_order,
)

GOLDEN = Path(__file__).parents[1] / "golden" / "profiles" / "rotation.txt"


def _rows(kind: str) -> list[list[str]]:
    rows = []
    for raw in GOLDEN.read_text(encoding="utf-8").splitlines():
        fields = [f.strip() for f in raw.split("|")]
        if fields[0] == kind:
            rows.append(fields[1:])
    return rows


def _opt(text: str) -> int | None:
    return None if text == "-" else int(text)


def _ints(text: str) -> tuple[int, ...]:
    return () if text == "-" else tuple(int(x) for x in text.split(","))


TURNS = _rows("turn")
COVERS = _rows("cover")


def test_the_golden_file_is_read() -> None:
    assert len(TURNS) >= 6 and len(COVERS) >= 4
    assert all(re.search(r"\[D[03]\] l\.", row[-1]) or "heads-up" in row[-1]
               for row in TURNS + COVERS)

@pytest.mark.parametrize("row", TURNS, ids=lambda r: "-".join(r[:3]))
def test_golden_turn(row: list[str]) -> None:
    last, positions, to, position, skipped, source = row
    made = offer(_opt(last), int(positions), _opt(to))
    assert made == BankOffer(int(position), _ints(skipped)), source
    if to == "-":
        assert in_turn(_opt(last), int(positions)) == int(position), source


@pytest.mark.parametrize("row", COVERS, ids=lambda r: "-".join(r[:3]))
def test_golden_cover(row: list[str]) -> None:
    bank, wagers, adding, expected, source = row
    add = None if adding == "-" else tuple(int(x) for x in adding.split(":"))
    if expected == "ok":
        check_cover(int(bank), _ints(wagers), adding=add)  # type: ignore[arg-type]
        return
    short = expected.split()[1]
    with pytest.raises(CoverError, match=rf"short by {short} cents") as info:
        check_cover(int(bank), _ints(wagers), adding=add)  # type: ignore[arg-type]
    assert str(bank) in str(info.value), source
    if add is not None:
        assert f"wager {add[1]} cents at position {add[0]}" in str(info.value)


@given(positions=st.sampled_from([2, 7, 8]), start=st.none() | st.integers(2, 8),
       rounds=st.integers(1, 30))
def test_every_player_is_offered_the_bank_once_per_turn_of_the_table(
        positions: int, start: int | None, rounds: int) -> None:
    last = start if start is None or start <= positions else positions
    offered = []
    for _ in range(rounds):
        last = offer(last, positions).position
        offered.append(last)
    players = positions - 1
    for i in range(0, len(offered) - players + 1):
        assert sorted(offered[i:i + players]) == list(range(2, positions + 1))
    assert set(turn_order(last, positions)) == set(range(2, positions + 1))


@given(bank=st.integers(1, 10**7), wagers=st.lists(st.integers(0, 10**6), max_size=7))
def test_a_bank_covers_exactly_when_it_holds_the_sum(bank: int, wagers: list[int]) -> None:
    if sum(wagers) <= bank:
        check_cover(bank, wagers)
    else:
        with pytest.raises(CoverError, match=f"short by {sum(wagers) - bank} cents"):
            check_cover(bank, wagers)


@pytest.mark.parametrize(("call", "named"), [
    (lambda: offer(None, 7, 1), "position 1 is not a player's position"),
    (lambda: offer(None, 7, 8), "position 8"),
    (lambda: offer(9, 7), "last offered position 9"),
    (lambda: in_turn(None, 1), "position count 1"),
    (lambda: check_cover(0, []), "bank 0"),
])
def test_bad_turns_and_banks_are_named(call: object, named: str) -> None:
    with pytest.raises((TurnError, CoverError), match=named) as info:
        call()  # type: ignore[operator]
    assert isinstance(info.value, SettlementError)
