"""What is no card face is never read as one: backs of face-down cards, chips on an empty felt
(issue 33: "a face-down card is never read as a face, and nothing is reported where no card
lies")."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tests.vision.conftest import deck, faces
from vision.cards import CardReader
from vision.layout import Layout
from vision.scene.augment import REAL
from vision.scene.hands import table_scene
from vision.scene.paper import Paper
from vision.scene.surface import AnySurface
from vision.table_video.camera import TableCamera, decode
from vision.table_video.render import Looks, card_back, compose, felt_canvas
from vision.table_video.state import Chips, Packet, TableState
from vision.table_video.timeline import camera_mount

ROOT = Path(__file__).resolve().parents[2]
BACKS = ((40, 40, 170), (150, 60, 20), (30, 110, 30))  # red, blue, green lattices (BGR)


def rendered(state: TableState, seed: int) -> np.ndarray:
    """A 1280 x 720 table camera's frame of ``state`` on the poker layout."""
    layout = Layout.load(ROOT / "config" / "layouts" / "paigow-poker.toml")
    camera = TableCamera()
    mount = camera_mount(layout, seed, camera)
    felt = felt_canvas(layout, mount, np.random.default_rng(seed))
    canvas = compose(state, layout, mount, felt, Looks(faces=faces("2color")), seed)
    return decode(mount.expose(mount.view(canvas), np.random.default_rng(seed)))


@pytest.mark.parametrize("style", ["2color", "4color-bf"])
def test_fanned_backs_are_never_read_as_faces(style: str) -> None:
    """Seven hands of face-down cards spread as hands are (turned, overlapping), backs of
    three colours: no item names a card."""
    backs = {f"back{k}": card_back(BACKS[k % len(BACKS)]) for k in range(49)}
    reader = CardReader(deck(style))
    rng = np.random.default_rng(12)
    for _ in range(3):
        image, _ = table_scene(backs, rng)
        named = [i.code for i in reader.read(image) if i.code is not None]
        assert named == []


@pytest.mark.parametrize(("style", "render"), [
    ("2color", "plain"), ("4color-bf", "plain"), ("2color", "real"), ("4color-bf", "real"),
])
def test_fanned_backs_yield_no_item_at_all(style: str, render: str) -> None:
    """Seven hands of backs, on felt or wood in a real camera's light: the reader reports
    no card item, not even an unknown one. A lattice's marks that pass for an index fit it
    loosely, and a read unsure and that loose is not reported (``reader.LOOSE_ITEM``): the
    dealer is not asked about a card that is not there. A read sure yet that loose must show
    paper about its index (``ground.LOOSE_PAPER``): in real light two lattices were read
    surely as Ks and 2s, the white border of the back beside them passing for the card's
    body."""
    backs = {f"back{k}": card_back(BACKS[k % len(BACKS)]) for k in range(49)}
    reader = CardReader(deck(style))
    rng = np.random.default_rng(12)
    real = render == "real"
    for _ in range(6):
        image, _ = table_scene(backs, rng, camera=REAL if real else None,
                               surface=AnySurface() if real else None,
                               paper=Paper() if real else None)
        assert [i for i in reader.read(image) if i.kind == "card"] == []


def test_packets_face_down_are_never_read_as_faces() -> None:
    """Face-down packets in every seat's boxes, as the table camera sees them: no item names
    a card."""
    held = {f"seat{s}.{box}": Packet(7) for s in range(2, 8) for box in ("low", "high")}
    for seed in (0, 1):
        image = rendered(TableState.of("poker", held), seed)
        named = [i.code for i in CardReader(deck("2color")).read(image) if i.code is not None]
        assert named == []


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_an_empty_felt_with_chips_on_it_yields_no_card_items(seed: int) -> None:
    """Chips on every bet circle and nothing else: the reader reports no card item at all,
    not even an unknown one (the dealer would be asked about a card that is not there)."""
    state = TableState.of("poker", {f"seat{s}.bet": Chips(3 + s % 3) for s in range(2, 8)})
    items = CardReader(deck("2color")).read(rendered(state, seed))
    assert [i for i in items if i.kind == "card"] == []
