"""Fault suite, settings never lost: the config file edited by hand (by another process, for
real) while the kiosk runs, then saved from the screen; and a config that is a symbolic link.

- the roster: the owner types 「怡君」 into ``[table] roster`` while the kiosk runs, the host adds
  "Bob" on the screen: both are kept (the screen's edit is applied to the file's roster as it
  is now, not its start-up copy), the screen says both were kept, and 「怡君」 is offered;
- the tie window and a deck's folder: a key the screen did not change, edited by hand
  meanwhile, stays; the very key the screen saves, edited by hand meanwhile, is a clash the
  screen says (``setup.config.clash``) and the log names (the file's value, the one saved);
- the zones (``[[vision.zones]]``): a zone the set-up step saves, moved or added in the file by
  hand since the step read it, is a clash said the same way; another game's zone edited
  meanwhile, and every other key, stay;
- a config that is a symbolic link: every save writes its target (atomically), the link stays
  a link, and later hand edits of the real file are read.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import tomllib
from collections.abc import Callable
from pathlib import Path

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from display.i18n import tr
from display.input import HostAction
from tablekeeper import games
from tablekeeper.app import Loop
from tablekeeper.clock import FakeClock
from tablekeeper.config import load_config, merge_roster
from tablekeeper.referee import Referee
from tablekeeper.screen import PygameScreen
from tablekeeper.tablesetup import zones as zones_step
from tablekeeper.tablesetup.configedit import save_deck_path, save_tie_window
from tablekeeper.tablesetup.simzones import SimZones
from tablekeeper.tablesetup.step import StepContext
from vision.deck import Deck
from vision.simtable import SimulatedTable

CONFIG = """\
# the café's box
[table]
game = "wink"
roster = ["志強", "美玲"]   # the regulars

[firmware.arbiter]
tie_window_us = 100.0   # measured in March
"""


def hand_edit(path: Path, old: str, new: str) -> None:
    """Another process edits the file the way an editor does (writes it whole again)."""
    code = ("import sys, pathlib; p = pathlib.Path(sys.argv[1]); "
            "t = p.read_text(encoding='utf-8'); assert sys.argv[2] in t; "
            "p.write_text(t.replace(sys.argv[2], sys.argv[3]), encoding='utf-8')")
    subprocess.run([sys.executable, "-c", code, str(path), old, new], check=True, timeout=60)


def test_a_name_typed_into_the_config_while_the_kiosk_runs_is_kept(
        tmp_path: Path, referee: Referee, clock: FakeClock,
        record_property: Callable[[str, object], None]) -> None:
    record_property("faults", 1)
    path = tmp_path / "config.toml"
    path.write_text(CONFIG, encoding="utf-8")
    screen = PygameScreen(size=(800, 480), rng=random.Random(1), roster=("志強", "美玲"),
                          config_path=path)
    try:
        loop = Loop(referee, clock, screen=screen)
        now = clock.now_ns()
        screen.host_action(loop, HostAction("setup.focus", 0), now)
        hand_edit(path, '["志強", "美玲"]', '["志強", "美玲", "怡君"]')  # the owner, meanwhile
        for action in (HostAction("setup.cand", "B"), HostAction("setup.cand", "ob"),
                       HostAction("setup.roster_edit"), HostAction("setup.roster_add")):
            screen.host_action(loop, action, now)
        assert load_config(path).table.roster == ("志強", "美玲", "怡君", "Bob")
        assert "# the regulars" in path.read_text(encoding="utf-8")
        assert screen.roster == ("志強", "美玲", "怡君", "Bob")  # offered from now on
        assert screen.notice is not None and screen.notice.key == "status.roster_merged"
        for lang in ("zh-TW", "en"):
            assert tr("status.roster_merged", lang) != "status.roster_merged"
        # the next edit (a removal on the screen) keeps her too
        screen.host_action(loop, HostAction("setup.roster_pick", 0), now)
        screen.host_action(loop, HostAction("setup.roster_remove"), now)
        assert load_config(path).table.roster == ("美玲", "怡君", "Bob")
    finally:
        screen.close()


def test_merge_roster_applies_only_the_screens_edits() -> None:
    base = ("志強", "美玲")
    assert merge_roster(("志強", "美玲", "怡君"), base, ("志強", "美玲", "Bob")) == \
        ("志強", "美玲", "怡君", "Bob")
    assert merge_roster(("志強", "美玲", "怡君"), base, ("美玲",)) == ("美玲", "怡君")
    assert merge_roster(("志強", "美玲", "怡君"), base, ("阿強", "美玲")) == \
        ("阿強", "美玲", "怡君")  # a rename keeps its place
    assert merge_roster(("美玲",), base, ("志強", "美玲", "Bob")) == ("美玲", "Bob")  # removed
    assert merge_roster(base, base, ("Bob",)) == ("Bob",)


def test_the_tie_window_saved_keeps_other_hand_edits_and_says_a_clash(
        tmp_path: Path, record_property: Callable[[str, object], None]) -> None:
    record_property("faults", 2)
    path = tmp_path / "config.toml"
    path.write_text(CONFIG, encoding="utf-8")
    hand_edit(path, 'game = "wink"', 'game = "the-game"')  # another key: kept
    assert save_tie_window(path, 180.0, base=100.0) == []
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    assert data["table"]["game"] == "the-game"
    assert data["firmware"]["arbiter"]["tie_window_us"] == 180.0
    assert "# measured in March" in path.read_text(encoding="utf-8")
    hand_edit(path, "tie_window_us = 180.0", "tie_window_us = 250.0")  # the same key
    clashes = save_tie_window(path, 120.0, base=180.0)
    assert len(clashes) == 1 and "250.0" in clashes[0] and "120.0" in clashes[0], clashes
    assert tomllib.loads(path.read_text(encoding="utf-8"))["firmware"]["arbiter"][
        "tie_window_us"] == 120.0
    for lang in ("zh-TW", "en"):
        assert tr("setup.config.clash", lang) != "setup.config.clash"


def test_a_deck_folder_edited_by_hand_meanwhile_is_a_clash(
        tmp_path: Path, record_property: Callable[[str, object], None]) -> None:
    record_property("faults", 1)
    path = tmp_path / "config.toml"
    path.write_text(CONFIG + '\n[table.decks]\nwink = "/decks/wink-old"\n', encoding="utf-8")
    hand_edit(path, "/decks/wink-old", "/decks/wink-hand")
    clashes = save_deck_path(path, "wink", tmp_path / "wink", base="/decks/wink-old")
    assert len(clashes) == 1 and "/decks/wink-hand" in clashes[0]
    assert load_config(path).table.decks["wink"] == str(tmp_path / "wink")
    assert save_deck_path(path, "wink", tmp_path / "wink2", base=str(tmp_path / "wink")) == []


@pytest.mark.parametrize("save", ["roster", "tie window", "deck"])
def test_a_config_that_is_a_symlink_is_saved_through_it(
        tmp_path: Path, save: str, referee: Referee, clock: FakeClock,
        record_property: Callable[[str, object], None]) -> None:
    record_property("faults", 1)
    real = tmp_path / "etc" / "config.toml"
    real.parent.mkdir()
    real.write_text(CONFIG, encoding="utf-8")
    link = tmp_path / "state" / "config.toml"
    link.parent.mkdir()
    link.symlink_to(real)
    if save == "roster":
        screen = PygameScreen(size=(800, 480), rng=random.Random(1), roster=("志強", "美玲"),
                              config_path=link)
        try:
            loop = Loop(referee, clock, screen=screen)
            now = clock.now_ns()
            for action in (HostAction("setup.focus", 0), HostAction("setup.cand", "德"),
                           HostAction("setup.roster_edit"), HostAction("setup.roster_add")):
                screen.host_action(loop, action, now)
        finally:
            screen.close()
    elif save == "tie window":
        save_tie_window(link, 150.0, base=100.0)
    else:
        save_deck_path(link, "wink", tmp_path / "wink")
    assert link.is_symlink() and link.resolve() == real.resolve()
    assert [p.name for p in link.parent.iterdir()] == ["config.toml"]  # no copy, no leftover
    assert "# the regulars" in real.read_text(encoding="utf-8")
    assert load_config(link) == load_config(real)
    hand_edit(real, 'game = "wink"', 'game = "the-game"')  # later edits of the real file ...
    assert load_config(link).table.game == "the-game"  # ... are what the kiosk reads


ZONES_CONFIG = """\
# the café's box
[table]
game = "the-game"

[vision]
stable_frames = 2   # the host's own

[[vision.zones]]    # Wink's corner cell, calibrated last week
name = "r1c1"
polygon = [[1.0, 2.0], [30.0, 2.0], [30.0, 40.0]]

[[vision.zones]]    # The Game's first row, laid out by hand
name = "row1"
polygon = [[5.0, 5.0], [6.0, 5.0], [6.0, 6.0]]
"""


@pytest.mark.parametrize("edited", ["the same zone", "another game's zone", "a zone added"])
def test_zones_saved_from_the_screen_say_a_hand_edit_of_the_same_zone(
        tmp_path: Path, edited: str, demo_decks: Callable[[str], Deck],
        record_property: Callable[[str, object], None]) -> None:
    """The zones step of The Game (made as the set-up area makes it: what the file held
    then is its base), the cards found on the simulated table and taken; meanwhile another
    process edits the config; then the host saves. Every other hand edit stays; a zone the
    save replaces that the file changed since (moved, or added) is a clash: the screen's
    zones are saved, the log names the file's, and the banner says so."""
    record_property("faults", 1)
    path = tmp_path / "config.toml"
    path.write_text(ZONES_CONFIG, encoding="utf-8")
    told: list[str] = []
    kit = games.load("the-game")
    ctx = StepContext("the-game", kit, load_config(path), path, tmp_path / "decks",
                      tell=lambda key, **params: told.append(key))
    step = zones_step.make(ctx)
    deck = demo_decks("the-game")
    table = SimulatedTable(deck, seed=5, size=(1280, 960))
    SimZones(table, "rows:4", deck.ids).act(step.wants())
    t = 0
    while step.wants().kind != "confirm" and t < 30 * 300_000_000:
        t += 300_000_000
        step.frame(table.capture().image, t)
    step.act(HostAction("confirm"), t)  # take the zones found
    assert step.phase == "adjust"
    hand_edit(path, "stable_frames = 2", "stable_frames = 3")  # another key: kept
    if edited == "the same zone":
        hand_edit(path, "[[5.0, 5.0], [6.0, 5.0], [6.0, 6.0]]",
                  "[[50.0, 50.0], [600.0, 50.0], [600.0, 60.0]]")
    elif edited == "another game's zone":
        hand_edit(path, "[[1.0, 2.0], [30.0, 2.0], [30.0, 40.0]]",
                  "[[1.0, 2.0], [31.0, 2.0], [31.0, 40.0]]")
    else:
        hand_edit(path, "# The Game's first row", '\nname = "row4"\npolygon = [[1.0, 1.0], '
                  '[2.0, 1.0], [2.0, 2.0]]\n\n[[vision.zones]]   # row 1')
    step.act(HostAction("confirm"), t)  # save
    assert step.done and step.problem is None
    text = path.read_text(encoding="utf-8")
    data = tomllib.loads(text)
    saved = {z["name"]: z["polygon"] for z in data["vision"]["zones"]}
    assert data["vision"]["stable_frames"] == 3 and "# the host's own" in text
    assert {"row1", "row2", "row3", "row4"} <= set(saved)
    for zone in step.zones:  # the screen's zones are what is saved
        assert saved[zone.name] == [[round(x, 1), round(y, 1)] for x, y in zone.polygon]
    wink = [[1.0, 2.0], [31.0, 2.0], [31.0, 40.0]] if edited == "another game's zone" \
        else [[1.0, 2.0], [30.0, 2.0], [30.0, 40.0]]
    assert saved["r1c1"] == wink  # another game's zone: kept as the file has it now
    if edited == "another game's zone":
        assert step.clashes == [] and told == []
    else:
        name = "row1" if edited == "the same zone" else "row4"
        assert len(step.clashes) == 1 and repr(name) in step.clashes[0], step.clashes
        held = "[50.0, 50.0]" if edited == "the same zone" else "[1.0, 1.0]"
        assert held in step.clashes[0]
        assert told == ["setup.config.clash.zones"]
        for lang in ("zh-TW", "en"):
            assert tr("setup.config.clash.zones", lang) != "setup.config.clash.zones"
    # a second save compares with what the first one wrote: no clash without a hand edit
    told.clear()
    step.phase, step.done = "adjust", False
    step.act(HostAction("confirm"), t)
    assert step.clashes == [] and told == []
