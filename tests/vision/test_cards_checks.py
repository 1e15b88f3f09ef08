"""Round-level checks: each of the 53 cards at most once, agreement with the shuffler.

The first tests feed the checks plain codes; the last ones feed them what the reader read
from rendered seven-hand tables, with the shuffler's packets taken from the deal itself.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest

from tests.vision.conftest import deck, faces
from vision.cards import CODES, CardReader, check_deck, check_packet
from vision.items import Item
from vision.scene import Placement
from vision.scene.hands import table_scene


def test_deck_check_finds_duplicates_and_unread() -> None:
    check = check_deck(["As", "Kd", None, "as", "Jk"])
    assert check.duplicates == ("As",) and check.unread == 1 and check.seen == 5
    assert not check.ok
    assert check_deck(["As", "Kd", None]).ok


def test_deck_check_counts_more_than_53_cards_seen() -> None:
    check = check_deck([*CODES, None])
    assert check.duplicates == () and check.seen == 54 and not check.ok


def test_packet_agrees_and_fills_the_one_unread_card() -> None:
    packet = ["As", "Kd", "Qh", "Jk", "2c", "3d", "4s"]
    check = check_packet(["As", "Kd", None, "Jk", "2c", "3d", "4s"], packet)
    assert check.agrees and check.missing == ("Qh",) and check.filled == "Qh"


def test_packet_disagrees_on_a_foreign_card() -> None:
    packet = ["As", "Kd", "Qh", "Jk", "2c", "3d", "4s"]
    check = check_packet(["As", "Kd", "Qs", "Jk", "2c", "3d", "4s"], packet)
    assert not check.agrees and check.foreign == ("Qs",) and check.missing == ("Qh",)
    assert check.filled is None


def test_packet_with_two_unread_cards_fills_nothing() -> None:
    packet = ["As", "Kd", "Qh"]
    check = check_packet(["As", None, None], packet)
    assert check.agrees and check.filled is None and check.missing == ("Kd", "Qh")


def test_packet_with_a_card_neither_read_nor_seen_disagrees() -> None:
    packet = ["As", "Kd", "Qh"]
    assert not check_packet(["As", None], packet).agrees  # two missing, one unread
    assert check_packet(["As", "Kd", None, None], packet).agrees  # one card seen twice


def _by_position(items: Sequence[Item], truth: Sequence[Placement]) -> list[list[str | None]]:
    """The reads of each of the seven positions: a read belongs to the nearest true card
    (as the layout's regions would place it), and so to that card's position."""
    cards = [t for t in truth if t.kind == "card"]
    centres = np.array([t.center for t in cards])
    out: list[list[str | None]] = [[] for _ in range(len(cards) // 7)]
    for item in items:
        nearest = int(np.argmin(np.hypot(*(centres - np.array(item.center)).T)))
        out[nearest // 7].append(item.code)
    return out


@pytest.mark.parametrize("style", ["2color", "4color-bf"])
def test_real_reads_of_a_table_pass_both_checks(style: str) -> None:
    reader = CardReader(deck(style))
    image, truth = table_scene(faces(style), np.random.default_rng(31))
    items = reader.read(image)
    reads = [i.code for i in items]
    assert sum(c is not None for c in reads) >= 40  # the checks see real reads
    whole = check_deck(reads)
    assert whole.ok and whole.duplicates == ()
    packets = [[t.label for t in truth[7 * p:7 * p + 7]] for p in range(7)]
    for read, packet in zip(_by_position(items, truth), packets, strict=True):
        check = check_packet(read, packet)
        assert check.agrees, (read, packet, check)
        assert check.filled is None or check.filled in packet


def test_real_reads_against_a_wrong_packet_report() -> None:
    """The shuffler reports a card for a position that the table does not show there: the
    read card is foreign to the report and the reported one is missing."""
    reader = CardReader(deck("2color"))
    image, truth = table_scene(faces("2color"), np.random.default_rng(32))
    items = reader.read(image)
    read = _by_position(items, truth)
    packets = [[t.label for t in truth[7 * p:7 * p + 7]] for p in range(7)]
    position = next(p for p in range(7) if all(c is not None for c in read[p]))
    seen = {t.label for t in truth}
    stranger = next(c for c in CODES if c not in seen)
    replaced = read[position][0]
    assert replaced is not None
    report = [stranger if c == replaced else c for c in packets[position]]
    check = check_packet(read[position], report)
    assert not check.agrees
    assert check.foreign == (replaced,) and check.missing == (stranger,)


def test_real_reads_of_two_deals_find_a_card_seen_twice() -> None:
    """Reads gathered over a round: a card read at the first deal and again at the second
    is a duplicate (a second deck's card, or a card switched in)."""
    reader = CardReader(deck("2color"))
    cards = faces("2color")
    first, truth = table_scene(cards, np.random.default_rng(33), hands=2)
    reads = [i.code for i in reader.read(first)]
    again = next(c for c in reads if c is not None)
    unseen = [c for c in CODES if c not in {t.label for t in truth}]
    second_deck = {again: cards[again]} | {c: cards[c] for c in unseen[:34]}
    second, _ = table_scene(second_deck, np.random.default_rng(34), hands=5)  # all 35 cards
    more = [i.code for i in reader.read(second)]
    assert check_deck(reads).ok and check_deck(more).ok
    assert again in more
    check = check_deck(reads + more)
    assert check.duplicates == (again,) and not check.ok
