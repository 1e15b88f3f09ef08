"""Round-level checks: each of the 53 cards at most once, agreement with the shuffler."""

from __future__ import annotations

from vision.cards import check_deck, check_packet


def test_deck_check_finds_duplicates_and_unread() -> None:
    check = check_deck(["As", "Kd", None, "as", "Jk"])
    assert check.duplicates == ("As",) and check.unread == 1 and check.seen == 5
    assert not check.ok
    assert check_deck(["As", "Kd", None]).ok


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
