"""眨眨眼 at the real kiosk: ``vision calibrate-markers`` measures the markers under this
table's light and writes them next to the config; ``[table] markers`` names the file; the
kiosk's camera for Wink reads cells and markers with them (the kit's ``watcher``), and a
missing or damaged file is told on the screen while the game goes on."""

from __future__ import annotations

import os
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from engine.wink import GridEntered, Phase
from tablekeeper import screen as screen_module
from tablekeeper.cli import main
from tablekeeper.config import TableConfig, check_config, markers_file
from tablekeeper.games.wink import KIT, host
from tablekeeper.journal import JournaledGame, read
from vision.camera import CameraConfig
from vision.config import zones_toml
from vision.deck import load_deck
from vision.demo_decks import demo_deck
from vision.markers import (
    MARKER_COLOURS,
    GridReader,
    GridWatcher,
    MarkerFileError,
    load_markers,
    markers_path,
)
from vision.simmarkers import place_marker, sim_grid_zones, sim_table

NUMBERS = tuple(random.Random(18).sample(range(1, 37), 36))
CELLS = tuple(f"r{i // 6 + 1}c{i % 6 + 1}" for i in range(36))
#: the config's camera: 640x480 (a quarter of the default's pixels, for the tests' speed),
#: and a simulated table whose seed draws a clean light (a cool cast, little blur and noise,
#: hardly any keystone), where the 36 small cards are all recognised
CAMERA = CameraConfig.from_dict({"size": [640, 480], "sim_seed": 74, "sim_surface": "cloth"})


@pytest.fixture(scope="module")
def deck() -> Any:
    return load_deck(demo_deck("wink"))


def _config(tmp_path: Path, *, grid: bool, deck: Any = None, extra: str = "") -> Path:
    config = tmp_path / "config.toml"
    text = (f'[table]\nstate_dir = "{tmp_path / "state"}"\n{extra}'
            '[camera]\nsize = [640, 480]\nsim_seed = 74\nsim_surface = "cloth"\n')
    if grid:
        text += "\n" + zones_toml(sim_grid_zones(deck, CAMERA))
    config.write_text(text, encoding="utf-8")
    return config


def _calibrate(*args: str) -> int:
    return main(["vision", "calibrate-markers", *args])


# --- the command ----------------------------------------------------------------------------


@pytest.mark.parametrize("cast", ["warm", "cool", "green"])
def test_the_command_measures_all_eight_under_a_cast_and_they_are_read(
        tmp_path: Path, deck: Any, cast: str, capsys: pytest.CaptureFixture[str]) -> None:
    config = _config(tmp_path, grid=False)
    assert _calibrate("--config", str(config), "--simulate", "--cast", cast) == 0
    out = capsys.readouterr().out
    assert "red on r1c1" in out and "white on r2c2" in out and "r6c6 face down" in out
    path = tmp_path / "markers.json"  # the default: next to the config file
    assert f"written to {path}" in out
    palette = load_markers(path, (640, 480))
    assert tuple(palette.colours) == MARKER_COLOURS
    # the table under that light, the markers elsewhere on the grid: each read as its colour
    camera = CAMERA
    table = sim_table(deck, camera, cast)
    poses = {z: table.grid_pose(i // 6, i % 6) for i, z in enumerate(CELLS)}
    for i, z in enumerate(CELLS):
        table.place(f"w{NUMBERS[i]:02d}", poses[z])
    watcher = GridWatcher(GridReader(sim_grid_zones(deck, camera), palette, table.size))
    first = table.capture()
    watcher.set_references(first.image)
    watcher.process(first.image, first.t_ns)
    where = dict(zip(MARKER_COLOURS, ("r2c5", "r3c2", "r3c4", "r4c1", "r4c6", "r5c3", "r6c2",
                                      "r6c4"), strict=True))
    for colour, zone in where.items():
        place_marker(table, colour, poses[zone])
    for _ in range(4):
        f = table.capture()
        watcher.process(f.image, f.t_ns)
    settled = watcher.settled()
    assert {z: m for z, (_f, m) in settled.items() if m is not None} == {
        z: c for c, z in where.items()}


def test_no_grid_calibration_yet(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = _config(tmp_path, grid=False)
    frame = tmp_path / "f.png"
    cv2.imwrite(str(frame), np.zeros((480, 640, 3), np.uint8))
    assert _calibrate("--config", str(config), "--images", str(frame), str(frame)) == 2
    err = capsys.readouterr().err
    assert "no grid calibration yet" in err and "--layout grid:6x6" in err
    assert not (tmp_path / "markers.json").exists()


def test_an_unreadable_image(tmp_path: Path, deck: Any,
                             capsys: pytest.CaptureFixture[str]) -> None:
    config = _config(tmp_path, grid=True, deck=deck)
    junk = tmp_path / "before.png"
    junk.write_bytes(b"not a picture")
    assert _calibrate("--config", str(config), "--images", str(junk), str(junk)) == 2
    err = capsys.readouterr().err
    assert "before.png" in err
    assert not (tmp_path / "markers.json").exists()


def _frames(tmp_path: Path, deck: Any, colours: tuple[str, ...]) -> tuple[Path, Path]:
    """Two frames of the simulated table: the grid, then ``colours`` on their cells."""
    table = sim_table(deck, CAMERA, "warm")
    poses = {z: table.grid_pose(i // 6, i % 6) for i, z in enumerate(CELLS)}
    for i, z in enumerate(CELLS):
        table.place(f"w{NUMBERS[i]:02d}", poses[z])
    before, after = tmp_path / "before.png", tmp_path / "after.png"
    cv2.imwrite(str(before), table.capture().image)
    for colour, zone in zip(MARKER_COLOURS, CELLS, strict=False):
        if colour in colours:
            place_marker(table, colour, poses[zone])
    cv2.imwrite(str(after), table.capture().image)
    return before, after


def test_colours_not_found_are_named(tmp_path: Path, deck: Any,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    config = _config(tmp_path, grid=True, deck=deck)
    before, after = _frames(tmp_path, deck, ("red", "yellow", "blue", "green", "brown",
                                             "purple"))
    assert _calibrate("--config", str(config), "--images", str(before), str(after),
                      "--back", "") == 2
    err = capsys.readouterr().err
    assert "not found: black on r2c1, white on r2c2" in err
    assert not (tmp_path / "markers.json").exists()
    # the six laid, named so: written to [table] markers
    target = tmp_path / "cal" / "six.json"
    config = _config(tmp_path, grid=True, deck=deck, extra=f'markers = "{target}"\n')
    assert _calibrate("--config", str(config), "--images", str(before), str(after),
                      "--back", "", "--colours", "red,yellow,blue,green,brown,purple") == 0
    assert tuple(load_markers(target).colours) == ("red", "yellow", "blue", "green", "brown",
                                                   "purple")


def test_two_colours_too_close_under_this_light(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    import vision.markers

    config = _config(tmp_path, grid=False)
    assert _calibrate("--config", str(config), "--simulate", "--out",
                      str(tmp_path / "first.json")) == 0
    a, b, d = vision.markers.too_close(load_markers(tmp_path / "first.json"), 1000.0)[0]
    # a light under which the nearest two are not far enough apart
    monkeypatch.setattr(vision.markers, "MIN_SEPARATION", d + 0.5)
    capsys.readouterr()
    assert _calibrate("--config", str(config), "--simulate") == 2
    err = capsys.readouterr().err
    assert "too close to tell apart under this light" in err
    assert f"{a} and {b}: {d:.1f}" in err and f"at least {d + 0.5:.0f} needed" in err
    assert not (tmp_path / "markers.json").exists()


# --- the config key -------------------------------------------------------------------------


def test_the_markers_key(tmp_path: Path) -> None:
    config = tmp_path / "c.toml"
    assert markers_file(TableConfig(), config) == tmp_path / "markers.json"
    assert markers_file(TableConfig(markers="t1/m.json"), config) == tmp_path / "t1/m.json"
    assert markers_file(TableConfig(markers="/x/m.json"), config) == Path("/x/m.json")
    assert markers_file(TableConfig(state_dir=str(tmp_path / "s")), None) == \
        tmp_path / "s" / "markers.json"
    assert markers_path("", config, "~") == markers_file(TableConfig(), config)
    config.write_text(f'[table]\nstate_dir = "{tmp_path}"\nmarkers = "m.toml"\n',
                      encoding="utf-8")
    report = check_config(config)
    assert report.fatal is None and report.config.table.markers == ""
    assert any("[table] markers" in p and ".json" in p for p in report.problems), \
        report.problems
    config.write_text(f'[table]\nstate_dir = "{tmp_path}"\nmarkers = "m.json"\n',
                      encoding="utf-8")
    report = check_config(config)
    assert not report.problems and report.config.table.markers == "m.json"
    assert report.config.table.to_dict()["markers"] == "m.json"


@pytest.mark.parametrize("content,said", [
    (None, "no marker calibration yet"),
    (b"{\"kind\": \"tablekeeper-markers\", \"ver", "damaged (not JSON"),
    (b'{"kind": "something"}', "not a marker calibration"),
    (b'{"kind": "tablekeeper-markers", "version": 1, "size": [640, 480], '
     b'"palette": {"colours": {"red": [1, 2]}}}', "damaged (markers.colours.red"),
    (b'{"kind": "tablekeeper-markers", "version": 1, "size": [800, 600], '
     b'"palette": {"colours": {"red": [1, 2, 3]}}}', "measured in 800x600 frames"),
])
def test_a_bad_markers_file_says_what_is_wrong(tmp_path: Path, content: bytes | None,
                                               said: str) -> None:
    path = tmp_path / "markers.json"
    if content is not None:
        path.write_bytes(content)
    with pytest.raises(MarkerFileError) as caught:
        load_markers(path, (640, 480))
    assert said in str(caught.value) and str(path) in str(caught.value)


# --- the kiosk ------------------------------------------------------------------------------


@pytest.fixture
def screens(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    made: list[Any] = []
    real = screen_module.PygameScreen.__init__

    def init(self: Any, *args: Any, **kwargs: Any) -> None:
        real(self, *args, **kwargs)
        made.append(self)

    monkeypatch.setattr(screen_module.PygameScreen, "__init__", init)
    return made


def _wink_in_play(state_dir: Path) -> None:
    """An unfinished Wink game for the kiosk to resume: 5 players, the grid entered, red to
    place their marker."""
    games = state_dir / "games"
    games.mkdir(parents=True)
    game = JournaledGame.create(games / "current.jsonl", game=KIT.engine.name)
    game.submit(host.new_game(["A", "B", "C", "D", "E"],
                              ("red", "yellow", "blue", "green", "brown"), "basic_deal", 0, 0))
    game.submit(GridEntered(at_ms=10, numbers=NUMBERS))
    assert game.state.phase is Phase.PLACE and game.state.active == 0


def _kiosk(config: Path, run_for: float) -> int:
    return main(["kiosk", "--config", str(config), "--keyboard", "--simulate-camera",
                 "--window", "--run-for", str(run_for)])


def _laid_table(monkeypatch: pytest.MonkeyPatch,
                after_references: Callable[[Any, dict[str, Any]], None] | None) -> list[Any]:
    """The kiosk's simulated camera shows the grid of :data:`NUMBERS`; once its grid reader
    kept every cell's picture, ``after_references(table, poses)`` (a marker put down)."""
    import tablekeeper.games.wink.camera as wink_camera
    import vision.camera

    sights: list[Any] = []
    real_init = wink_camera.GridSight.__init__

    def init(self: Any, *args: Any, **kwargs: Any) -> None:
        real_init(self, *args, **kwargs)
        sights.append(self)

    monkeypatch.setattr(wink_camera.GridSight, "__init__", init)
    real_open = vision.camera.open_camera

    def open_camera(config: Any, **kwargs: Any) -> Any:
        table: Any = real_open(config, **kwargs)
        poses = {z: table.grid_pose(i // 6, i % 6) for i, z in enumerate(CELLS)}
        for i, z in enumerate(CELLS):
            table.place(f"w{NUMBERS[i]:02d}", poses[z])
        capture = table.capture
        done: list[int] = []

        def later() -> Any:
            if (after_references is not None and not done and sights
                    and len(sights[-1].grid.reader.references) == 36):
                done.append(1)
                after_references(table, poses)
            return capture()

        table.capture = later
        return table

    monkeypatch.setattr(vision.camera, "open_camera", open_camera)
    return sights


def test_the_kiosk_reads_a_marker_placement_into_the_journal(
        tmp_path: Path, screens: list[Any], monkeypatch: pytest.MonkeyPatch) -> None:
    config = _config(tmp_path, grid=False)
    assert _calibrate("--config", str(config), "--simulate") == 0
    _wink_in_play(tmp_path / "state")

    def put_red(table: Any, poses: dict[str, Any]) -> None:
        place_marker(table, "red", poses["r3c4"])

    sights = _laid_table(monkeypatch, put_red)
    assert _kiosk(config, 12.0) == 0
    assert sights and len(sights[-1].grid.reader.references) == 36
    journal = read(tmp_path / "state" / "games" / "current.jsonl")
    placed = [r.event for r in journal.records
              if r.event is not None and r.event.type_name == "marker_placed"]
    assert [(e.colour, e.row, e.col) for e in placed  # type: ignore[attr-defined]
            ] == [("red", 2, 3)], journal.records
    assert not any("marker" in p.lower() for p in screens[-1].problems), screens[-1].problems


@pytest.mark.parametrize("damage,said", [(None, "no marker calibration yet"),
                                         (b"\x00\x01 junk", "damaged")])
def test_a_missing_or_damaged_markers_file_is_told_and_the_game_goes_on(
        tmp_path: Path, screens: list[Any], monkeypatch: pytest.MonkeyPatch,
        damage: bytes | None, said: str) -> None:
    config = _config(tmp_path, grid=False)
    if damage is not None:
        (tmp_path / "markers.json").write_bytes(damage)
    _wink_in_play(tmp_path / "state")
    _laid_table(monkeypatch, None)
    assert _kiosk(config, 1.0) == 0
    problems = screens[-1].problems
    assert any("markers not read" in p and said in p and "markers.json" in p
               for p in problems), problems
    journal = read(tmp_path / "state" / "games" / "current.jsonl")
    # resumed as it was: nothing refused, nothing lost (the game waits for the host: paused)
    assert [r.note.kind for r in journal.records if r.note is not None] == ["pause"]
    assert len(journal.records) == 3
    assert _kiosk(config, 0.3) == 0  # and again: no crash loop


def test_the_kit_names_its_watcher() -> None:
    from tablekeeper import games

    assert KIT.watcher is not None
    # (and 什麼不見啦's, which reads its ring: tests/games/something_missing/test_sm_ring.py)
    assert all(k.watcher is None for k in games.kits()
               if k is not KIT and k.name != "something-missing")


def test_the_command_from_a_camera(tmp_path: Path, deck: Any,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    """``--camera``: the host is told what to lay before each frame (a folder of frames
    stands for the camera here; stdin is no terminal, so nothing waits for Enter)."""
    config = _config(tmp_path, grid=True, deck=deck)
    folder = tmp_path / "frames"
    folder.mkdir()
    before, after = _frames(tmp_path, deck, MARKER_COLOURS)
    before.rename(folder / "1.png")
    after.rename(folder / "2.png")
    assert _calibrate("--config", str(config), "--camera", f"folder:{folder}",
                      "--back", "") == 0
    out = capsys.readouterr().out
    assert out.index("1/2 Lay the 36 cards") < out.index("2/2 Now lay red on r1c1")
    assert tuple(load_markers(tmp_path / "markers.json", (640, 480)).colours) == MARKER_COLOURS
