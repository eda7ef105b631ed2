"""`tablekeeper kiosk` starts, runs its loop and stops; a broken config is reported, the
defaults are used and the file is left as it is."""

from __future__ import annotations

import logging
import os
import warnings
from pathlib import Path
from typing import Any

import pytest
from gpiozero.exc import PinFactoryFallback

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from tablekeeper.cli import main


def _run(config: Path) -> int:
    return main(["kiosk", "--config", str(config), "--keyboard", "--simulate-camera",
                 "--window", "--run-for", "0.5"])


def test_kiosk_runs_on_a_laptop_and_keeps_its_game(tmp_path: Path) -> None:
    config = tmp_path / "tablekeeper.toml"
    config.write_text(f'[table]\nstate_dir = "{tmp_path / "state"}"\n'
                      '[screen]\nsize = [800, 480]\nfullscreen = false\n', encoding="utf-8")
    assert _run(config) == 0
    journal = tmp_path / "state" / "games" / "current.jsonl"
    assert journal.exists()
    first = journal.read_bytes()
    assert _run(config) == 0  # restarted: the same (unfinished) game is resumed, not replaced
    assert journal.read_bytes() == first


def test_a_broken_config_is_reported_and_left_alone(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch,
                                                    caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))  # the defaults keep their games under $HOME
    config = tmp_path / "tablekeeper.toml"
    text = "[table]\nplayers = 3\n"
    config.write_text(text, encoding="utf-8")
    with caplog.at_level(logging.ERROR):
        assert _run(config) == 0
    assert any(str(config) in r.getMessage() and "[table] players" in r.getMessage()
               for r in caplog.records)
    assert config.read_text(encoding="utf-8") == text
    assert (tmp_path / ".local" / "state" / "tablekeeper" / "games" / "current.jsonl").exists()


def test_without_gpio_the_kiosk_says_what_to_do(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "tablekeeper.toml"
    config.write_text(f'[table]\nstate_dir = "{tmp_path / "state"}"\n', encoding="utf-8")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        code = main(["kiosk", "--config", str(config), "--window", "--run-for", "0.1"])
    assert code == 2
    err = capsys.readouterr().err
    assert "--keyboard" in err
    # Why each of gpiozero's pin factories would not load is said once, in the message, not
    # as a warning per factory printed before it.
    assert "Tried lgpio: No module named 'lgpio'" in err
    assert not [w for w in caught if issubclass(w.category, PinFactoryFallback)]


def test_the_kiosk_starts_on_the_home_screen_with_the_configured_game_and_roster(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from tablekeeper.screen import PygameScreen

    seen: dict[str, object] = {}
    close = PygameScreen.close

    def record(self: PygameScreen) -> None:
        seen.update(screen=self.renderer.screen, roster=self.roster, home=self.home)
        close(self)

    monkeypatch.setattr(PygameScreen, "close", record)
    config = tmp_path / "tablekeeper.toml"
    config.write_text(f'[table]\nstate_dir = "{tmp_path / "state"}"\n'
                      'game = "something-missing"\nroster = ["志強", "美玲"]\n'
                      '[screen]\nsize = [800, 480]\nfullscreen = false\n', encoding="utf-8")
    assert _run(config) == 0
    assert seen["screen"] == "home" and seen["roster"] == ("志強", "美玲")
    from display.home import HomeMenu

    home = seen["home"]
    assert isinstance(home, HomeMenu) and home.choice is not None
    assert home.choice.name == "something-missing"
    header = (tmp_path / "state" / "games" / "current.jsonl").read_text().splitlines()[0]
    assert '"game":"something_missing"' in header  # the journal names its game


def test_size_opens_a_window_of_that_size(tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """``kiosk --size WxH``: a window of that size, whatever the config says (issue 41: a
    hand-written TOML was needed to try the kiosk in a window); a bad size is refused."""
    from tablekeeper.screen import PygameScreen

    made: list[tuple[tuple[int, ...], bool]] = []
    real_init = PygameScreen.__init__

    def init(self: PygameScreen, **kwargs: object) -> None:
        made.append((tuple(kwargs["size"]), bool(kwargs["fullscreen"])))  # type: ignore[arg-type]
        real_init(self, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(PygameScreen, "__init__", init)
    config = tmp_path / "tablekeeper.toml"
    config.write_text(f'[table]\nstate_dir = "{tmp_path / "state"}"\n'
                      '[screen]\nsize = [1920, 1080]\nfullscreen = true\n', encoding="utf-8")
    assert main(["kiosk", "--config", str(config), "--keyboard", "--simulate-camera",
                 "--size", "800x480", "--run-for", "0.3"]) == 0
    assert made == [((800, 480), False)]
    with pytest.raises(SystemExit):
        main(["kiosk", "--config", str(config), "--size", "80x48"])


@pytest.mark.slow
def test_simulated_players_play_the_picked_game_on_the_simulated_table(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``kiosk --simulate-players`` (issue 41): the host picks a game on the home screen (here:
    Enter, the confirm button's stand-in) and the game's simulated players play it, laying
    their tiles on the simulated camera's table; the real camera path reads them."""
    import pygame

    from tablekeeper.journal import read
    from tablekeeper.screen import PygameScreen

    real_show_home = PygameScreen.show_home
    pressed: list[bool] = []

    def show_home(self: PygameScreen, *args: Any, **kwargs: Any) -> None:
        real_show_home(self, *args, **kwargs)
        if not pressed:  # the host confirms the game the home screen offers first
            pressed.append(True)
            for kind in (pygame.KEYDOWN, pygame.KEYUP):
                pygame.event.post(pygame.event.Event(kind, key=pygame.K_RETURN, mod=0,
                                                     unicode="\r", scancode=40))

    monkeypatch.setattr(PygameScreen, "show_home", show_home)
    config = tmp_path / "tablekeeper.toml"
    config.write_text(f'[table]\nstate_dir = "{tmp_path / "state"}"\ngame = "eselsbruecke"\n',
                      encoding="utf-8")
    assert main(["kiosk", "--config", str(config), "--keyboard", "--simulate-players",
                 "--size", "800x480", "--run-for", "40"]) == 0  # (a loaded CI box)
    events = [r.event.type_name for r in read(tmp_path / "state" / "games" / "current.jsonl"
                                               ).records if r.event is not None]
    assert events[0] == "new_game"
    assert "tile_seen" in events  # seen by the camera path, not entered by hand


@pytest.mark.slow
def test_simulated_players_drop_the_real_cameras_marker_banner(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    """``kiosk --simulate-players`` with Wink set up and no marker calibration: the real
    camera path says so at start (a banner for Wink: "markers not calibrated, enter the
    placements by hand"). Once the host picks Wink, the simulated players' table reads the
    markers, so the banner goes: it stayed over the whole game while markers were read."""
    import pygame

    from tablekeeper.screen import PygameScreen

    real_show_home = PygameScreen.show_home
    screens: list[PygameScreen] = []

    def show_home(self: PygameScreen, *args: Any, **kwargs: Any) -> None:
        real_show_home(self, *args, **kwargs)
        if not screens:  # the host confirms the game the home screen points at (Wink)
            screens.append(self)
            for kind in (pygame.KEYDOWN, pygame.KEYUP):
                pygame.event.post(pygame.event.Event(kind, key=pygame.K_RETURN, mod=0,
                                                     unicode="\r", scancode=40))

    monkeypatch.setattr(PygameScreen, "show_home", show_home)
    config = tmp_path / "tablekeeper.toml"
    config.write_text(f'[table]\nstate_dir = "{tmp_path / "state"}"\ngame = "wink"\n',
                      encoding="utf-8")
    with caplog.at_level(logging.INFO):
        assert main(["kiosk", "--config", str(config), "--keyboard", "--simulate-players",
                     "--size", "800x480", "--run-for", "6"]) == 0
    said = caplog.text
    assert "markers not read" in said  # the real camera path told it at start
    assert "simulated players play wink" in said
    assert not [p for p in screens[0].problems if "marker" in p], screens[0].problems
