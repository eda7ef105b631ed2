"""什麼不見啦's ring: zones from the laid cards, the slots, and reading tokens and scenes."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from vision.config import zones_from_cards
from vision.deck import load_deck
from vision.demo_decks import demo_deck
from vision.markers import calibrate
from vision.ring import (
    TOKEN_COLOURS,
    RingWatcher,
    parse_slot_zone,
    ring_of,
    slot_zones,
    upright,
)
from vision.simring import SimRing
from vision.simtable import Conditions, SimulatedTable


@pytest.fixture(scope="module")
def deck() -> Any:
    return load_deck(demo_deck("something-missing-items"))


def _quads(ring: SimRing) -> list[list[tuple[float, float]]]:
    mine = set(ring.scene_handles) | set(ring.memory_handles)
    return [[(float(x), float(y)) for x, y in t.corners] for t in ring.table.truth()
            if t.handle in mine]


@pytest.mark.parametrize("n", [4, 5, 6])
def test_ring_layout_names_positions_clockwise_from_the_top(deck: Any, n: int) -> None:
    table = SimulatedTable(deck, seed=n, conditions=Conditions.clean())
    ring = SimRing.lay(table, n, seed=n)
    zones = zones_from_cards(_quads(ring), f"ring:{n}")
    pairs = ring_of(zones)
    assert len(pairs) == n
    for p, (scene, memory) in enumerate(pairs):
        assert scene.contains(ring.scene_poses[p].x, ring.scene_poses[p].y)
        assert memory.contains(ring.memory_poses[p].x, ring.memory_poses[p].y)
        slots = slot_zones(memory, p)
        assert [parse_slot_zone(z.name) for z in slots] == [(p, s) for s in range(1, 7)]
        # slot 1 top left, 3 top right, 4 bottom left, as the card lies
        c = [(sum(x for x, _ in z.polygon) / 4, sum(y for _, y in z.polygon) / 4)
             for z in slots]
        assert c[0][0] < c[1][0] < c[2][0] and c[0][1] < c[3][1]


def test_ring_layout_says_what_it_expected(deck: Any) -> None:
    table = SimulatedTable(deck, seed=1, conditions=Conditions.clean())
    ring = SimRing.lay(table, 5)
    with pytest.raises(ValueError, match="lay the 5 scene cards and their 5 memory cards"):
        zones_from_cards(_quads(ring)[:-1], "ring:5")
    with pytest.raises(ValueError, match="4/5/6 scenes"):
        zones_from_cards(_quads(ring), "ring:3")
    with pytest.raises(ValueError, match="ring:N"):
        zones_from_cards(_quads(ring), "ring:x")


def test_upright_starts_at_the_top_left_whatever_the_corner_order() -> None:
    card = [(10.0, 10.0), (70.0, 10.0), (70.0, 50.0), (10.0, 50.0)]
    for k in range(4):
        assert upright(card[k:] + card[:k])[0] == (10.0, 10.0)
        assert upright(list(reversed(card[k:] + card[:k])))[0] == (10.0, 10.0)


def _calibrated(deck: Any, cast: str) -> tuple[SimulatedTable, SimRing, Any]:
    """A ring calibrated under a neutral light, then played under ``cast``."""
    table = SimulatedTable(deck, seed=2, conditions=Conditions(noise_sigma=1.5))
    ring = SimRing.lay(table, 5, seed=2)
    pairs = ring_of(ring.zones())
    slots = [z for p, (_s, m) in enumerate(pairs) for z in slot_zones(m, p)]
    before = table.capture().image
    placed = {}
    for i, colour in enumerate(TOKEN_COLOURS):
        ring.put_token(colour, i // 6)
        placed[colour] = f"memory{i // 6 + 1}.{i % 6 + 1}"
    palette = calibrate(before, table.capture().image, slots, placed)
    ring.take_tokens()
    table.set_light(cast=cast, exposure=0.92)
    return table, ring, palette


@pytest.mark.parametrize("cast", ["neutral", "warm", "green"])
def test_each_token_is_read_in_its_slot_and_a_scene_turned_up(deck: Any, cast: str) -> None:
    table, ring, palette = _calibrated(deck, cast)
    watcher = RingWatcher(ring_of(ring.zones()), palette, table.size)
    assert palette.back is not None and watcher.palette.back is None  # slots are never backs
    t = 0

    def frames(k: int = 5) -> list[Any]:
        nonlocal t
        out = []
        for _ in range(k):
            t += 33_333_333
            out += watcher.process(table.capture().image, t)
        return out

    assert [c for c in frames() if c.marker is not None or (c.is_scene and c.face == "up")] == []
    read = {}
    for i, colour in enumerate(TOKEN_COLOURS):
        pos = (i * 2) % 5
        slot = ring.put_token(colour, pos, off=(0.0, 0.45) if i == 3 else (0.0, 0.0))
        for c in frames():
            if not c.is_scene and c.marker is not None:
                read[(c.position, c.slot)] = c.marker
        assert read.get((pos, slot)) == colour, (colour, read)
    assert len(read) == len(TOKEN_COLOURS)  # and nothing else
    table.hand_pass(6, target=(ring.memory_poses[1].x, ring.memory_poses[1].y))
    assert [c for c in frames(8) if c.marker is not None] == []  # a hand passing: no token
    ring.turn_up(3)
    ups = [c for c in frames() if c.is_scene and c.face == "up"]
    assert [c.position for c in ups] == [3]


def test_orange_and_wink_markers_stay_apart() -> None:
    from vision.markers import MARKER_COLOURS, MarkerPalette, too_close

    assert "orange" not in MARKER_COLOURS  # Wink's eight are unchanged
    palette = dataclasses.replace(MarkerPalette.nominal(TOKEN_COLOURS))
    assert too_close(palette) == []


def test_nothing_is_read_before_the_ring_is_laid(deck: Any) -> None:
    table = SimulatedTable(deck, seed=4, conditions=Conditions.clean())
    ring = SimRing.lay(table, 4, seed=4)
    zones = ring_of(ring.zones())
    bare = SimulatedTable(deck, seed=4, conditions=Conditions.clean())  # the table before
    watcher = RingWatcher(zones, None, table.size)
    assert not watcher.laid(bare.capture().image)
    assert watcher.process(bare.capture().image, 1) == []
    assert watcher.laid(table.capture().image)


def test_calibrate_markers_ring_measures_the_seven_tokens(tmp_path: Any, capsys: Any) -> None:
    from tablekeeper.cli import main
    from vision.markers import load_markers

    out = tmp_path / "tokens.json"
    assert main(["vision", "calibrate-markers", "--simulate", "--ring", "--out", str(out)]) == 0
    palette = load_markers(out)
    assert tuple(palette.colours) == TOKEN_COLOURS
    # without a ring in the config, frames alone cannot be read: told, nothing written
    again = tmp_path / "again.json"
    code = main(["vision", "calibrate-markers", "--ring", "--images", str(tmp_path / "a.png"),
                 str(tmp_path / "b.png"), "--out", str(again)])
    assert code == 2 and not again.exists()
    assert "ring:N" in capsys.readouterr().err


@pytest.mark.parametrize("n", [4, 6])
def test_vision_calibrate_finds_the_ring_in_a_frame(tmp_path: Any, deck: Any, n: int,
                                                    capsys: Any) -> None:
    """The command itself: the card finder on a frame of the laid ring (the memory cards'
    other shape included), then the ring layout."""
    import cv2

    from tablekeeper.cli import main

    table = SimulatedTable(deck, seed=n, size=(640, 480), conditions=Conditions.clean())
    ring = SimRing.lay(table, n, seed=n)
    frame = tmp_path / "ring.png"
    cv2.imwrite(str(frame), table.capture().image)
    out = tmp_path / "zones.toml"
    assert main(["vision", "calibrate", "--deck", str(demo_deck("something-missing-items")),
                 "--image", str(frame), "--layout", f"ring:{n}", "--config",
                 str(_camera_config(tmp_path)), "--out", str(out)]) == 0
    import tomllib

    from vision.config import VisionConfig

    zones = VisionConfig.from_dict(tomllib.loads(out.read_text())["vision"]).zones
    pairs = ring_of(zones)
    assert len(pairs) == n
    for p, (scene, memory) in enumerate(pairs):
        assert scene.contains(ring.scene_poses[p].x, ring.scene_poses[p].y)
        assert memory.contains(ring.memory_poses[p].x, ring.memory_poses[p].y)


def _camera_config(tmp_path: Any) -> Any:
    path = tmp_path / "config.toml"
    path.write_text("[camera]\nsize = [640, 480]\n", encoding="utf-8")
    return path
