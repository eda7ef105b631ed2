"""Markers and cell faces on the simulated 6x6 grid (vision.markers), per colour, under colour
casts, half off a card, under a hand, and an unknown or a missing marker."""

from __future__ import annotations

import pytest

from vision.config import Zone
from vision.markerbench import SimGrid, calibrated, wink_deck
from vision.markers import (
    MARKER_COLOURS,
    UNKNOWN,
    GridReader,
    GridWatcher,
    MarkerPalette,
)
from vision.simmarkers import ODD_BGR, place_marker
from vision.simtable import Conditions

CELLS = ("r1c2", "r2c5", "r3c3", "r4c1", "r4c6", "r5c4", "r6c2", "r6c5")


@pytest.fixture(scope="module")
def deck():  # type: ignore[no-untyped-def]
    return wink_deck()


@pytest.fixture(scope="module")
def table_setup(deck):  # type: ignore[no-untyped-def]
    """Zones and palette calibrated once, under the table's (neutral) light."""
    return calibrated(deck, 1, Conditions(surface="cloth"))


def _watch(g: SimGrid, zones: tuple[Zone, ...], palette: MarkerPalette,
           frames: int = 3) -> GridWatcher:
    w = GridWatcher(GridReader(zones, palette, g.table.size))
    first = g.table.capture()
    w.set_references(first.image)
    w.process(first.image, first.t_ns)
    for _ in range(frames - 1):
        f = g.table.capture()
        w.process(f.image, f.t_ns)
    return w


def _frames(g: SimGrid, w: GridWatcher, n: int = 4) -> None:
    for _ in range(n):
        f = g.table.capture()
        w.process(f.image, f.t_ns)


@pytest.mark.parametrize("cast", ["neutral", "warm", "cool", "green"])
def test_all_eight_markers_under_a_colour_cast(deck, table_setup, cast: str) -> None:  # type: ignore[no-untyped-def]
    zones, palette = table_setup
    g = SimGrid.lay(deck, seed=20, conditions=Conditions(surface="cloth", cast=cast,
                                                         noise_sigma=2.0, exposure=0.92))
    w = _watch(g, zones, palette)
    assert all(v == ("up", None) for v in w.settled().values())
    for colour, zone in zip(MARKER_COLOURS, CELLS, strict=True):
        g.put(colour, zone)
    _frames(g, w)
    settled = w.settled()
    for colour, zone in zip(MARKER_COLOURS, CELLS, strict=True):
        assert settled[zone] == ("up", colour), (cast, colour)
    assert sum(1 for _f, m in settled.values() if m is not None) == 8


def test_a_marker_half_off_its_card(deck, table_setup) -> None:  # type: ignore[no-untyped-def]
    zones, palette = table_setup
    g = SimGrid.lay(deck, seed=21, conditions=Conditions(surface="wood", noise_sigma=1.5))
    w = _watch(g, zones, palette)
    g.put("blue", "r3c4", off=(0.5, 0.0))
    g.put("white", "r5c2", off=(-0.5, 0.0))
    g.put("black", "r2c2", off=(0.5, 0.0))
    _frames(g, w)
    s = w.settled()
    assert s["r3c4"] == ("up", "blue")
    assert s["r5c2"] == ("up", "white")
    assert s["r2c2"] == ("up", "black")


def test_faces_down_and_empty_cells(deck, table_setup) -> None:  # type: ignore[no-untyped-def]
    zones, palette = table_setup
    g = SimGrid.lay(deck, seed=22, conditions=Conditions(surface="dark", cast="warm"))
    w = _watch(g, zones, palette)
    g.turn_down("r2c3")
    g.take("r5c5")
    g.put("green", "r5c5")  # a caught seeker's marker stays on the emptied cell
    _frames(g, w)
    s = w.settled()
    assert s["r2c3"] == ("down", None)
    assert s["r5c5"] == ("empty", "green")
    assert sum(1 for f, _m in s.values() if f == "up") == 34


def test_a_hand_over_the_grid_changes_nothing(deck, table_setup) -> None:  # type: ignore[no-untyped-def]
    zones, palette = table_setup
    g = SimGrid.lay(deck, seed=23, conditions=Conditions(surface="cloth", cast="cool"))
    w = _watch(g, zones, palette)
    g.put("red", "r3c3")
    g.put("brown", "r4c4")
    _frames(g, w)
    before = w.settled()
    changes = []
    g.table.hand_pass(10, target=(g.poses["r3c3"].x, g.poses["r3c3"].y))
    for _ in range(10):
        f = g.table.capture()
        changes += w.process(f.image, f.t_ns)
    _frames(g, w, 3)
    assert w.settled() == before
    assert changes == []  # the hand never read as a marker or a face for 3 frames


def test_an_unknown_marker_is_reported(deck, table_setup) -> None:  # type: ignore[no-untyped-def]
    zones, palette = table_setup
    g = SimGrid.lay(deck, seed=24, conditions=Conditions(surface="cloth"))
    w = _watch(g, zones, palette)
    place_marker(g.table, ODD_BGR, g.poses["r2c4"])
    _frames(g, w)
    assert w.settled()["r2c4"] == ("up", UNKNOWN)


def test_a_marker_taken_away_is_reported_missing(deck, table_setup) -> None:  # type: ignore[no-untyped-def]
    zones, palette = table_setup
    g = SimGrid.lay(deck, seed=25, conditions=Conditions(surface="cloth"))
    w = _watch(g, zones, palette)
    g.put("purple", "r1c1")
    _frames(g, w)
    assert w.settled()["r1c1"] == ("up", "purple")
    g.lift("purple")
    changes = []
    for _ in range(4):
        f = g.table.capture()
        changes += w.process(f.image, f.t_ns)
    assert [(c.zone, c.face, c.marker) for c in changes] == [("r1c1", "up", None)]


def test_palette_round_trips_and_names_bad_keys(table_setup) -> None:  # type: ignore[no-untyped-def]
    _zones, palette = table_setup
    again = MarkerPalette.from_dict(palette.to_dict())
    assert set(again.colours) == set(MARKER_COLOURS)
    assert again.grey is not None and again.back is not None
    with pytest.raises(ValueError, match=r"markers\.colours"):
        MarkerPalette.from_dict({})
    with pytest.raises(ValueError, match=r"markers\.colours\.red"):
        MarkerPalette.from_dict({"colours": {"red": [1, 2]}})


def test_reader_refuses_a_frame_of_another_size(table_setup) -> None:  # type: ignore[no-untyped-def]
    import numpy as np

    zones, palette = table_setup
    reader = GridReader(zones, palette, (640, 480))
    with pytest.raises(ValueError, match="calibrated"):
        reader.read(np.zeros((240, 320, 3), np.uint8))
    with pytest.raises(ValueError, match="no grid zones"):
        GridReader((), palette)


def test_many_cards_turned_or_taken_read_no_marker(deck, table_setup) -> None:  # type: ignore[no-untyped-def]
    """Late in a game many cells are backs or bare table: the light is still read right (from
    the face-up cards against their own pictures), so no card reads as a marker."""
    zones, palette = table_setup
    g = SimGrid.lay(deck, seed=26, conditions=Conditions(surface="cloth", cast="warm"))
    w = _watch(g, zones, palette)
    for zone in ("r1c1", "r1c2", "r2c2", "r2c3", "r3c1", "r3c5", "r4c4", "r5c6"):
        g.turn_down(zone)
    for zone in ("r1c6", "r2c6", "r3c6", "r5c1", "r6c1", "r6c6"):
        g.take(zone)
    g.put("yellow", "r4c2")
    _frames(g, w, 6)
    s = w.settled()
    assert [z for z, (_f, m) in s.items() if m is not None] == ["r4c2"]
    assert sum(1 for f, _m in s.values() if f == "down") == 8
    assert sum(1 for f, _m in s.values() if f == "empty") == 6


def test_the_last_few_face_up_cards_keep_the_light(deck, table_setup) -> None:  # type: ignore[no-untyped-def]
    """The end of a game: three face-up cards without a marker are left, the rest are backs,
    bare table or carry a marker. The light is not then taken from the grid's median against
    the calibration's (which the backs and the table make far darker: every gain went to
    its 3.0 ceiling and every marker read white, the demo's six spurious white markers); it
    is kept from the table around the grid against its own picture."""
    zones, palette = table_setup
    g = SimGrid.lay(deck, seed=27, conditions=Conditions(surface="cloth", cast="warm",
                                                         noise_sigma=1.5, gradient=0.1))
    w = _watch(g, zones, palette)
    zones_all = list(g.poses)
    marked = {"r2c3": "red", "r4c4": "yellow", "r5c2": "blue", "r6c5": "brown"}
    plain = ("r1c1", "r3c6", "r6c1")
    rest = [z for z in zones_all if z not in marked and z not in plain]
    for i, zone in enumerate(rest):
        if i % 3 == 0:
            g.turn_down(zone)
        else:
            g.take(zone)
    for zone, colour in marked.items():
        g.put(colour, zone)
    _frames(g, w, 12)
    s = w.settled()
    assert {z: m for z, (_f, m) in s.items() if m is not None} == marked
    assert all(s[z] == ("up", None) for z in plain)
