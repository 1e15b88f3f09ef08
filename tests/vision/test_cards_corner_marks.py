"""A joker's corner mark (``vision.cards.corner_marks``): a joker with a mark where the
indices lie is learned by it, and one whose mark cannot be told from an index is refused."""

from __future__ import annotations

import numpy as np
import pytest

from tests.vision.conftest import deck, starred_deck, starred_faces
from vision.cards import calibrate, card_face, corner_marks, strips
from vision.cards.calibrate import UnusableFaces
from vision.scene import Camera

QUIET_CAMERA = Camera(tilt=0.0, light=(1.0, 1.0), glare=(0, 0.0), blur=(0.5, 0.5),
                      noise=(1.0, 1.0))


def test_a_joker_with_a_star_where_the_indices_lie_is_learned_by_that_mark() -> None:
    """A joker with a star printed in its corner, where the other faces print their index,
    is learned by that mark: found by its strip, named only where the star shows
    (``corner_marks.learn_marks``), its two templates (upright, turned) cut in the corner where
    the indices lie, and the star shows there on the joker and on no other face."""
    made = starred_deck()
    assert made.strip_codes == made.marked == ("Jk",)
    assert len(made.marks) == 2 and made.mark_box == corner_marks.mark_box(made.blank)
    assert 0.0 < made.mark_accept < 1.0
    rng = np.random.default_rng(3)
    given = starred_faces()
    for code in ("Jk", "9h", "Ad", "Kc"):
        views = corner_marks._views(card_face(given[code]), rng, QUIET_CAMERA, 4, jitter=False)
        scores = [corner_marks.mark_score(*v, made.mark_box, made.marks[0]) for v in views]
        assert (min(scores) >= made.mark_accept) == (code == "Jk"), (code, scores)


def test_a_joker_whose_corner_mark_another_face_shows_too_is_refused_naming_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A mark that another face shows in its corner too (here a 2h printing the joker's
    star over its index) cannot tell the joker from that card: ``learn_marks`` names the
    joker unusable, and the calibration refuses it by name."""
    given = starred_faces()
    box = deck("2color").blank
    cards = {"Jk": card_face(given["Jk"]), "2h": card_face(given["2h"]).copy()}
    w = cards["2h"].shape[1]
    rows, cols = slice(0, int(0.35 * w)), slice(0, int(0.22 * w))
    cards["2h"][rows, cols] = cards["Jk"][rows, cols]
    aspect = cards["Jk"].shape[0] / cards["Jk"].shape[1]
    templates, _ = strips.learn(cards, ["Jk"], aspect, np.random.default_rng(0), samples=4)
    learned = corner_marks.learn_marks(cards, ["Jk"], box, ["2h"], np.random.default_rng(0),
                                       templates, aspect, samples=8)
    assert learned.unusable == ["Jk"]
    learned = corner_marks.learn_marks({**cards, "2h": card_face(given["2h"])}, ["Jk"], box,
                                       ["2h"], np.random.default_rng(0), templates, aspect,
                                       samples=8)
    assert learned.unusable == []
    learn = corner_marks.learn_marks
    monkeypatch.setattr(corner_marks, "learn_marks",
                        lambda *a, **k: learn(*a, **k)._replace(unusable=["Jk"]))
    with pytest.raises(UnusableFaces, match=r"Jk shows no corner index, yet has ink") as err:
        calibrate(given, name="starred", rounds=6)
    assert err.value.faces == ("Jk",)


def test_a_mark_and_a_strip_name_a_face_together_only_above_what_probes_reach_of_both(
        ) -> None:
    """The scores that name a marked face by its mark and its strip together
    (``corner_marks.both``) are each reached by one probe in a thousand (``BOTH``), and are
    none where a probe reaches both: there the two would not tell the face from a corner
    that went unread."""
    rng = np.random.default_rng(4)
    scores = np.stack([rng.uniform(0.0, 0.8, 5000), rng.uniform(0.0, 0.7, 5000)], axis=1)
    mark, strip = corner_marks.both(scores)
    assert mark == pytest.approx(np.quantile(scores[:, 0], corner_marks.BOTH))
    assert strip == pytest.approx(np.quantile(scores[:, 1], corner_marks.BOTH))
    assert 0.79 < mark < 0.8 and 0.69 < strip < 0.7
    assert not ((scores[:, 0] >= mark) & (scores[:, 1] >= strip)).any()
    assert corner_marks.both(np.vstack([scores, [[0.8, 0.7]]])) == (1.0, 1.0)
    assert corner_marks.both(np.zeros((0, 2))) == (1.0, 1.0)


def test_the_starred_deck_learns_a_lower_mark_to_name_its_joker_with_its_strip() -> None:
    """The starred deck's joker is named by its mark and strip together at a lower mark
    score than by its mark alone, and at a strip score its own renders reach: a star the
    camera blurs or tints still names it where its strip shows it too."""
    made = starred_deck()
    mark, strip = made.mark_both
    assert mark < made.mark_accept and strip < 1.0
    rng = np.random.default_rng(8)
    face = card_face(starred_faces()["Jk"])
    views = corner_marks._views(face, rng, QUIET_CAMERA, 8, jitter=True)
    reached = [strips.strip_score(*v, made.aspect, made.strips[:2]) for v in views]
    assert min(reached) >= strip, reached
