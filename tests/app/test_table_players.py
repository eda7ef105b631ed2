"""The table's players stay when the host changes games, plays again, or the kiosk restarts.

Through the real PygameScreen (SDL's dummy driver), referee and kits.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from display.input import HostAction
from display.model import PlayerInfo
from display.setup import SetupForm
from tablekeeper import games, table_players
from tablekeeper.app import Loop
from tablekeeper.clock import FakeClock
from tablekeeper.referee import Referee
from tablekeeper.screen import PygameScreen

EIGHT = tuple(PlayerInfo(n, c) for n, c in zip(
    ("美玲", "志強", "Ann", "家豪", "淑芬", "怡君", "Bob", "阿德"),
    ("red", "yellow", "blue", "green", "orange", "brown", "purple", "white"), strict=True))


def test_the_form_seats_the_table_within_each_games_range() -> None:
    for name in games.names():
        spec = games.load(name).setup
        form = SetupForm.for_spec(spec, table=EIGHT[:5])
        n = min(5, spec.max_players)
        assert [p.name for p in form.players][:n] == [p.name for p in EIGHT[:n]], name
        assert spec.min_players <= len(form.players) <= spec.max_players
        assert form.ready, (name, form.problems)  # colours the game has, none twice
        assert all(p.colour in spec.colours for p in form.players)
        # a colour the game has is kept
        kept = [p.colour for p in form.players[:n]] == [p.colour for p in EIGHT[:n]]
        assert kept or not set(c.colour for c in EIGHT[:n]) <= set(spec.colours), name


def test_names_stay_across_games_and_restarts(tmp_path: Path, referee: Referee,
                                               clock: FakeClock) -> None:
    path = tmp_path / table_players.FILE_NAME
    screen = PygameScreen(size=(800, 480), rng=random.Random(1), table_file=path)
    try:
        loop = Loop(referee, clock, screen=screen)
        now = clock.now_ns()
        screen.host_action(loop, HostAction("setup.focus", 0), now)
        screen.host_action(loop, HostAction("setup.cand", "美"), now)
        screen.host_action(loop, HostAction("setup.done"), now)
        screen.host_action(loop, HostAction("confirm"), now)  # start
        assert referee.engine.started(referee.state)
        assert screen.table[0].name == "美"
        # another game: its form starts from the table
        form = screen.new_form(loop)
        assert form.players[0].name == "美"
    finally:
        screen.close()
    # a restart: read back from the games folder
    again = PygameScreen(size=(800, 480), table_file=path)
    try:
        assert again.table[0].name == "美"
    finally:
        again.close()


def test_a_damaged_table_file_is_reported_and_the_table_starts_empty(tmp_path: Path) -> None:
    path = tmp_path / table_players.FILE_NAME
    path.write_text('{"players": [{"name": "A"}]', encoding="utf-8")  # cut short
    players, problem = table_players.load(path)
    assert players == () and problem is not None and "table.json" in problem
    path.write_text('{"players": [{"name": "A"}]}', encoding="utf-8")  # no colour
    assert table_players.load(path)[0] == ()
    assert table_players.load(tmp_path / "none.json") == ((), None)
    # a folder that cannot be written: reported, nothing raised
    problem = table_players.save(tmp_path / "missing" / "table.json", EIGHT)
    assert problem is not None and "cannot be written" in problem


def test_the_language_chosen_in_the_menu_outlives_a_restart(tmp_path: Path, referee: Referee,
                                                            clock: FakeClock) -> None:
    """Issue 41: switched in the host menu, the language reverted to the config's after a
    restart; it is kept in table.json with the players."""
    path = tmp_path / table_players.FILE_NAME
    screen = PygameScreen(size=(800, 480), lang="zh-TW", table_file=path)
    try:
        loop = Loop(referee, clock, screen=screen)
        screen.host_action(loop, HostAction("menu"), clock.now_ns())
        screen.host_action(loop, HostAction("menu.pick", "lang"), clock.now_ns())
        assert screen.lang == "en"
    finally:
        screen.close()
    again = PygameScreen(size=(800, 480), lang="zh-TW", table_file=path)  # the config's
    try:
        assert again.lang == "en"
    finally:
        again.close()
    # a language the box does not speak, or a damaged file: the config's is spoken
    path.write_text('{"players": [], "lang": "fr"}', encoding="utf-8")
    assert table_players.load_language(path) is None
    path.write_bytes(b"\xff\xfe junk")
    assert table_players.load_language(path) is None
    assert table_players.load(path)[0] == ()


def test_default_names_follow_the_screens_language_live(tmp_path: Path, referee: Referee,
                                                        clock: FakeClock) -> None:
    """Issue 41: a seat nobody named is called by its colour in the screen's language, also
    after the game started (「黃色」 stayed on an English screen)."""
    screen = PygameScreen(size=(800, 480), lang="zh-TW", rng=random.Random(1))
    try:
        loop = Loop(referee, clock, screen=screen)
        screen.host_action(loop, HostAction("confirm"), clock.now_ns())  # start, no names
        assert referee.engine.started(referee.state)
        zh = [p.name for p in screen.snapshot(loop, clock.now_ns()).players]
        assert "黃色" in zh
        screen.host_action(loop, HostAction("lang"), clock.now_ns())
        snap = screen.snapshot(loop, clock.now_ns())
        assert "Yellow" in [p.name for p in snap.players] and "黃色" not in str(snap.players)
        screen.render(loop, clock.now_ns())
        drawn = " ".join(t.text for t in screen.renderer.texts)
        assert "黃色" not in drawn
    finally:
        screen.close()


def test_the_name_keyboard_opens_in_the_screens_language(tmp_path: Path, referee: Referee,
                                                         clock: FakeClock) -> None:
    from display import zhuyin

    screen = PygameScreen(size=(800, 480), lang="en", rng=random.Random(1))
    try:
        loop = Loop(referee, clock, screen=screen)
        screen.host_action(loop, HostAction("setup.focus", 0), clock.now_ns())
        assert screen.setup is not None and screen.setup.keyboard == "latin"
        screen.host_action(loop, HostAction("setup.done"), clock.now_ns())
        screen.host_action(loop, HostAction("lang"), clock.now_ns())
        screen.host_action(loop, HostAction("setup.focus", 1), clock.now_ns())
        assert screen.setup.keyboard == ("zhuyin" if zhuyin.available() else "latin")
        screen.host_action(loop, HostAction("lang"), clock.now_ns())  # English, 注音 open
        screen.render(loop, clock.now_ns())
        labels = [b.label for b in screen.renderer.buttons]
        assert "1st" not in labels
        if zhuyin.available():
            assert "ˉ" in labels  # the first tone's own mark
    finally:
        screen.close()
