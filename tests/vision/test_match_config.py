"""VisionConfig: defaults, round trip, and errors that name the key."""

from __future__ import annotations

from typing import Any

import pytest

from vision.config import Thresholds, VisionConfig, Zone


def test_defaults_and_round_trip() -> None:
    c = VisionConfig.from_dict({})
    assert c == VisionConfig()
    raw: dict[str, Any] = {
        "stable_frames": 3,
        "find": {"work_width": 400, "dark_cards": True},
        "match": {"min_score": 0.6, "long_side": 0,
                  "decks": {"the-game-demo": {"min_score": 0.75}}},
        "zones": [{"name": "pile", "polygon": [[0, 0], [10, 0], [10, 10], [0, 10]]}],
    }
    c = VisionConfig.from_dict(raw)
    assert c.stable_frames == 3 and c.find.work_width == 400 and c.find.dark_cards
    assert c.match.long_side is None and c.match.min_score == 0.6
    assert c.thresholds("the-game-demo") == Thresholds(0.75, c.match.min_margin,
                                                       c.match.min_rel_margin)
    assert c.thresholds("other") == Thresholds(0.6, c.match.min_margin, c.match.min_rel_margin)
    assert c.thresholds("demo-the-game").min_score == 0.85  # measured, built in
    assert c.match_params("the-game-demo").min_score == 0.75
    assert VisionConfig.from_dict(c.to_dict()) == c


def test_zone_contains() -> None:
    z = Zone("pile", ((0, 0), (10, 0), (10, 10), (0, 10)))
    assert z.contains(5, 5) and not z.contains(11, 5) and not z.contains(-1, -1)


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ({"stable_frames": 0}, r"vision\.stable_frames: 0 is not in 1\.\.100"),
        ({"stable_frames": "2"}, r"vision\.stable_frames: '2' is not an integer"),
        ({"stable_frames": True}, r"vision\.stable_frames: True is not an integer"),
        ({"find": {"work_width": 10}}, r"vision\.find\.work_width: 10 is not in 64\.\.4096"),
        ({"find": {"colour": 1}}, r"vision\.find\.colour: unknown key"),
        ({"find": {"dark_cards": 1}}, r"vision\.find\.dark_cards: 1 is not true or false"),
        ({"match": {"min_score": 3}}, r"vision\.match\.min_score: 3\.0 is not in -1\.\.1"),
        ({"match": {"min_margin": "x"}}, r"vision\.match\.min_margin: 'x' is not a number"),
        ({"match": {"decks": {"d": {"min_score": 9}}}},
         r"vision\.match\.decks\.d\.min_score: 9 is not in -1\.\.1"),
        ({"match": {"decks": {"d": {"x": 1}}}}, r"vision\.match\.decks\.d\.x: unknown key"),
        ({"zones": {}}, r"vision\.zones: expected a list"),
        ({"zones": [{"name": "a", "polygon": [[0, 0], [1, 1]]}]},
         r"vision\.zones\[0\]\.polygon: expected a list of at least 3"),
        ({"zones": [{"name": "a", "polygon": [[0, 0], [1, 1], [1]]}]},
         r"vision\.zones\[0\]\.polygon\[2\]: \[1\] is not an \[x, y\] point"),
        ({"zones": [{"name": "", "polygon": [[0, 0], [1, 1], [1, 0]]}]},
         r"vision\.zones\[0\]\.name"),
        ({"zones": [{"name": "a", "polygon": [[0, 0], [1, 1], [1, 0]]},
                    {"name": "a", "polygon": [[0, 0], [1, 1], [1, 0]]}]},
         r"vision\.zones: the name 'a' is used twice"),
        ({"nonsense": 1}, r"vision\.nonsense: unknown key"),
        ([], r"vision: expected a table"),
    ],
)
def test_errors_name_the_key(raw: Any, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        VisionConfig.from_dict(raw)


def test_a_deck_may_set_its_own_alignment_and_twin_thresholds() -> None:
    raw: dict[str, Any] = {"match": {"twin_side": 192, "decks": {
        "set-real": {"min_score": 0.7, "min_aligned": 0.75, "min_twin_margin": 0.2}}}}
    c = VisionConfig.from_dict(raw)
    p = c.match_params("set-real")
    assert (p.min_score, p.min_aligned, p.min_twin_margin, p.twin_side) == (0.7, 0.75, 0.2, 192)
    q = c.match_params("other")  # the section's defaults
    assert (q.min_aligned, q.min_twin_margin) == (c.match.min_aligned, c.match.min_twin_margin)
    assert VisionConfig.from_dict(c.to_dict()) == c
    with pytest.raises(ValueError, match=r"decks\.set-real\.min_aligned"):
        VisionConfig.from_dict({"match": {"decks": {"set-real": {"min_aligned": 2}}}})
    with pytest.raises(ValueError, match=r"vision\.match\.twin_trigger"):
        VisionConfig.from_dict({"match": {"twin_trigger": -1}})


def test_per_deck_mean_and_twin_size() -> None:
    raw = {"match": {"decks": {"mine": {"min_score": 0.7, "subtract_mean": False,
                                        "twin_side": 200}}}}
    c = VisionConfig.from_dict(raw)
    p = c.match_params("mine")
    assert p.subtract_mean is False and p.twin_side == 200 and p.min_score == 0.7
    assert c.match_params("other").subtract_mean is True
    assert VisionConfig.from_dict(c.to_dict()) == c
    with pytest.raises(ValueError, match="subtract_mean"):
        VisionConfig.from_dict({"match": {"decks": {"mine": {"subtract_mean": "no"}}}})
    with pytest.raises(ValueError, match="twin_side"):
        VisionConfig.from_dict({"match": {"decks": {"mine": {"twin_side": 8}}}})


def test_per_deck_max_fit_for_decks_of_numbers() -> None:
    c = VisionConfig.from_dict({"match": {"decks": {"mine": {"max_fit": 0.2}}}})
    assert c.match_params("mine").max_fit == 0.2
    assert c.match_params("other").max_fit == 0.0  # (off unless asked for)
    assert c.match_params("demo-the-game").max_fit > 0  # (the demo deck of numbers)
    assert VisionConfig.from_dict(c.to_dict()) == c
    with pytest.raises(ValueError, match=r"decks\.mine\.max_fit"):
        VisionConfig.from_dict({"match": {"decks": {"mine": {"max_fit": -1}}}})
    with pytest.raises(ValueError, match="max_fit"):
        VisionConfig.from_dict({"match": {"max_fit": 11}})


def test_colour_only_style_is_compared_without_the_deck_mean() -> None:
    from vision.config import STYLE_THRESHOLDS

    c = VisionConfig(deck_thresholds=dict(STYLE_THRESHOLDS))
    assert c.match_params("style-colour-only").subtract_mean is False
    assert c.match_params("style-suits").subtract_mean is True
