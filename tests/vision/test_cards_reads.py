"""Making a frame's reads one per card (``reads``): two names close together, one name at two
places, a name outvoted at its card's place, card sizes, names given in step and by the
fine cut, and indices laid as a spread lays them. Reads are made by hand here;
``test_cards_reader`` reads rendered frames."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from vision.cards.reads import (
    OUTVOTE,
    Read,
    in_step,
    like_sizes,
    merge,
    outvoted,
    stepped,
    table_width,
    tens,
)


def _read(code: str, x: float, fit: float = 0.05, odds: float = 40.0,
          settled: bool = False, width: float = 100.0) -> Read:
    return Read(code, 1.0, np.array([x, 100.0]), np.array([1.0, 0.0]), np.array([0.0, 1.0]),
                 width, None, odds, fit, settled=settled)


@pytest.mark.parametrize(("second", "kept"), [
    (_read("Kd", 115.0), {"As", "Kd"}),  # two cards of a spread, both read cleanly
    (_read("Kd", 115.0, fit=0.3), set()),  # a loose fit beside a clean one: one card misread
    (_read("Kd", 115.0, odds=12.0), set()),  # barely beats its runner-up: misread
    (_read("Kd", 105.0), set()),  # one card's centre, two names
])
def test_two_names_close_together(second: Read, kept: set[str]) -> None:
    reads = merge([_read("As", 100.0), second])
    assert {r.code for r in reads if r.code} == kept
    assert len(reads) == (2 if kept else 1)


@pytest.mark.parametrize(("names", "kept"), [
    (["Ts", "Ts", "Ts", "Tc"], "Ts"),  # a four-corner card on top, one index's suit misread
    (["Js", "Jc", "Js", "Js"], "Js"),  # in any order
    (["8h", "8h", "8d"], None),  # two against one: a neighbour's index may lie so close
    (["8h", "8d"], None),  # one against one: no name is surer
])
def test_a_name_outvoted_at_its_cards_place_is_withdrawn(names: list[str], kept: str | None
                                                         ) -> None:
    """One card's indices, each read apart, give centres within ``SAME`` of each other: a
    name read ``OUTVOTE`` times more than another there is the card's; else the card's
    names are in conflict and none is kept."""
    assert OUTVOTE == 2
    reads = [_read(code, 100.0 + 3 * k) for k, code in enumerate(names)]
    merged = merge(reads)
    assert [r.code for r in merged if r.code is not None] == ([kept] if kept else [])
    if kept:
        assert len(merged) == 1 and merged[0].both  # the unnamed read is of the same card
        assert [r.note for r in outvoted(reads) if r.code is None] == ["outvoted"]
    else:
        assert all(r.note == "conflict" for r in merged)


def test_reads_a_card_apart_do_not_outvote_each_other() -> None:
    """Three reads of one card and one of its neighbour a spread's step away: each name
    has its own place, none is outvoted."""
    reads = [_read("Ts", 100.0), _read("Ts", 103.0), _read("Ts", 106.0), _read("Kd", 140.0)]
    assert outvoted(reads) == reads


@pytest.mark.parametrize(("first", "second", "named"), [
    # one name at two places: a clean, sure read wins over a loose one, wherever it lies
    (_read("As", 100.0), _read("As", 400.0, fit=0.3), [100.0]),
    (_read("As", 100.0, odds=12.0), _read("As", 400.0), [400.0]),
    # two clean, sure reads within half a card are one card; further apart, neither is trusted
    (_read("As", 100.0), _read("As", 130.0), [100.0]),
    (_read("As", 100.0), _read("As", 400.0), []),
    (_read("As", 100.0, fit=0.3), _read("As", 400.0, fit=0.3), []),
])
def test_one_name_at_two_places(first: Read, second: Read, named: list[float]) -> None:
    reads = merge([first, second])
    assert sorted(r.center[0] for r in reads if r.code == "As") == named
    assert len(reads) == 2 and all(r.note == "duplicate" for r in reads if r.code is None)


@pytest.mark.parametrize(("here", "there", "named"), [
    (0.25, 0.05, []),  # read loosely at both indices, surely once elsewhere: neither trusted
    (0.05, 0.25, [101.0]),  # read surely at both, loosely elsewhere: the misread goes alone
])
def test_a_card_read_at_both_its_indices_is_not_withdrawn_alone(
        here: float, there: float, named: list[float]) -> None:
    reads = merge([_read("Kc", 101.0, fit=here), _read("Kc", 103.0, fit=here),
                   _read("Kc", 400.0, fit=there)])
    assert [round(r.center[0]) for r in reads if r.code == "Kc"] == named
    assert len(reads) == 2 and all(r.note == "duplicate" for r in reads if r.code is None)


def _at(code: str, x: float, y: float = 100.0, fit: float = 0.05, settled: bool = False
        ) -> Read:
    """A read whose index (its suit's centroid) lies at (x, y)."""
    r = _read(code, x, fit=fit, settled=settled)
    return dataclasses.replace(r, indices=((np.array([x, y]), r.right, r.down),))


def _guess(code: str, x: float) -> Read:
    """An unsure read, sure but loose, that guesses ``code``."""
    return dataclasses.replace(_at(code, x, fit=0.8), code=None, note="unsure", guess=code)


@pytest.mark.parametrize(("beside", "named"), [
    (_at("As", 130.0), True),  # level, a step (0.3 card widths) across: as a spread lays it
    (_at("As", 130.0, y=110.0), False),  # a tenth of a card lower: a pip, not an index
    (_at("As", 160.0), False),  # 0.6 card widths across: no spread's step
    (_at("As", 110.0), False),  # 0.1 across: no spread's step either
    (_at("As", 130.0, settled=True), False),  # beside a card only the fine cut named
    (_guess("As", 130.0), False),  # beside another guess: no card is named there
])
def test_a_loose_read_is_named_only_in_step_with_a_named_card(beside: Read, named: bool
                                                               ) -> None:
    out = in_step([_guess("Kd", 100.0), beside])
    assert out[1] is beside
    assert out[0].code == ("Kd" if named else None)
    assert out[0].in_step == named and out[0].weak == named
    assert out[0].note == (None if named else "unsure")


def test_a_read_named_in_step_yields_to_another_name_at_its_place() -> None:
    stepped = in_step([_guess("Kd", 100.0), _at("As", 130.0)])[0]
    reads = merge([stepped, _read("Qs", 105.0, fit=0.3)])
    assert [r.code for r in reads] == ["Qs"]


def _sized(code: str, width: float, fit: float) -> Read:
    return _read(code, width * 3, fit=fit, width=width)


def test_sure_reads_set_the_card_size() -> None:
    """Pips a card's width apart, read as indices of a card twice the size, outnumber the two
    clean reads of a frame with few cards: the clean reads still set the size."""
    reads = [_sized("9h", 100.0, 0.05), _sized("2c", 104.0, 0.07)] + [
        _sized("4h", 230.0, 0.45) for _ in range(3)]
    kept = like_sizes(reads, (60.0, 300.0))
    assert [r.code for r in kept] == ["9h", "2c", None, None, None]
    assert {r.note for r in kept[2:]} == {"odd size"}
    # With no clean read, the median of the named reads decides, as before.
    loose = [_sized("9h", 100.0, 0.3)] + [_sized("4h", 230.0, 0.45) for _ in range(3)]
    assert [r.code for r in like_sizes(loose, (60.0, 300.0))] == [None, "4h", "4h", "4h"]


def test_the_table_width_is_the_sure_reads_else_three_named_reads() -> None:
    """The card width (``table_width``) by which ``like_sizes`` keeps reads and the reader
    cuts candidates: the sure reads' median, else that of three or more named reads."""
    widths = np.array([100.0, 110.0, 230.0, 240.0])
    sure = np.array([True, True, False, False])
    named = np.array([True, True, True, True])
    assert table_width(widths, sure, named) == 105.0
    assert table_width(widths, ~named, named) == 170.0
    assert table_width(widths, ~named, np.array([True, False, True, False])) is None
    assert table_width(np.zeros(0), np.zeros(0, np.bool_), np.zeros(0, np.bool_)) is None


@pytest.mark.parametrize("other", [_read("Kd", 105.0, odds=12.0), _read("Kd", 105.0)])
def test_a_fine_cut_name_yields_at_its_place(other: Read) -> None:
    """Two names at one card: where one came only from the fine cut, the other stands,
    whichever was read first; two plain names there still withdraw each other."""
    fine = _read("As", 100.0, odds=4.0, settled=True)
    for reads in ([fine, other], [other, fine]):
        merged = merge([dataclasses.replace(r, score=1.0 - k / 10) for k, r in enumerate(reads)])
        assert [r.code for r in merged if r.code] == ["Kd"]
    plain = merge([_read("As", 100.0, odds=12.0), other])
    assert [r.code for r in plain if r.code] == []
    assert {r.note for r in plain} == {"conflict"}


def test_a_fine_cut_name_yields_to_its_name_elsewhere() -> None:
    """One name at two places: a fine-cut name loses to a plain one, as a plain one to a sure
    one, and only it is withdrawn."""
    plain = _read("As", 400.0, odds=12.0)
    fine = _read("As", 100.0, odds=4.0, settled=True)
    for reads in ([fine, plain], [plain, fine]):
        merged = merge(reads)
        assert [r.center[0] for r in merged if r.code == "As"] == [400.0]
        assert [r.note for r in merged if r.code is None] == ["duplicate"]


def _index(code: str, x: float, y: float, turned: bool = False, fit: float = 0.2,
           width: float = 100.0) -> Read:
    """A read whose index (suit centroid) lies at (x, y), of a card read upright or turned;
    its centre is given 0.1 card widths off the true one, as an index's estimate may be."""
    sign = -1.0 if turned else 1.0
    right, down = np.array([sign, 0.0]), np.array([0.0, sign])
    anchor = np.array([x, y])
    centre = anchor + width * (0.4 * right + 0.55 * down) + np.array([10.0, 0.0])
    return Read(code, 1.0, centre, right, down, width, None, 15.0, fit,
                 indices=((anchor, right, down),))


@pytest.mark.parametrize(("second", "kept"), [
    # the next card of the spread: its index a step across, level, turned alike
    (_index("7s", 127.0, 100.0), {"Th", "7s"}),
    (_index("7s", 123.0, 103.0), {"Th", "7s"}),
    # not how a spread lies: no step, off the level, turned, another size, read loosely
    (_index("7s", 108.0, 100.0), set()),
    (_index("7s", 127.0, 108.0), set()),
    (_index("7s", 127.0, 100.0, turned=True), set()),
    (_index("7s", 127.0, 100.0, fit=0.35), set()),
    (_index("7s", 127.0, 100.0, width=115.0), set()),
])
def test_two_indices_a_spread_step_apart_are_two_cards(second: Read, kept: set[str]) -> None:
    """Centres an index gives err by a tenth of a card, so two cards of a tight spread may
    seem closer than CLASH; where their indices lie tells them apart from a misread."""
    first = _index("Th", 100.0, 100.0)
    # the centres the two indices give fall within CLASH of each other, not within SAME
    second = dataclasses.replace(second, center=first.center + np.array([15.0, 0.0]))
    merged = merge([first, second])
    assert {r.code for r in merged if r.code} == kept


@pytest.mark.parametrize(("fit", "below", "plain", "beside"), [
    (0.2, 5.0, True, True),  # close and level: either way
    (0.35, 0.0, False, True),  # loose, as a covered index cut by the card on top
    (0.45, 0.0, False, False),  # too loose even there
    (0.2, 6.3, False, True),  # its centroid shifted down: level enough only beside
    (0.2, 7.0, False, False),
])
def test_a_read_at_an_empty_place_is_stepped_more_loosely(
        fit: float, below: float, plain: bool, beside: bool) -> None:
    """The second look's read of a place beside a named card was read surely there, so
    it may fit and lie less closely (``reads.BESIDE_FIT``, ``BESIDE_LEVEL``) than two reads
    of the first pass (``STEP_FIT``, ``LEVEL``)."""
    named = _index("Th", 100.0, 100.0)
    found = _index("7s", 127.0, 100.0 + below, fit=fit)
    assert stepped(found, named) == plain
    assert stepped(found, named, beside=True) == beside


def test_a_top_card_read_by_both_indices_is_stepped_from_either() -> None:
    """A card on top read by both indices keeps both: the next card's index a step from its
    near index counts even when the far, turned index was read first."""
    far = _index("Th", 180.0, 240.0, turned=True)
    near = dataclasses.replace(_index("Th", 100.0, 100.0), center=far.center + 3.0)
    covered = dataclasses.replace(_index("7s", 76.0, 100.0), center=far.center - 14.0)
    merged = merge([far, near, covered])
    assert sorted(r.code for r in merged if r.code) == ["7s", "Th"]
    top = next(r for r in merged if r.code == "Th")
    assert top.both and len(top.indices) == 2


def test_a_fine_cut_name_confirmed_by_a_plain_read_is_no_weaker() -> None:
    """A card read by the fine cut at one index and plainly at the other keeps the plain
    read's weight: a plain read of its name elsewhere (a misread) does not outweigh it."""
    fine = dataclasses.replace(_read("7s", 100.0, fit=0.5, odds=4.0, settled=True), score=1.0)
    plain = dataclasses.replace(_read("7s", 105.0, fit=0.1, odds=18.0), score=0.9)
    elsewhere = dataclasses.replace(_read("7s", 400.0, fit=0.3, odds=18.0), score=0.8)
    merged = merge([fine, plain, elsewhere])
    assert [r.code for r in merged] == [None, None]
    assert {r.note for r in merged} == {"duplicate"}
    assert not any(r.settled for r in merged)


def test_both_indices_of_a_card_mark_it_on_top() -> None:
    merged = merge([_read("As", 100.0), _read("As", 105.0), _read("Kd", 400.0)])
    assert [(r.code, r.both) for r in merged] == [("As", True), ("Kd", False)]


def _zero(suit: str, x: float) -> Read:
    """A ten's "0" with its ``suit`` read as surely as a card is named: it names no card."""
    return dataclasses.replace(_read("Kd", x), code=None, note="unsure", ten=f"T{suit}")


@pytest.mark.parametrize(("read", "kept"), [
    (_read("3d", 115.0, fit=0.23), None),  # the ten's other index misread, not surely
    (_read("Td", 115.0, fit=0.23), "Td"),  # the ten itself
    (_read("3d", 115.0), "3d"),  # read surely and cleanly: it stands
    (_read("3d", 140.0, fit=0.23), "3d"),  # a card beyond CLASH: another card
])
def test_a_ten_read_by_its_zero_withdraws_another_name_at_its_place(
        read: Read, kept: str | None) -> None:
    out = tens([_zero("d", 100.0), read])
    assert out[1].code == kept
    assert out[1].note == (None if kept else "conflict")
    assert tens([read]) == [read]  # no "0" read: as it was
