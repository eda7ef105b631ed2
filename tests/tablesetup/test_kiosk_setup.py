"""The kiosk and the set-up area: a fresh box (no game's deck enrolled) with a real camera
starts in the set-up area; with the simulated camera (the demo decks stand in) it starts on
the home screen. In process, SDL's dummy driver, a camera device that is not there."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from tablekeeper.cli import main
from tablekeeper.screen import PygameScreen


@pytest.mark.parametrize("camera", ["opencv", "sim"])
def test_a_fresh_box_starts_in_the_set_up_area_with_a_real_camera(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, camera: str) -> None:
    shown: list[tuple[Any, Any]] = []
    real = PygameScreen.show_area

    def spy(self: PygameScreen, game: str | None = None, step: str | None = None) -> bool:
        shown.append((game, step))
        return real(self, game, step)

    monkeypatch.setattr(PygameScreen, "show_area", spy)
    config = tmp_path / "c.toml"
    config.write_text(f'[table]\nstate_dir = "{tmp_path / "state"}"\n[camera]\n'
                      f'source = "{camera}"\ndevice = "/dev/video-not-there"\n'
                      f'retry_first_s = 0.1\n', encoding="utf-8")
    assert main(["kiosk", "--config", str(config), "--keyboard", "--window",
                 "--run-for", "0.5"]) == 0
    assert shown == ([(None, None)] if camera == "opencv" else [])
