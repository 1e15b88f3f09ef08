"""Reading cards: nothing read on nothing, clean cards read, the index-less joker found in a
spread (and nothing else taken for it), a joker with a star in its corner found by that
mark, and a sample of rendered tables.

The sample asserts floors measured on this reader (bench/bench_vision.py has the full run);
the issue's target of 99.5 % right is reached on the bench by the bf styles, not yet by
2color and 4color (its bound of 1 wrong read in 10,000 is met on the bench by all four, and
not asserted on this small sample beyond none wrong).
"""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.vision.conftest import STYLES, deck, faces, golden, starred_deck, starred_faces
from vision.cards import CardReader, patch, strips
from vision.cards import reader as reader_module
from vision.cards.deck import Deck
from vision.cards.evaluate import evaluate
from vision.cards.ink import Groups, find_groups, masks
from vision.cards.naming import FINE_RANK_FIT
from vision.cards.pyramid import Pyramid
from vision.cards.reader import OFF_CARDS_NOTE, WITHDRAWN, _common, off_cards
from vision.cards.reads import SIZE_SPREAD, Read, but
from vision.cards.strips import EDGE_SLACK, _edge
from vision.cards.verdict import (
    FINE_ODDS,
    IN_STEP_ODDS,
    Thresholds,
    against,
    settle,
    strays,
)
from vision.scene import Camera, Pose, Scene
from vision.scene.augment import REAL
from vision.scene.hands import Spread, place_spread
from vision.scene.paper import Paper
from vision.scene.surface import AnySurface

STILL = Camera(tilt=0.0, light=(1.0, 1.0), glare=(0, 0.0), blur=(0.0, 0.0), noise=(1.0, 1.0))
# (right at least, wrong at most) over the sample of each style.
# Measured on this sample (seed 77): 99.66, 99.66, 99.32, 100 % right, none wrong; the
# bench's 1,000 frames per style give 99.61, 99.62, 99.69, 99.71 % (bench/bench_vision.py).
FLOORS = {"2color": (0.99, 0), "4color": (0.99, 0), "2color-bf": (0.985, 0),
          "4color-bf": (0.985, 0)}
SCENES = 6


def reader(style: str = "2color") -> CardReader:
    return CardReader(deck(style))


def test_black_frame_and_empty_felt_read_nothing() -> None:
    r = reader()
    assert r.read(np.zeros((720, 1280, 3), np.uint8)) == []
    felt, _ = Scene().render(np.random.default_rng(2), Camera())
    assert r.read(felt) == []


def test_noise_is_not_read_as_cards() -> None:
    noise = np.random.default_rng(4).integers(0, 256, (360, 640, 3), dtype=np.uint8)
    assert [i for i in reader().read(noise) if i.code is not None] == []


LOOSE = ["As", "Td", "Qh", "7c", "8s"]


def _loose_cards(style: str) -> np.ndarray:
    """A frame of the ``LOOSE`` cards of ``style`` lying apart, each turned its own way."""
    cards = faces(style)
    scene = Scene(size=(900, 400))
    for k, code in enumerate(LOOSE):
        face = cards[code]
        scene.place(face, Pose(110 + 170 * k, 200, 25.0 * k - 50, 130 / face.shape[1]), code)
    image, _ = scene.render(np.random.default_rng(1), STILL)
    return image


@pytest.mark.parametrize("style", STYLES)
def test_loose_clean_cards_are_read(style: str) -> None:
    codes = LOOSE
    found = reader(style).read(_loose_cards(style))
    assert sorted(i.code for i in found if i.code) == sorted(codes)
    for item in found:
        assert 0.0 <= item.confidence <= 1.0 and len(item.corners) == 4


def _spread(cards: dict[str, np.ndarray], codes: list[str], seed: int, angle: float = 3.0,
            width: float = 100.0, camera: Camera = STILL, step: float = 0.3
            ) -> tuple[np.ndarray, list[tuple[str, tuple[float, float]]]]:
    scene = Scene(size=(640, 360))
    rng = np.random.default_rng(seed)
    place_spread(scene, [(c, cards[c]) for c in codes], 320, 180, angle, width,
                 Spread(step=(step, step), card_jitter=(0.0, 0.0)), rng)
    image, truth = scene.render(rng, camera)
    return image, [(t.label, t.center) for t in truth]


@pytest.mark.parametrize("style", STYLES)
@pytest.mark.parametrize(("seed", "angle"), [(5, 3.0), (6, 183.0)])
def test_covered_joker_is_found_by_its_strip(style: str, seed: int, angle: float) -> None:
    """Named once, and placed where it lies: within 4 % of a card's width (the strip
    placed it 6 % too far right while the card's edge was taken for the strip's)."""
    cards = faces(style)
    image, truth = _spread(cards, ["As", "Jk", "Kd", "7c", "2h"], seed=seed, angle=angle)
    found = reader(style).read(image)
    joker = dict(truth)["Jk"]
    named = [i for i in found if i.code == "Jk"]
    assert len(named) == 1 and np.hypot(*np.subtract(named[0].center, joker)) < 4.0
    assert {i.code for i in found if i.code} <= {c for c, _ in truth}  # nothing misread


@pytest.mark.parametrize("style", STYLES)
@pytest.mark.parametrize("angle", [3.0, 183.0])
def test_a_joker_on_top_is_found_by_its_eyes(style: str, angle: float) -> None:
    """A joker lying on a card shows little strip contrast over that card's paper; its two
    solid eyes confirm it (a joker on the felt beside a card is found by its strip alone)."""
    for width, seed in ((95.0, 1), (105.0, 2)):
        _joker_found(style, ["9h", "Jk"], seed, angle, width)


@pytest.mark.parametrize("style", ["2color", "4color"])
@pytest.mark.parametrize("angle", [3.0, 183.0])
def test_a_joker_beneath_a_turned_read_card_is_found(style: str, angle: float) -> None:
    """The top card of a two-card hand shows both indices and may be read by its far one,
    turned against the spread: the joker beneath it is sought on both of its sides."""
    for seed in (1, 2):
        _joker_found(style, ["Jk", "9h"], seed, angle, 95.0)


# Read sharpened (``reader.READ_SHARPEN``), the bold styles' 3d beneath places the joker of
# seed 5 where its strip is not found: the joker goes unread, no card is misread.
_EYES_LOST = pytest.mark.xfail(strict=True, reason="bold styles read sharpened: joker unread")


@pytest.mark.parametrize(("style", "seed", "angle"), [
    pytest.param(style, seed, angle, marks=[_EYES_LOST] if style.endswith("-bf") and seed == 5
                 else []) for style in STYLES
    for seed, angle in ((9, 40.0), (8, 200.0), (5, 310.0), (2, 310.0))])
def test_a_joker_on_top_with_no_edge_showing_is_found_by_its_eyes(
        style: str, seed: int, angle: float) -> None:
    """Over the paper of the card beneath, in the table's light, a joker's left edge may
    not show: its eyes are enough then."""
    _joker_found(style, ["3d", "Jk"], seed, angle, 95.0, Camera())


@pytest.mark.parametrize(("style", "crop", "joker", "hand"), [
    ("2color", "2color-frame2-faint-joker.png", (180.0, 101.0), {"8c", "3s", "7h", "6h"}),
    ("2color-bf", "2color-bf-frame11-faint-joker.png", (185.2, 104.5), {"4s", "9s", "Ks", "3s"}),
])
def test_a_covered_joker_matching_faintly_is_found_by_its_clear_edge(
        style: str, crop: str, joker: tuple[float, float], hand: set[str]) -> None:
    """Crops of bench frames (seed 2026: frames 2 and 11, stored in tests/golden/vision)
    where a covered joker's strip matches under ``strips.ACCEPT`` (0.52 and 0.54) but its left
    edge shows clearly over the card beneath: it is named there, and its hand read."""
    image = golden(crop)
    found = reader(style).read(image)
    named = [i for i in found if i.code == "Jk"]
    assert len(named) == 1 and np.hypot(*np.subtract(named[0].center, joker)) < 15
    assert hand <= {i.code for i in found}


def test_a_covered_joker_whose_edge_lies_a_column_off_is_found() -> None:
    """A crop of bench frame 124 (2color, seed 2026): a turned spread whose covered joker's
    strip matches well (0.91) but whose left edge, a faint shadow on the card beneath, lies
    a band column from where the strip puts it (``strips.EDGE_SLACK``): it is named there,
    and the rest of its hand read."""
    found = reader("2color").read(golden("2color-frame124-edge-off.png"))
    named = [i for i in found if i.code == "Jk"]
    assert len(named) == 1 and np.hypot(*np.subtract(named[0].center, (107.9, 79.1))) < 5
    assert {"2d", "Ad", "3c", "Th"} <= {i.code for i in found}


def test_a_covered_joker_matching_middlingly_is_found_where_its_edge_shows_fairly() -> None:
    """A crop of bench frame 261 (2color, seed 2026): a covered joker whose strip matches
    0.58, under ``strips.ACCEPT``, with an edge of about 0.52, not quite ``CLEAR``
    (``MIDDLING``): it is named there, and the rest of its hand read."""
    found = reader("2color").read(golden("2color-frame261-middling-joker.png"))
    named = [i for i in found if i.code == "Jk"]
    assert len(named) == 1 and np.hypot(*np.subtract(named[0].center, (167.1, 83.7))) < 5
    assert {"Kh", "Qh", "3c", "Jh"} <= {i.code for i in found}


def test_no_face_is_sought_right_of_a_card_on_top() -> None:
    """A crop of a bench frame (2color-bf, ``table_scene`` seed 99, frame 30, stored in
    tests/golden/vision): a turned spread whose top card, the 6s, shows both indices. A
    face right of it, in either sense, would lie on it and hide an index it shows; sought
    there, a joker was named over the covered 3h. Only covered cards have such a slot."""
    found = reader("2color-bf").read(golden("2color-bf-seed99-frame30-on-top.png"))
    assert "Jk" not in {i.code for i in found}
    assert {"6s", "Ts", "Ac", "Ad"} <= {i.code for i in found}


def test_a_card_edge_is_sought_within_the_slack_only() -> None:
    """``strips._edge`` finds a shadowed edge a column either side of where it is told to
    look (``EDGE_SLACK``), and none four columns off."""
    band = np.full((60, 40), 200.0, np.float32)
    band[:, 15] = 120.0  # a shadow line just left of an edge at column 16
    assert _edge(band, 16, 0, 60) == pytest.approx(0.6)
    assert _edge(band, 16 + EDGE_SLACK, 0, 60) == pytest.approx(0.6)
    assert _edge(band, 16 - EDGE_SLACK, 0, 60) == pytest.approx(0.6)
    assert _edge(band, 20, 0, 60) == 1.0


def _joker_found(style: str, codes: list[str], seed: int, angle: float, width: float,
                 camera: Camera = STILL) -> None:
    """The joker of a spread of ``codes`` is named once, at its place, and nothing misread."""
    image, truth = _spread(faces(style), codes, seed, angle, width, camera)
    found = reader(style).read(image)
    named = [i for i in found if i.code == "Jk"]
    assert len(named) == 1 and np.hypot(*np.subtract(named[0].center, dict(truth)["Jk"])) < 25
    assert {i.code for i in found if i.code} == set(codes)


@pytest.mark.parametrize("style", ["2color", "2color-bf"])
def test_a_card_with_its_index_rubbed_out_is_no_joker(style: str) -> None:
    """In the joker's place lies a card whose corner index cannot be seen: it is unknown,
    never the joker (the index-less face is named only by its own strip)."""
    cards = dict(faces(style))
    rubbed = cards["9h"].copy()
    h, w = rubbed.shape[:2]
    rubbed[int(0.02 * h):int(0.3 * h), int(0.03 * w):int(0.2 * w), :3] = 255
    cards["9h"] = rubbed
    image, _ = _spread(cards, ["As", "9h", "Kd", "7c", "2h"], seed=5)
    codes = [i.code for i in reader(style).read(image)]
    assert "Jk" not in codes and "9h" not in codes
    assert {"As", "Kd", "7c", "2h"} <= set(codes)


@pytest.mark.parametrize(("seed", "angle"), [(5, 3.0), (6, 183.0)])
def test_a_covered_joker_with_a_star_in_its_corner_is_found_by_its_mark(
        seed: int, angle: float) -> None:
    """A joker printing a star where the other faces print their index is learned by that
    mark (``corner_marks.learn_marks``) and named, once, where it lies in a spread."""
    image, truth = _spread(starred_faces(), ["As", "Jk", "Kd", "7c", "2h"], seed=seed,
                           angle=angle)
    found = CardReader(starred_deck()).read(image)
    named = [i for i in found if i.code == "Jk"]
    assert len(named) == 1 and np.hypot(*np.subtract(named[0].center, dict(truth)["Jk"])) < 4.0
    assert {i.code for i in found if i.code} <= {c for c, _ in truth}  # nothing misread


def test_a_covered_joker_with_a_star_is_named_by_it_where_its_edge_does_not_show(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A covered joker whose left edge does not show (a joker on a card of its own paper,
    no shadow between: here no edge shows anywhere) is still named by its star where its
    strip matches plainly: the mark confirms it as the eyes confirm a joker on top; a face
    without a mark (the deck's joker unstarred) is not named so."""
    monkeypatch.setattr(strips, "_edge", lambda *_: 1.0)
    image, truth = _spread(starred_faces(), ["As", "Jk", "Kd", "7c", "2h"], seed=5)
    named = [i for i in CardReader(starred_deck()).read(image) if i.code == "Jk"]
    assert len(named) == 1 and np.hypot(*np.subtract(named[0].center, dict(truth)["Jk"])) < 4.0
    image, _ = _spread(faces("2color"), ["As", "Jk", "Kd", "7c", "2h"], seed=5)
    assert "Jk" not in {i.code for i in reader("2color").read(image)}


def test_a_card_with_its_index_rubbed_out_is_no_starred_joker() -> None:
    """A card whose index cannot be seen shows no star where the starred joker prints it:
    it is unknown, never that joker."""
    cards = dict(starred_faces())
    rubbed = cards["9h"].copy()
    h, w = rubbed.shape[:2]
    rubbed[int(0.02 * h):int(0.3 * h), int(0.03 * w):int(0.2 * w), :3] = 255
    cards["9h"] = rubbed
    image, _ = _spread(cards, ["As", "9h", "Kd", "7c", "2h"], seed=5)
    codes = [i.code for i in CardReader(starred_deck()).read(image)]
    assert "Jk" not in codes and "9h" not in codes
    assert {"As", "Kd", "7c", "2h"} <= set(codes)


@pytest.mark.parametrize("style", ["2color-bf", "4color-bf"])
def test_a_covered_index_cut_by_the_card_on_top_is_named_in_step(style: str) -> None:
    """A large index of a covered card, cut by the edge of the card on top, is read surely
    but loosely: it is named for where it lies, level with the next card's index a spread's
    step away (``reads.in_step``); nothing is misread."""
    codes = ["7d", "Js", "8s", "Kd", "8d"]
    image, _ = _spread(faces(style), codes, 16, 7.8, 100.0, Camera(), step=0.24)
    found = [i for i in reader(style).read(image) if i.code]
    assert "Kd" in {i.code for i in found} and {i.code for i in found} <= set(codes)


def _without_its_one(face: np.ndarray) -> np.ndarray:
    """A ten's face with the "1" of both corner indices painted out in the paper's own tone
    (the leftmost mark in the top-left corner, the card's outline aside, and the same turned
    about the centre)."""
    out = face.copy()
    for _ in range(2):
        h, w = out.shape[:2]
        corner = out[:h // 4, :w // 4]
        dark = ((corner[..., :3].min(axis=2) < 128) & (corner[..., 3] > 128)).astype(np.uint8)
        stats = cv2.connectedComponentsWithStats(dark, connectivity=8)[2][1:]
        marks = stats[(stats[:, 0] > 0) & (stats[:, 1] > 0)]  # not the card's outline
        assert len(marks) >= 2, "a ten's rank is a 1 and a 0"
        x, y, bw, bh = (int(v) for v in marks[int(np.argmin(marks[:, 0])), :4])
        paper = np.median(corner[..., :3][(corner[..., :3].min(axis=2) > 200)
                                          & (corner[..., 3] > 128)], axis=0)
        out[max(y - 2, 0):y + bh + 2, max(x - 2, 0):x + bw + 2, :3] = paper
        out = np.ascontiguousarray(out[::-1, ::-1])
    return out


def test_a_read_whose_card_would_lie_on_the_felt_is_withdrawn_named_or_not() -> None:
    """A read whose card would lie on the felt is withdrawn, and not reported, whether it
    names a card or not: an unnamed one (unsure, with a guess or a pair of names) so placed
    was an index read in the wrong sense, an unknown item where no card lies (bellot's bottom
    index of a turned Kc, real scenes). One on the cards stands as it was."""
    unsure = Read(None, 0.9, np.array([100.0, 100.0]), np.array([1.0, 0.0]),
                  np.array([0.0, 1.0]), 80.0, "unsure", 30.0, 0.2, pair=("6c", "8c"))
    reads = [unsure, but(unsure, code="6c", note=None, pair=None),
             but(unsure, guess="6c", pair=None), unsure]
    out = off_cards(reads, [False, False, False, True])
    assert [r.note for r in out] == [OFF_CARDS_NOTE] * 3 + ["unsure"]
    assert all(r.code is None and r.guess is None and r.pair is None for r in out[:3])
    assert out[3] is unsure
    assert OFF_CARDS_NOTE in WITHDRAWN  # never reported (``CardReader._with_strips``)


@pytest.mark.parametrize("style", ["2color-bf", "4color-bf"])
def test_a_ten_without_its_one_is_not_named(style: str) -> None:
    """The "0" of a ten with its suit, the "1" unseen (dropped from its group, or lost in an
    edge line), passes for a nine or an eight unless it is learned as a part of a ten; it
    is read unknown, at any turn and size, or (the styles part glyphs from their pips,
    ``trial.parts_more``) not reported, where a part of its marks read best names nothing
    (an unnamed split part is no item, ``CardReader.read``): never named."""
    cards = faces(style)
    codes = ["Ts", "Th", "Tc", "Td"]
    found: list[str | None] = []
    for seed in range(12):
        rng = np.random.default_rng(seed)
        scene = Scene(size=(900, 400))
        for k, code in enumerate(codes):
            face = _without_its_one(cards[code])
            scene.place(face, Pose(120 + 220 * k, 200, float(rng.uniform(0, 360)),
                                   float(rng.uniform(70, 130)) / face.shape[1]), code)
        image, _ = scene.render(rng, STILL)
        found += [i.code for i in reader(style).read(image)]
    assert len(found) >= 0.9 * 12 * len(codes)
    assert set(found) == {None}


@pytest.mark.parametrize("style", STYLES)
def test_seven_hand_tables(style: str) -> None:
    tally = evaluate(reader(style), faces(style), SCENES, seed=77)
    right, wrong = FLOORS[style]
    assert tally.cards >= SCENES * 49
    assert tally.rate(tally.right) >= right, tally.mistakes
    assert tally.wrong <= wrong, tally.mistakes


@pytest.mark.parametrize("style", ["2color", "4color-bf"])
def test_seven_hand_tables_in_a_real_light_on_felt_or_wood(style: str) -> None:
    """Tables rendered as a real camera sees them (``bench_vision.py --render real``): felt
    or a wooden table, card stock, defocus, vignetting, shot noise and JPEG. The reader was
    not tuned on them; it names fewer, and none wrongly."""
    tally = evaluate(reader(style), faces(style), SCENES, seed=78, camera=REAL,
                     surface=AnySurface(), paper=Paper())
    assert tally.cards >= SCENES * 49
    assert tally.rate(tally.right) >= 0.97, tally.losses
    assert tally.wrong == 0, tally.mistakes


def test_the_common_card_width_is_the_one_most_candidates_allow() -> None:
    """The candidates read first are those allowing the card width most of them allow; of
    two widths allowed by as many, the lesser."""
    low = np.array([100.0, 102.0, 98.0, 230.0, 240.0, 30.0])
    assert _common(low, low * 1.4).tolist() == [True, True, True, False, False, False]
    assert _common(np.array([100.0, 300.0]), np.array([140.0, 420.0])).tolist() == [
        True, False]
    assert _common(np.zeros(0), np.zeros(0)).tolist() == []


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.floats(10.0, 500.0), st.floats(1.0, 3.0)), max_size=40))
def test_the_common_width_is_allowed_by_as_many_candidates_as_any(
        spans: list[tuple[float, float]]) -> None:
    """The candidates read first all allow one width (their spans, widened by
    ``SIZE_SPREAD``, share a point), and no width is allowed by more of them."""
    low = np.array([a for a, _ in spans], np.float64)
    high = low * np.array([r for _, r in spans], np.float64)
    first = _common(low, high)
    start, end = low / SIZE_SPREAD, high * SIZE_SPREAD
    if not len(spans):
        assert first.tolist() == []
        return
    assert start[first].max() <= end[first].min()
    most = max(int(((start <= w) & (end >= w)).sum()) for w in start)
    assert int(first.sum()) == most


class _EveryCandidate(CardReader):
    """Reads every candidate at once, whatever its size (as the reader did before it read
    by size)."""

    def _by_size(self, pyramid: Pyramid, groups: Groups) -> list[Read]:
        return self._naming.reads(pyramid, groups,
                                  self._judged(self._distances(pyramid, groups)))


def test_candidates_of_another_size_than_the_tables_are_not_cut(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """On the seeded tables the reader cuts far fewer candidates than there are (those of a
    card size no card on the table has are left), and names as many cards right, and no
    more wrongly, as reading every candidate."""
    cut: list[int] = []
    original = patch.cut_both

    def counting(pyramid: Pyramid, groups: Groups, shape: patch.Shape = patch.COARSE
                 ) -> tuple[tuple[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]:
        cut.append(len(groups))
        return original(pyramid, groups, shape)

    monkeypatch.setattr(patch, "cut_both", counting)
    style = "2color"
    by_size = evaluate(reader(style), faces(style), SCENES, seed=77)
    sized = sum(cut)
    cut.clear()
    every = evaluate(_EveryCandidate(deck(style)), faces(style), SCENES, seed=77)
    assert sized < 0.8 * sum(cut), (sized, sum(cut))
    assert by_size.right >= every.right, (by_size.right, every.right)
    assert by_size.wrong <= every.wrong, by_size.mistakes


def test_the_fine_cut_names_only_a_coarse_first_or_second() -> None:
    """A close call is settled by the fine cut only to a class the coarse cut had first or
    second (its first where it was sure already), surely and closely."""
    coarse = np.array([[1.0, 2.0, 9.0]] * 5)  # coarse: class 0, then 1; class 2 far
    sure, typical = 2 * FINE_ODDS + 1.0, 100.0
    fine = np.array([
        [sure, 0.0, sure + 5.0],  # class 1, sure and close: settled to 1
        [0.0, 5.0, sure],  # class 0 but not sure: left open
        [sure, sure + 5.0, 0.0],  # class 2: the coarse cut never had it
        [sure + 60.0, 60.0, sure + 65.0],  # class 1 but far from it: left open
        [sure, 0.0, sure + 5.0],  # class 1 where the coarse cut was sure of 0: left open
    ])
    best = np.zeros(5, np.int64)
    ok = np.array([False] * 4 + [True])
    named, win, near = settle(coarse, best, ok, fine, typical, Thresholds())
    assert win.tolist() == near.tolist() == [True, False, False, False, False]
    assert int(named[0]) == 1
    # Sure enough to name a read in step (IN_STEP_ODDS), short of settling it (FINE_ODDS).
    step = 2 * IN_STEP_ODDS + 1.0
    named, win, near = settle(coarse[:2], best[:2], ok[:2],
                               np.array([[step, 0.0, sure], [0.0, step - 2.0, sure]]),
                               typical, Thresholds())
    assert win.tolist() == [False, False] and near.tolist() == [True, False]
    assert int(named[0]) == 1


def test_the_fine_cut_vetoes_a_plain_read_only_when_sure_of_another_class() -> None:
    """A read named but not surely is withdrawn when the fine cut names another class at
    the reader's odds or more; a fine cut that agrees, or is itself unsure, leaves it."""
    odds = Thresholds().odds
    fine = np.array([
        [2 * odds + 1.0, 0.0, 50.0],  # class 1, odds over the threshold: vetoed
        [2 * odds - 1.0, 0.0, 50.0],  # class 1, odds under it: kept
        [0.0, 2 * odds + 1.0, 50.0],  # class 0, as read: kept
    ])
    assert against(fine, np.zeros(3, np.int64), odds).tolist() == [True, False, False]


# The style whose calibration the fine cut's tests alter (``_loose_named``).
FINE_STYLE = "2color"


def _loose_named(learned: Deck) -> list[str]:
    """The codes ``learned`` (a calibration of ``FINE_STYLE``, as learned or altered) names
    in the frame of ``FINE_STYLE``'s loose cards, sorted."""
    found = CardReader(learned, second_look=False).read(_loose_cards(FINE_STYLE))
    return sorted(i.code for i in found if i.code)


def test_the_fine_cut_vetoes_a_sure_and_clean_read_too() -> None:
    """Every read named is checked at the fine cut, the sure and clean ones too: with the
    deck's fine suits shifted one class over, so that the fine cut names each loose clean
    card's suit surely as another, none of those cards is named; with them as learned,
    all are (``test_loose_clean_cards_are_read``)."""
    learned = deck(FINE_STYLE)
    assert learned.fine_suits is not None
    shifted = dataclasses.replace(
        learned, fine_suits=dataclasses.replace(
            learned.fine_suits, means=np.roll(learned.fine_suits.means, 1, axis=0)))
    assert _loose_named(shifted) == []
    assert _loose_named(learned) == sorted(LOOSE)


def test_a_read_whose_rank_strays_at_the_fine_cut_is_withdrawn() -> None:
    """A read is withdrawn where the fine cut finds its own rank further than the limit from
    its class, whichever class the fine cut prefers; at the limit or closer it stands."""
    limit = 4.0
    fine = np.array([
        [limit + 0.5, 9.0, 9.0],  # its class 0 beyond the limit, though nearest: withdrawn
        [limit, 9.0, 9.0],  # at the limit: stands
        [9.0, 1.0, 0.0],  # its class 1 within it, class 2 nearer: stands
        [9.0, 0.0, limit + 1.0],  # its class 2 beyond it: withdrawn
    ])
    best = np.array([0, 0, 1, 2], np.int64)
    assert strays(fine, best, limit).tolist() == [True, False, False, True]


def test_the_fine_cut_withdraws_a_sure_read_whose_rank_it_finds_loose() -> None:
    """A read named plainly must find its rank close at the fine cut too
    (``naming.FINE_RANK_FIT``): with the deck's fine ranks held to a hundredth of their
    learned spread, every loose clean card's rank strays there and none is named; as
    learned, all are (``test_loose_clean_cards_are_read``)."""
    learned = deck(FINE_STYLE)
    assert learned.fine_ranks is not None
    tight = dataclasses.replace(
        learned, fine_ranks=dataclasses.replace(
            learned.fine_ranks, typical=learned.fine_ranks.typical / 100))
    assert _loose_named(tight) == []
    assert _loose_named(learned) == sorted(LOOSE)


def test_a_deck_holding_its_ranks_closer_withdraws_what_its_limit_finds_loose() -> None:
    """A deck's own limit on the fine cut's rank fit (``Deck.fine_rank_fit``, chosen by
    ``trial.in_light``) replaces ``naming.FINE_RANK_FIT``: held to a hundredth of it, every
    loose clean card's rank strays and none is named; held to ``FINE_RANK_FIT`` itself, all
    are, as with no limit of its own."""
    learned = deck(FINE_STYLE)
    assert learned.fine_rank_fit is None
    assert _loose_named(dataclasses.replace(learned, fine_rank_fit=FINE_RANK_FIT / 100)) == []
    assert _loose_named(dataclasses.replace(learned, fine_rank_fit=FINE_RANK_FIT)) == sorted(
        LOOSE)


def test_the_fine_cut_reads_no_worse() -> None:
    """On the seeded tables of the style whose thin, large indices it was made for, the deck's
    fine discriminants name no fewer cards and misname none more than the coarse cut alone.
    (They named more until patches kept only their own marks' ink: now the coarse cut names
    as many of these tables' cards, 292 of 294.)"""
    style = "2color-bf"
    full = evaluate(reader(style), faces(style), SCENES, seed=77)
    coarse = dataclasses.replace(deck(style), fine_ranks=None, fine_suits=None)
    alone = evaluate(CardReader(coarse), faces(style), SCENES, seed=77)
    assert full.right >= alone.right, (full.right, alone.right)
    assert full.wrong <= alone.wrong, full.mistakes


def test_the_cards_mask_covers_cards_and_not_the_felt() -> None:
    """The mask the ink is cut from covers each card whole, its pictures and ink included,
    and leaves the felt out; the ink lies inside it."""
    scene = Scene(size=(420, 300))
    face = faces("2color")["Kh"]  # a picture card: dark ink in large patches
    scene.place(face, Pose(210.0, 150.0, 10.0, 150.0 / face.shape[1]), "card")
    image, truth = scene.render(np.random.default_rng(4), STILL)
    ink, cards, _, _ = masks(image)
    quad = np.array(truth[0].corners, np.float64)
    centre = quad.mean(axis=0)
    inner = (centre + 0.8 * (quad - centre)).astype(np.int32)
    body = np.zeros_like(cards)
    cv2.fillPoly(body, [inner], 255)
    assert np.mean(cards[body > 0] > 0) > 0.99
    outer = np.zeros_like(cards)
    cv2.fillPoly(outer, [(centre + 1.15 * (quad - centre)).astype(np.int32)], 255)
    assert not cards[outer == 0].any()
    assert not (ink.astype(bool) & ~cards.astype(bool)).any()


def test_warm_reads_a_frame_of_the_decks_own_faces() -> None:
    """A live table warms its reader at start-up (``CardReader.warm``): that read names the
    deck's cards, so every step of a read ran."""
    assert reader().warm(faces("2color")) >= 40


def test_warm_refuses_too_few_faces_by_count() -> None:
    some = dict(list(faces("2color").items())[:6])
    with pytest.raises(ValueError, match="6 faces"):
        reader().warm(some)


def _all_unlike(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every candidate the reader finds offered as a pair too unlike for a group."""
    find = find_groups

    def unlike(*args: object, **kwargs: object) -> Groups:
        groups = find(*args, **kwargs)  # type: ignore[arg-type]
        return dataclasses.replace(groups, unlike=np.ones(len(groups), np.bool_))

    monkeypatch.setattr(reader_module, "find_groups", unlike)


def test_a_pair_too_unlike_for_a_group_is_named_only_where_the_fine_cut_names_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Loose clean cards offered as such pairs are named, the fine cut naming them too;
    by a deck without the fine cut, none is named."""
    style = "2color-bf"
    image = _loose_cards(style)
    _all_unlike(monkeypatch)
    found = CardReader(deck(style), second_look=False).read(image)
    assert sorted(i.code for i in found if i.code) == sorted(LOOSE)
    coarse = dataclasses.replace(deck(style), fine_ranks=None, fine_suits=None)
    alone = CardReader(coarse, second_look=False).read(image)
    assert [i.code for i in alone if i.code and i.code != "Jk"] == []


def test_a_small_suit_under_a_tall_rank_is_a_pair_too_unlike_for_a_group() -> None:
    """Drawn on paper: a rank 23 pixels tall over a suit 9 across (more unlike than a group
    allows, ``link.SIMILAR``) is one candidate, marked as such a pair; a rank as tall over a
    suit 13 across is a group's."""
    for suit, unlike in ((4, True), (6, False)):
        ink = np.zeros((80, 80), np.uint8)
        ink[20:43, 36:44] = 255  # the rank
        cv2.fillPoly(ink, [np.array([[40, 46], [40 + suit, 46 + suit], [40, 46 + 2 * suit],
                                     [40 - suit, 46 + suit]])], 255)
        groups = find_groups(np.full((80, 80, 3), 255, np.uint8), ink=ink)
        assert len(groups) == 1
        assert groups.unlike is not None and groups.unlike.tolist() == [unlike]
