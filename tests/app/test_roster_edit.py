"""The roster (the table's regulars) edited on the name screen and saved to the config file,
keeping the host's comments and other keys (tomlkit); a file that cannot be saved to is said
on the screen, and nothing in it is lost.
"""

from __future__ import annotations

import os
import random
import tomllib
from pathlib import Path

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from display.input import HostAction
from display.model import PlayerInfo
from display.setup import SetupForm
from tablekeeper.app import Loop
from tablekeeper.clock import FakeClock
from tablekeeper.config import load_config, save_roster
from tablekeeper.referee import Referee
from tablekeeper.screen import PygameScreen

CONFIG = """\
# the box in the living room
[table]
game = "wink"    # tonight's game
roster = ["志強", "美玲"]   # the regulars
language = "zh-TW"

[screen]
fullscreen = false   # a laptop
"""


def _form() -> SetupForm:
    players = (PlayerInfo("阿德", "red"), PlayerInfo("", "blue"), PlayerInfo("", "green"))
    return SetupForm(players=players, focus=0, roster=("志強", "美玲"))


def test_the_form_adds_renames_and_removes_regulars() -> None:
    form = _form()
    assert form.apply(HostAction("setup.roster_add")) == form  # not while not editing
    form = form.apply(HostAction("setup.roster_edit"))
    form = form.apply(HostAction("setup.roster_add"))
    assert form.roster == ("志強", "美玲", "阿德")
    assert form.apply(HostAction("setup.roster_add")).roster == form.roster  # no twice
    form = form.apply(HostAction("setup.roster_pick", 0))
    form = form.apply(HostAction("setup.roster_remove"))
    assert form.roster == ("美玲", "阿德") and form.roster_pick is None
    form = form.apply(HostAction("key.x"))  # (nothing)
    form = form.apply(HostAction("setup.roster_pick", 0))
    for _ in range(2):
        form = form.apply(HostAction("erase"))
    form = form.apply(HostAction("setup.cand", "阿")).apply(HostAction("setup.cand", "美"))
    form = form.apply(HostAction("setup.roster_rename"))
    assert form.roster == ("阿美", "阿德")
    assert form.apply(HostAction("setup.done")).roster_edit is False


def test_saving_keeps_the_hosts_comments_and_keys(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text(CONFIG, encoding="utf-8")
    save_roster(path, ("志強", "美玲", "阿德"))
    text = path.read_text(encoding="utf-8")
    assert text == CONFIG.replace('["志強", "美玲"]', '["志強", "美玲", "阿德"]')
    assert load_config(path).table.roster == ("志強", "美玲", "阿德")
    # a file with no roster yet, or none at all
    bare = tmp_path / "bare.toml"
    bare.write_text("# nothing yet\n", encoding="utf-8")
    save_roster(bare, ("Ann",))
    assert tomllib.loads(bare.read_text(encoding="utf-8"))["table"]["roster"] == ["Ann"]
    assert bare.read_text(encoding="utf-8").startswith("# nothing yet\n")
    save_roster(tmp_path / "new.toml", ("Ann",))
    assert load_config(tmp_path / "new.toml").table.roster == ("Ann",)


def test_a_broken_config_is_not_overwritten(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    broken = CONFIG + "[screen\n"
    path.write_text(broken, encoding="utf-8")
    with pytest.raises(ValueError, match="the roster is not saved"):
        save_roster(path, ("Ann",))
    assert path.read_text(encoding="utf-8") == broken
    with pytest.raises(ValueError, match="twice"):
        save_roster(path, ("Ann", "Ann"))


def test_the_screen_saves_the_roster_and_says_when_it_cannot(
        tmp_path: Path, referee: Referee, clock: FakeClock) -> None:
    path = tmp_path / "config.toml"
    path.write_text(CONFIG, encoding="utf-8")
    screen = PygameScreen(size=(800, 480), rng=random.Random(1), roster=("志強", "美玲"),
                          config_path=path)
    try:
        loop = Loop(referee, clock, screen=screen)
        now = clock.now_ns()
        for action in (HostAction("setup.focus", 0), HostAction("setup.cand", "德"),
                       HostAction("setup.roster_edit"), HostAction("setup.roster_add")):
            screen.host_action(loop, action, now)
        assert screen.roster == ("志強", "美玲", "德")
        assert load_config(path).table.roster == ("志強", "美玲", "德")
        assert "# tonight's game" in path.read_text(encoding="utf-8")
        # the host broke the file meanwhile: said on the screen, the log has why, and the
        # file is left as the host wrote it
        broken = CONFIG + "[screen\n"
        path.write_text(broken, encoding="utf-8")
        screen.host_action(loop, HostAction("setup.roster_pick", 0), now)
        screen.host_action(loop, HostAction("setup.roster_remove"), now)
        assert screen.notice is not None and screen.notice.key == "status.roster_not_saved"
        assert path.read_text(encoding="utf-8") == broken
        snap = screen.snapshot(loop, now)
        screen.renderer.render(snap)
        kept: tuple[str, ...] = screen.roster
        assert kept == ("美玲", "德")  # kept while the kiosk runs
    finally:
        screen.close()


def test_without_a_config_file_the_screen_says_the_roster_is_not_saved(
        referee: Referee, clock: FakeClock) -> None:
    screen = PygameScreen(size=(800, 480), rng=random.Random(1), roster=("志強",))
    try:
        loop = Loop(referee, clock, screen=screen)
        now = clock.now_ns()
        for action in (HostAction("setup.focus", 0), HostAction("setup.roster_edit"),
                       HostAction("setup.roster_pick", 0), HostAction("setup.roster_remove")):
            screen.host_action(loop, action, now)
        assert screen.roster == ()
        assert screen.notice is not None and screen.notice.key == "status.roster_not_saved"
        screen.renderer.render(screen.snapshot(loop, now))
        assert "常來的人沒有存起來（詳見記錄）" in [t.text for t in screen.renderer.texts]
    finally:
        screen.close()
