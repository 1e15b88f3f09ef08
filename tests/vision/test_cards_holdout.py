"""A hold-out deck (issue 33: public artwork the reader was never tuned on) calibrates from its
clean faces and reads a rendered table with no wrong read.

The deck is drawn into the per-user assets cache by ``scripts/holdout_decks.py`` (which
``scripts/test_assets.sh`` runs); the test skips when it is not there (no network when the
assets were made). ``bench/bench_vision.py`` measures every hold-out deck over many frames;
this test only guards that the hold-out path works end to end and never names a card wrongly
on one frame of the deck that calibrates whole.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from controller.config.locations import assets_dir
from vision.cards import CardReader, load_faces
from vision.cards.cache import cached_deck
from vision.cards.evaluate import evaluate

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
from holdout_decks import deck_dir

DECK = "aguilar"  # Chris Aguilar's Vectorized Playing Cards 1.3 (npm cardsJS): no joker


def test_holdout_deck_reads_a_frame_with_no_wrong_read() -> None:
    folder = deck_dir(DECK)
    if folder is None:
        pytest.skip(f"hold-out deck {DECK!r} not drawn (scripts/holdout_decks.py needs npm)")
    faces = load_faces(folder)
    deck = cached_deck(f"holdout-{DECK}", faces, assets_dir() / "decks")
    assert "Jk" not in deck.faces  # a deck without a joker image never names one
    tally = evaluate(CardReader(deck), faces, frames=1, seed=2026)
    assert tally.frames == 1 and tally.cards >= 49
    assert tally.wrong == 0, tally.mistakes
    assert tally.right >= 40, f"only {tally.right} of {tally.cards} cards read right"
