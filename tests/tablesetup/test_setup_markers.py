"""Issue 28, "Wink's markers": the markers step on the simulated table, driven by its wants
and host actions only; the same measurement as `vision calibrate-markers`; the faults: no
grid yet, a colour not laid, one colour laid twice, the camera gone, a file that cannot be
written."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from display.input import HostAction
from tablekeeper.tablesetup import markers as markers_step
from tablekeeper.tablesetup.markers import MarkersStep
from tablekeeper.tablesetup.simzones import SimZones
from tablekeeper.tablesetup.step import StepContext, StepStatus
from vision.camera import CameraConfig
from vision.deck import Deck
from vision.markers import MARKER_COLOURS, load_markers, measure_palette
from vision.simmarkers import place_marker, sim_grid_zones, sim_table

DemoDecks = Callable[[str], Deck]
FRAME_NS = 300_000_000
CAMERA = CameraConfig.from_dict({})


class Run:
    """The simulated host and table: frames in, wants done, *confirm* pressed."""

    def __init__(self, deck: Deck, step: MarkersStep, seed: int = 1) -> None:
        self.table = sim_table(deck, CameraConfig.from_dict({"sim_seed": seed}))
        self.hands = SimZones(self.table, "grid:6x6", deck.ids)
        self.step = step
        self.t = 0

    def frame(self) -> None:
        self.t += FRAME_NS
        self.step.frame(self.table.capture().image, self.t)

    def until(self, phase: str, limit: int = 40, skip: Callable[[str], bool] = lambda c: False
              ) -> None:
        for _ in range(limit):
            if self.step.phase == phase:
                return
            self.frame()
            want = self.step.wants()
            if want.kind == "confirm":
                self.step.act(HostAction(want.action), self.t)
            elif want.kind == "marker" and want.colour is not None and skip(want.colour):
                self.step.act(HostAction("confirm"), self.t)  # the host confirms anyway
            else:
                self.hands.act(want)
        raise AssertionError(f"stuck in {self.step.phase}: {self.step.problem}")


def test_lay_measure_save_as_the_cli_measures(tmp_path: Path, demo_decks: DemoDecks) -> None:
    deck = demo_decks("wink")
    zones = sim_grid_zones(deck, CAMERA)
    out = tmp_path / "markers.json"
    step = MarkersStep(zones, out, camera_size=CAMERA.size, title="眨眨眼")
    run = Run(deck, step)
    assert step.phase == "before" and not step.ready  # no frame yet
    run.frame()
    assert step.wants().kind == "cards_in_zones" and len(step.wants().zones) == 36
    run.until("after")
    assert step.before is not None
    before = step.before
    run.until("result")
    view = step.view()
    assert set(view.measured) == set(MARKER_COLOURS)
    assert view.seen >= {*MARKER_COLOURS, "back"}
    assert view.shown is not None and len(view.shown.boxes) == 9
    assert step.image is not None
    assert step.palette == measure_palette(before, step.image, step.cells, step.placed,
                                           back_zone="r6c6")  # one implementation
    run.until("saved")
    assert step.done
    assert load_markers(out, CAMERA.size).colours.keys() == set(MARKER_COLOURS)
    assert json.loads(out.read_text("utf-8"))["grid"][0] == "r1c1"


def test_a_colour_not_laid_is_named_then_found(tmp_path: Path, demo_decks: DemoDecks) -> None:
    deck = demo_decks("wink")
    step = MarkersStep(sim_grid_zones(deck, CAMERA), tmp_path / "m.json")
    run = Run(deck, step, seed=2)
    run.until("after")
    with pytest.raises(AssertionError, match="stuck in after"):
        run.until("result", limit=12, skip=lambda c: c in ("white", "black"))
    assert step.problem == "setup.markers.missing"
    assert step.params["missing"] == "black on r2c1, white on r2c2"
    assert step.wants().kind == "marker" and step.wants().colour == "black"
    run.until("result")  # laid now: measured
    assert step.problem is None


def test_one_colour_laid_twice_is_named(tmp_path: Path, demo_decks: DemoDecks) -> None:
    deck = demo_decks("wink")
    zones = sim_grid_zones(deck, CAMERA)
    step = MarkersStep(zones, tmp_path / "m.json", colours=("red", "yellow", "blue"))
    run = Run(deck, step, seed=3)
    run.until("after")
    # red where red goes, and red again where yellow goes (the host took the wrong one)
    place_marker(run.table, "red", run.hands.cells["r1c1"])
    place_marker(run.table, "red", run.hands.cells["r1c2"])
    place_marker(run.table, "blue", run.hands.cells["r1c3"])
    run.table.place_back(run.hands.cells["r6c6"])
    run.frame()
    assert step.seen == {"red", "yellow", "blue", "back"}
    step.act(HostAction("confirm"), run.t)
    assert step.phase == "after" and step.problem == "setup.markers.too_close"
    assert {step.params["a"], step.params["b"]} == {"red", "yellow"}
    step.act(HostAction("markers.again"), run.t)  # start over
    assert step.phase == "before" and step.problem is None


def test_no_grid_no_camera_and_an_unwritable_file(tmp_path: Path,
                                                  demo_decks: DemoDecks) -> None:
    deck = demo_decks("wink")
    none = MarkersStep((), tmp_path / "m.json")
    assert none.phase == "need_zones" and none.view().problem == "setup.markers.no_grid"
    none.act(HostAction("confirm"), 0)
    assert none.phase == "need_zones"
    none.act(HostAction("back"), 0)
    assert none.left
    blocked = tmp_path / "a-file"
    blocked.write_text("x")
    step = MarkersStep(sim_grid_zones(deck, CAMERA), blocked / "m.json")
    run = Run(deck, step, seed=4)
    run.until("after")
    step.frame(None, run.t + 1)
    assert step.problem == "setup.markers.no_camera" and not step.ready
    step.act(HostAction("confirm"), run.t)
    assert step.phase == "after"  # nothing measured without a picture
    run.until("result")  # frames again: goes on
    step.act(HostAction("confirm"), run.t)
    assert step.problem == "setup.config.unwritable" and not step.done
    assert step.palette is not None  # kept, to save once the folder is fixed
    blocked.unlink()
    step.act(HostAction("confirm"), run.t)
    assert step.done and (blocked / "m.json").exists()


def test_status_and_make_read_the_config_file(tmp_path: Path, demo_decks: DemoDecks) -> None:
    from tablekeeper import games
    from tablekeeper.config import Config
    from tablekeeper.tablesetup.configedit import save_zones

    path = tmp_path / "config.toml"
    path.write_text("# box\n", encoding="utf-8")
    ctx = StepContext("wink", games.load("wink"), Config(), path, tmp_path / "deck")
    assert markers_step.status(ctx) is StepStatus.OPTIONAL
    assert markers_step.make(ctx).phase == "need_zones"
    save_zones(path, sim_grid_zones(demo_decks("wink"), CAMERA))
    step = markers_step.make(ctx)
    assert step.phase == "before" and step.out == tmp_path / "markers.json"
    other = StepContext("the-game", games.load("the-game"), Config(), path, tmp_path / "d")
    assert markers_step.status(other) is StepStatus.DONE  # no markers in The Game


def test_the_ring_and_its_tokens(tmp_path: Path, demo_decks: DemoDecks) -> None:
    """什麼不見啦: the pile and the ring found from the table as laid for play, then the
    seven tokens measured in the memory cards' slots and saved where the game reads them."""
    from tablekeeper import games
    from tablekeeper.config import Config
    from tablekeeper.tablesetup import zones as zones_step
    from tablekeeper.tablesetup.markers import RING
    from vision.ring import TOKEN_COLOURS, ring_of

    deck = demo_decks("something-missing-items")
    path = tmp_path / "config.toml"
    path.write_text("# box\n", encoding="utf-8")
    ctx = StepContext("something-missing", games.load("something-missing"), Config(), path,
                      tmp_path / "deck")
    assert zones_step.status(ctx) is StepStatus.MISSING
    assert markers_step.make(ctx).phase == "need_zones"
    table = sim_table(deck, CameraConfig.from_dict({"sim_seed": 3}))
    hands = SimZones(table, "pile+ring:5", deck.ids)
    zones = zones_step.ZonesStep(zones_step.ZonePlan("pile+ring:5", ("centre",)), deck.size,
                                 path)
    t = 0
    for _ in range(12):
        t += FRAME_NS
        zones.frame(table.capture().image, t)
        want = zones.wants()
        if want.kind == "confirm":
            zones.act(HostAction(want.action), t)
        else:
            hands.act(want)
    assert zones.done and zones_step.status(ctx) is StepStatus.DONE
    step = markers_step.make(ctx)
    assert step.mode == RING and step.phase == "before" and len(step.cells) == 30
    run = Run(deck, step)
    run.table, run.hands = table, hands
    run.until("saved", limit=60)
    out = tmp_path / "tokens.json"
    assert step.out == out and markers_step.status(ctx) is StepStatus.DONE
    assert set(load_markers(out, CAMERA.size).colours) == set(TOKEN_COLOURS)
    assert len(ring_of(zones.zones)) == 5
