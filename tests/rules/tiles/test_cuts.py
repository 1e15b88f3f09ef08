"""The named Pai Gow cuts of docs/sources.md [D1] (l.29-64): names, options, text and JSON forms."""

from __future__ import annotations

from itertools import product
from pathlib import Path

import pytest

from controller.rules.errors import RulesError
from controller.rules.tiles.cuts import CUTS, Cut, CutError, cut_catalog, find_cut

# What the source document lists, line by line (docs/sources.md [D1]), kept as the project's data.
LISTED = Path(__file__).parents[2] / "golden" / "tiles" / "cuts.txt"


def every_cut() -> list[Cut]:
    out = []
    for spec in CUTS:
        for values in product(*(values for _, values in spec.options)):
            out.append(Cut.of(spec.key, dict(zip((o for o, _ in spec.options), values,
                                                 strict=True))))
    return out


def test_the_twenty_cuts_of_the_seed() -> None:
    assert len(CUTS) == 20
    assert len({spec.key for spec in CUTS}) == 20
    assert [spec.english for spec in CUTS][:3] == ["One Stack", "Tiger", "Chop the Ears"]
    assert CUTS[-1].traditional == "Gum Un Que" and CUTS[-1].english == "Double Bridge"
    options = {spec.key: [o for o, _ in spec.options] for spec in CUTS}
    assert options["cup-say"] == ["side", "level"]  # l.34-35: Right or Left, Top or Bottom
    assert options["chee-yee"] == ["level"] and options["foot-say"] == []
    assert sum(1 for opts in options.values() if not opts) == 8


def test_each_cut_is_named_as_its_source_lists_it() -> None:
    rows = [[f.strip() for f in line.split("|")]
            for line in LISTED.read_text(encoding="utf-8").splitlines() if not line.startswith("#")]
    assert len(rows) == len(CUTS)
    for spec, (line, traditional, english, options) in zip(CUTS, rows, strict=True):
        assert (spec.line, spec.traditional, spec.english) == (int(line), traditional, english)
        listed = [] if options == "-" else [tuple(o.split("/")) for o in options.split(";")]
        assert [tuple(values) for _, values in spec.options] == listed, spec.key


def test_no_public_source_gives_a_stack_order_so_every_cut_is_recorded_only() -> None:
    assert all(cut.effect is None for cut in every_cut())
    assert Cut.parse("tiger:left,top").to_json()["effect"] == "recorded only"


def test_text_and_json_round_trip_for_every_cut_and_option() -> None:
    cuts = every_cut()
    assert len(cuts) == 8 + 9 * 2 + 2 * 2 + 4  # plain, right/left, top/bottom, Cup Say both
    for cut in cuts:
        assert Cut.parse(str(cut)) == cut
        assert Cut.from_json(cut.to_json()) == cut


@pytest.mark.parametrize(("text", "expected"), [
    ("tiger:left,bottom", "cup-say:left,bottom"),
    ("Cup Say: BOTTOM, left", "cup-say:left,bottom"),
    ("Phoenix Tail:right", "long-tau-fong-may:right"),
    ("four across", "foot-say"),
    ("double bridge:left", "gum-un-que:left"),
])
def test_names_in_either_language(text: str, expected: str) -> None:
    assert str(Cut.parse(text)) == expected


@pytest.mark.parametrize(("text", "named"), [
    ("shuffle", "unknown cut 'shuffle'"),
    ("tiger:left", "needs its level: top or bottom"),
    ("tiger:left,up", "unknown option 'up'"),
    ("tiger:left,right,top", "side given twice"),
    ("foot-say:left", "it takes no options"),
    ("", "NAME[:OPTIONS]"),
])
def test_bad_cuts_name_the_offending_value(text: str, named: str) -> None:
    with pytest.raises(CutError) as err:
        Cut.parse(text)
    assert named in str(err.value)
    assert isinstance(err.value, RulesError)


def test_options_given_as_a_mapping_are_checked() -> None:
    with pytest.raises(CutError, match="side 'up' is not one of"):
        Cut.of("one stack", {"side": "up"})
    with pytest.raises(CutError, match="has no option 'level'"):
        Cut.of("one stack", {"side": "left", "level": "top"})
    assert find_cut("Dragon Head") is find_cut("long tau")


def test_the_catalog_offers_every_cut_with_its_choices() -> None:
    listed = cut_catalog()
    assert [c["cut"] for c in listed] == [spec.key for spec in CUTS]
    tiger = listed[1]
    assert tiger["english"] == "Tiger" and tiger["options"] == {
        "side": ["right", "left"], "level": ["top", "bottom"]}
    assert all(c["effect"] == "recorded only" for c in listed)
    for c in listed:  # every combination of the listed choices is a valid cut
        assert Cut.of(c["cut"], {o: v[0] for o, v in c["options"].items()})
