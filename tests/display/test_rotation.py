"""``[screen] rotate`` (issue 38): the picture and touch turn together. A button drawn on the
upright picture is found on the panel through pygame's own rotation (a marked pixel), and a
touch or click there presses that button; a bad value stops the kiosk in one line (exit 78)."""

from __future__ import annotations

import logging
import os
from pathlib import Path

import numpy as np
import pygame
import pytest

from display.input import Button, HostAction
from display.renderer import Renderer
from display.rotation import ROTATIONS, check_rotation, logical_size, to_logical, to_panel
from display.samples import snapshots
from tablekeeper.cli import main
from tablekeeper.config import ConfigError, ScreenConfig, load_config
from tablekeeper.kiosk import EXIT_CONFIG, read_config

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")


@pytest.fixture(autouse=True)
def _pygame() -> None:
    pygame.display.init()


def _home(panel: tuple[int, int], rotate: int) -> Renderer:
    renderer = Renderer(pygame.Surface(panel), rotate=rotate, strict=True)
    snap = dict(snapshots("en"))["home"]
    assert renderer.render(snap)
    return renderer


def _on_panel(point: tuple[int, int], logical: tuple[int, int], rotate: int) -> tuple[int, int]:
    """Where ``point`` of the upright picture lands on the panel: by pygame's own rotation of
    a picture with that one pixel marked."""
    picture = pygame.Surface(logical)
    picture.fill((0, 0, 0))
    picture.set_at(point, (255, 0, 0))
    red = pygame.surfarray.array3d(to_panel(picture, rotate))[:, :, 0]
    hits = np.argwhere(red > 128)  # (x, y) rows: surfarray is indexed [x][y]
    assert len(hits) == 1
    return (int(hits[0][0]), int(hits[0][1]))


@pytest.mark.parametrize("rotate", ROTATIONS)
def test_touch_and_click_press_the_button_seen_there(rotate: int) -> None:
    panel = (400, 240)
    renderer = _home(panel, rotate)
    assert renderer.surface.get_size() == logical_size(panel, rotate)
    assert to_panel(renderer.surface, rotate).get_size() == panel
    buttons: tuple[Button, ...] = renderer.buttons
    assert buttons
    for button in buttons:
        bx, by, bw, bh = button.rect
        centre = (bx + bw // 2, by + bh // 2)
        x, y = _on_panel(centre, renderer.surface.get_size(), rotate)
        assert to_logical((x, y), panel, rotate) == pytest.approx(centre)
        click = pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=(x, y), touch=False)
        finger = pygame.event.Event(pygame.FINGERDOWN, x=(x + 0.5) / panel[0],
                                    y=(y + 0.5) / panel[1], touch_id=0, finger_id=0,
                                    pressure=1.0, dx=0.0, dy=0.0)
        for event in (click, finger):
            got = renderer.translate(event)
            assert isinstance(got, HostAction) and got == button.action, (rotate, button)


def test_the_panel_shows_the_picture_turned(tmp_path: Path) -> None:
    upright = _home((800, 480), 0)
    turned = _home((800, 480), 180)
    path = turned.save_png(tmp_path / "p.png", panel=True)
    shown = pygame.image.load(str(path))
    assert shown.get_size() == (800, 480)
    for x, y in ((10, 10), (400, 300), (790, 470)):
        assert shown.get_at((799 - x, 479 - y)) == upright.surface.get_at((x, y))


@pytest.mark.parametrize("value", [45, "180", True, -90, 360])
def test_bad_rotations_are_refused_in_one_line(value: object) -> None:
    with pytest.raises(ValueError, match=r"^screen.rotate: .* is not one of 0, 90, 180, 270"):
        check_rotation(value)
    with pytest.raises(ValueError):
        ScreenConfig.from_dict({"rotate": value})


def test_the_config_reads_the_rotation(tmp_path: Path) -> None:
    config = tmp_path / "c.toml"
    config.write_text("[screen]\nrotate = 180\n")
    assert load_config(config).screen.rotate == 180
    assert ScreenConfig().rotate == 0
    config.write_text("[screen]\nrotate = 45\n")
    with pytest.raises(ConfigError, match="rotate"):
        load_config(config)


def test_a_bad_rotation_stops_the_kiosk_with_one_line(
        tmp_path: Path, caplog: pytest.LogCaptureFixture, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    config = tmp_path / "c.toml"
    config.write_text(f'[table]\nstate_dir = "{tmp_path / "games"}"\n\n[screen]\n'
                      "rotate = 45\n")
    report = read_config(config, explicit=True)
    assert report.fatal is not None and "\n" not in report.fatal
    assert ":5: [screen] rotate: 45 is not one of 0, 90, 180, 270" in report.fatal
    assert "default is used" not in report.fatal
    with caplog.at_level(logging.ERROR):
        code = main(["kiosk", "--config", str(config), "--keyboard", "--simulate-camera",
                     "--window", "--run-for", "0.3"])
    assert code == EXIT_CONFIG
    said = [line for line in capsys.readouterr().err.splitlines()
            if line.startswith("tablekeeper kiosk stopped")]  # the rest: the log's lines
    assert len(said) == 1 and "[screen] rotate: 45" in said[0]
    assert not (tmp_path / "games").exists()


def test_display_shots_draw_the_panel_turned(tmp_path: Path) -> None:
    assert main(["display", "shots", str(tmp_path), "--size", "720x1280", "--rotate", "90",
                 "--only", "buttons-start"]) == 0
    shots = sorted(tmp_path.glob("720x1280-rotate90-*-setup-buttons-start.png"))
    assert len(shots) == 2
    assert pygame.image.load(str(shots[0])).get_size() == (720, 1280)
