"""Issue 28, "Show the box the table": the zones step found from cards laid on a simulated
table (the four games' layouts), taken and adjusted with host actions only, saved into the
config with its comments and the other games' zones kept; the faults: no card, a card too
many, the camera gone, a broken or unwritable config, a power cut mid-save."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from collections.abc import Callable
from pathlib import Path

import pytest

from display.input import HostAction
from tablekeeper.tablesetup import zones as zones_step
from tablekeeper.tablesetup.configedit import BROKEN, UNWRITABLE, ConfigEditError, save_zones
from tablekeeper.tablesetup.simzones import SimZones, lay_zone_cards
from tablekeeper.tablesetup.zones import STEADY_FRAMES, ZonePlan, ZonesStep
from vision.config import VisionConfig, Zone, zones_in_frame
from vision.deck import Deck
from vision.simtable import SimulatedTable

CONFIG = """\
# the café's box
[table]
game = "the-game"   # tonight

[vision]
stable_frames = 2   # the host's own

[[vision.zones]]    # Wink's corner cell, calibrated last week
name = "r1c1"
polygon = [[1.0, 2.0], [30.0, 2.0], [30.0, 40.0]]

[[vision.zones]]
name = "row1"
polygon = [[5.0, 5.0], [6.0, 5.0], [6.0, 6.0]]

[screen]
fullscreen = false
"""

DemoDecks = Callable[[str], Deck]
FRAME_NS = 300_000_000  # frames 0.3 s apart: each one searched


def _feed(step: ZonesStep, table: SimulatedTable, frames: int, t0: int = 0) -> int:
    t = t0
    for _ in range(frames):
        t += FRAME_NS
        step.frame(table.capture().image, t)
    return t


@pytest.mark.parametrize(("game", "layout", "names", "count"), [
    ("the-game", "rows:4", (), 4),
    ("wink", "grid:6x6", (), 36),
    ("eselsbruecke", "area", ("centre",), 1),
    ("something-missing-items", "pile", ("centre",), 1),
])
def test_each_layout_is_found_taken_and_saved(tmp_path: Path, demo_decks: DemoDecks,
                                              game: str, layout: str,
                                              names: tuple[str, ...], count: int) -> None:
    deck: Deck = demo_decks(game)
    table = SimulatedTable(deck, seed=5, size=(1280, 960))
    config = tmp_path / "config.toml"
    config.write_text(CONFIG, encoding="utf-8")
    step = ZonesStep(ZonePlan(layout, names), deck.size, config)
    assert step.wants().kind == "cards_in_zones"
    SimZones(table, layout, deck.ids).act(step.wants())
    _feed(step, table, STEADY_FRAMES)
    view = step.view()
    assert view.ready and len(view.zone_names) == count and view.problem is None
    assert view.shown is not None and len(view.shown.outlines) >= count
    assert step.wants().kind == "confirm"
    step.act(HostAction("confirm"), 0)
    assert step.phase == "adjust" and step.wants().action == "confirm"
    step.act(HostAction("confirm"), 0)
    assert step.done and step.phase == "saved"
    saved = VisionConfig.from_dict(tomllib.loads(config.read_text("utf-8"))["vision"]).zones
    want = set(ZonePlan(layout, names).zone_names())
    assert want <= {z.name for z in saved}
    # the host's comments and keys stay; another game's zones stay unless replaced
    text = config.read_text("utf-8")
    assert "# the café's box" in text and 'game = "the-game"   # tonight' in text
    assert "stable_frames = 2   # the host's own" in text and "fullscreen = false" in text
    others = {z.name for z in saved} - want
    assert others == {"r1c1", "row1"} - want


def test_the_same_implementation_as_vision_calibrate(demo_decks: DemoDecks) -> None:
    """The step's zones are those `vision calibrate` computes from the same frame."""
    deck: Deck = demo_decks("the-game")
    table = SimulatedTable(deck, seed=2, size=(1280, 960))
    lay_zone_cards(table, "rows:4", deck.ids)
    image = table.capture().image
    step = ZonesStep(ZonePlan("rows:4"), deck.size, None)
    for i in range(STEADY_FRAMES):
        step.frame(image, i * FRAME_NS)
    assert step.zones == zones_in_frame(image, deck.size, "rows:4").zones


def test_adjusting_with_the_host_actions_only(tmp_path: Path, demo_decks: DemoDecks) -> None:
    deck: Deck = demo_decks("the-game")
    table = SimulatedTable(deck, seed=3, size=(1280, 960))
    lay_zone_cards(table, "rows:4", deck.ids)
    step = ZonesStep(ZonePlan("rows:4"), deck.size, tmp_path / "new.toml")
    _feed(step, table, STEADY_FRAMES)
    step.act(HostAction("confirm"), 0)
    before = step.zones
    step.act(HostAction("zones.pick"), 0)  # row1 alone
    assert step.view().selected == 0
    step.act(HostAction("zones.right"), 0)
    step.act(HostAction("zones.grow"), 0)
    moved = step.zones
    assert moved[1:] == before[1:]
    assert min(x for x, _ in moved[0].polygon) > min(x for x, _ in before[0].polygon) - 30
    assert max(x for x, _ in moved[0].polygon) > max(x for x, _ in before[0].polygon)
    for _ in range(4):  # row2, row3, row4, then all again
        step.act(HostAction("zones.pick"), 0)
    assert step.view().selected is None
    step.act(HostAction("zones.shrink"), 0)
    assert all(z.polygon != m.polygon for z, m in zip(step.zones, moved, strict=True))
    step.act(HostAction("zones.again"), 0)  # find again: back to the live search
    assert step.phase == "look" and not step.ready
    _feed(step, table, STEADY_FRAMES, 10 * FRAME_NS)
    step.act(HostAction("confirm"), 0)
    step.act(HostAction("confirm"), 0)
    assert step.done  # a file that was not there is made
    assert tomllib.loads((tmp_path / "new.toml").read_text("utf-8"))["vision"]["zones"]
    back = ZonesStep(ZonePlan("rows:4"), deck.size, None)
    back.act(HostAction("back"), 0)
    assert back.left and not back.done


def test_too_few_too_many_and_no_camera(demo_decks: DemoDecks) -> None:
    deck: Deck = demo_decks("the-game")
    table = SimulatedTable(deck, seed=4, size=(1280, 960))
    step = ZonesStep(ZonePlan("rows:4"), deck.size, None)
    t = _feed(step, table, 1)
    assert step.view().problem == "setup.zones.none" and not step.ready
    handles = lay_zone_cards(table, "rows:4", deck.ids)
    table.remove(handles[0])
    t = _feed(step, table, 1, t)
    assert step.view().problem == "setup.zones.few"
    assert step.view().params == {"found": 3, "want": "4"}
    lay_zone_cards(table, "rows:4", deck.ids)
    table.place(deck.ids[9], "north")
    t = _feed(step, table, 1, t)
    assert step.view().problem == "setup.zones.many"
    step.act(HostAction("confirm"), t)  # nothing to take
    assert step.phase == "look"
    step.frame(None, t + FRAME_NS)
    assert step.view().problem == "setup.zones.no_camera" and step.view().shown is None
    table.clear()
    lay_zone_cards(table, "rows:4", deck.ids)
    _feed(step, table, STEADY_FRAMES, t + FRAME_NS)  # the camera is back: resumes
    assert step.ready and step.view().problem is None


def test_a_broken_or_unwritable_config_is_said_and_nothing_lost(
        tmp_path: Path, demo_decks: DemoDecks) -> None:
    deck: Deck = demo_decks("the-game")
    table = SimulatedTable(deck, seed=7, size=(1280, 960))
    lay_zone_cards(table, "rows:4", deck.ids)
    config = tmp_path / "config.toml"
    broken = CONFIG + "[screen\n"
    config.write_text(broken, encoding="utf-8")
    step = ZonesStep(ZonePlan("rows:4"), deck.size, config)
    _feed(step, table, STEADY_FRAMES)
    step.act(HostAction("confirm"), 0)
    zones = step.zones
    step.act(HostAction("confirm"), 0)
    assert step.problem == "setup.config.broken" and not step.done
    assert "not valid TOML" in step.params["detail"]
    assert config.read_text("utf-8") == broken  # left as the host wrote it
    assert step.phase == "adjust" and step.zones == zones  # kept, to save again
    # a folder where the file should be: it cannot be written (root or not)
    config.unlink()
    config.mkdir()
    step.act(HostAction("confirm"), 0)
    assert step.problem == "setup.config.unwritable" and not step.done
    config.rmdir()
    config.write_text(CONFIG, encoding="utf-8")  # the host fixed it: saved now
    step.act(HostAction("confirm"), 0)
    assert step.done and "row4" in config.read_text("utf-8")
    # no config file at all (the kiosk runs without one)
    none = ZonesStep(ZonePlan("rows:4"), deck.size, None)
    _feed(none, table, STEADY_FRAMES)
    none.act(HostAction("confirm"), 0)
    none.act(HostAction("confirm"), 0)
    assert none.problem == "setup.config.none" and not none.done


def test_configedit_refuses_what_would_not_load(tmp_path: Path) -> None:
    path = tmp_path / "c.toml"
    path.write_text('vision = "not a table"\n', encoding="utf-8")
    with pytest.raises(ConfigEditError) as err:
        save_zones(path, (Zone("pile", ((0, 0), (1, 0), (1, 1))),))
    assert err.value.kind == BROKEN and path.read_text("utf-8") == 'vision = "not a table"\n'
    path.write_text("[vision]\nstable_frames = 0\n", encoding="utf-8")
    with pytest.raises(ConfigEditError, match="stable_frames") as err:
        save_zones(path, (Zone("pile", ((0, 0), (1, 0), (1, 1))),))
    assert err.value.kind == BROKEN
    with pytest.raises(ConfigEditError) as err:
        save_zones(tmp_path / "no-such-folder" / "c.toml",
                   (Zone("pile", ((0, 0), (1, 0), (1, 1))),))
    assert err.value.kind == UNWRITABLE


def test_a_power_cut_mid_save_leaves_the_old_config(tmp_path: Path) -> None:
    """A real SIGKILL while the new text is written: the old config, whole."""
    path = tmp_path / "config.toml"
    path.write_text(CONFIG, encoding="utf-8")
    script = (
        "import os, signal\n"
        "from pathlib import Path\n"
        "from tablekeeper import atomic\n"
        "from tablekeeper.tablesetup.configedit import save_zones\n"
        "from vision.config import Zone\n"
        "def fsync(fd):\n"
        "    os.kill(os.getpid(), signal.SIGKILL)\n"
        "atomic.os.fsync = fsync\n"
        f"save_zones(Path({str(path)!r}), [Zone('row1', ((0, 0), (9, 0), (9, 9)))])\n"
    )
    proc = subprocess.run([sys.executable, "-c", script], check=False, capture_output=True)
    assert proc.returncode == -9, proc.stderr
    assert path.read_text("utf-8") == CONFIG


def test_status_follows_the_config_file(tmp_path: Path) -> None:
    from tablekeeper import games
    from tablekeeper.config import Config
    from tablekeeper.tablesetup.step import StepContext, StepStatus

    path = tmp_path / "config.toml"
    path.write_text(CONFIG, encoding="utf-8")
    ctx = StepContext("the-game", games.load("the-game"), Config(), path, tmp_path / "deck")
    assert zones_step.status(ctx) is StepStatus.MISSING
    save_zones(path, [Zone(f"row{i}", ((0, 0), (9, 0), (9, 9))) for i in range(1, 5)])
    assert zones_step.status(ctx) is StepStatus.DONE
    step = zones_step.make(ctx)
    assert step.plan == ZonePlan("rows:4") and step.card_size == (200, 300)


def test_the_cli_calibrates_the_area_and_refuses_two_cards_for_a_pile(
        tmp_path: Path, demo_decks: DemoDecks, capsys: pytest.CaptureFixture[str]) -> None:
    import cv2

    from tablekeeper.cli import main
    from vision.demo_decks import demo_deck

    deck: Deck = demo_decks("eselsbruecke")
    table = SimulatedTable(deck, seed=5, size=(1280, 960))
    lay_zone_cards(table, "area", deck.ids)
    frame = tmp_path / "frame.png"
    cv2.imwrite(str(frame), table.capture().image)
    folder = str(demo_deck("eselsbruecke"))
    assert main(["vision", "calibrate", "--deck", folder, "--image", str(frame),
                 "--layout", "area", "--names", "centre"]) == 0
    zones = VisionConfig.from_dict(tomllib.loads(capsys.readouterr().out)["vision"]).zones
    assert [z.name for z in zones] == ["centre"]
    found = zones_in_frame(table.capture().image, deck.size, "area", ("centre",))
    xs = [x for q in found.cards for x, _ in q]
    assert min(x for x, _ in zones[0].polygon) < min(xs) < max(xs) < max(
        x for x, _ in zones[0].polygon)  # round both tiles
    # two cards where the pile takes one: said, nothing printed
    assert main(["vision", "calibrate", "--deck", folder, "--image", str(frame),
                 "--layout", "pile"]) == 2
    captured = capsys.readouterr()
    assert "lay exactly 1 card where the pile goes; found 2" in captured.err
    assert captured.out == ""
    step = ZonesStep(ZonePlan("pile", ("centre",)), deck.size, None)
    step.frame(table.capture().image, 0)
    assert step.view().problem == "setup.zones.many"


def test_an_empty_table_for_the_tile_area_asks_for_no_count(demo_decks: DemoDecks) -> None:
    # the tile area takes any number of cards: the screen says none is seen yet, not "1+"
    deck: Deck = demo_decks("the-game")
    table = SimulatedTable(deck, seed=4, size=(1280, 960))
    step = ZonesStep(ZonePlan("area"), deck.size, None)
    _feed(step, table, 1)
    assert step.view().problem == "setup.zones.empty" and step.view().params == {}
