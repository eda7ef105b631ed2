"""Zones of the table from cards laid at the zone positions (calibration geometry)."""

from __future__ import annotations

import pytest

from vision.config import VisionConfig, zones_from_cards, zones_toml


def _card(cx: float, cy: float, w: float = 40, h: float = 60) -> list[tuple[float, float]]:
    return [(cx - w / 2, cy - h / 2), (cx + w / 2, cy - h / 2), (cx + w / 2, cy + h / 2),
            (cx - w / 2, cy + h / 2)]


def test_grid_from_the_four_corner_cards() -> None:
    corners = [_card(100, 100), _card(500, 100), _card(100, 400), _card(500, 400)]
    zones = zones_from_cards(corners, "grid:6x6")
    assert len(zones) == 36 and zones[0].name == "r1c1" and zones[-1].name == "r6c6"
    assert zones[0].contains(100, 100) and zones[35].contains(500, 400)
    by_name = {z.name: z for z in zones}
    assert by_name["r1c2"].contains(180, 100)  # columns 80 px apart
    assert by_name["r2c1"].contains(100, 160)  # rows 60 px apart
    assert not by_name["r1c1"].contains(180, 100)


def test_grid_from_every_card_in_reading_order() -> None:
    cards = [_card(100 + 90 * c, 100 + 100 * r) for r in range(2) for c in range(3)][::-1]
    zones = zones_from_cards(cards, "grid:2x3")
    assert [z.name for z in zones] == ["r1c1", "r1c2", "r1c3", "r2c1", "r2c2", "r2c3"]
    assert zones[0].contains(100, 100) and zones[5].contains(280, 200)


def test_pile_cards_and_names() -> None:
    (pile,) = zones_from_cards([_card(300, 200)], "pile", grow=2.0)
    assert pile.contains(300 + 35, 200) and not pile.contains(300 + 45, 200)
    zones = zones_from_cards([_card(400, 100), _card(100, 100)], "cards", ["b", "a"])
    assert [(z.name, z.contains(100, 100)) for z in zones] == [("b", True), ("a", False)]
    rows = zones_from_cards([_card(100, 300), _card(100, 100)], "rows:2")
    assert rows[0].contains(100, 100)  # one above the other: top to bottom


def test_toml_round_trip() -> None:
    import tomllib

    zones = zones_from_cards([_card(100, 100), _card(300, 100)], "cards", ['the "pile"', "b"])
    cfg = VisionConfig.from_dict(tomllib.loads(zones_toml(zones))["vision"])
    assert [z.name for z in cfg.zones] == ['the "pile"', "b"]


@pytest.mark.parametrize(
    ("n", "layout", "message"),
    [(2, "pile", "exactly 1 card"), (3, "rows:4", r"one card per row \(4\); found 3"),
     (3, "grid:6x6", "lay all 36 cards, or the 4"), (1, "rows:x", "expected rows:N"),
     (1, "grid:6", "expected grid:RxC"), (1, "hexagon", "is not one of"),
     (0, "cards", "no cards")],
)
def test_wrong_number_of_cards(n: int, layout: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        zones_from_cards([_card(100 + 100 * i, 100) for i in range(n)], layout)
