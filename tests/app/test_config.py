from __future__ import annotations

from pathlib import Path

import pytest

from tablekeeper.config import (
    Config,
    ConfigError,
    ScreenConfig,
    TableConfig,
    load_config,
    save_config,
)


def test_missing_file_gives_defaults(tmp_path: Path) -> None:
    assert load_config(tmp_path / "nope.toml") == Config()
    assert load_config(None) == Config()


def test_round_trip(tmp_path: Path) -> None:
    cfg = Config(TableConfig(("阿明", "小華", "Ann \"A\""), ("purple", "red", "blue"), "advanced",
                             "en", "/var/lib/tablekeeper"),
                 ScreenConfig((800, 480), False), {"pins": {"seats": [5, 6, 13]}})
    path = tmp_path / "sub" / "tablekeeper.toml"
    save_config(cfg, path)
    assert load_config(path) == cfg
    assert not [p for p in path.parent.iterdir() if p.name.startswith(".")]  # no temp left


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[table\nplayers = 3", "not valid TOML"),
        ("[table]\ngame = 'chess'", "table.game: 'chess' is not a game of this box"),
        ("[table]\nroster = ['志強', '']", "table.roster: a name is empty"),
        ("[table]\nroster = ['志強', '志強']", "table.roster: a name is there twice"),
        ("[table]\nroster = ['Bartholomew Jones']", "longer than 12"),
        ("[table]\nroster = '志強'", "table.roster: expected list"),
        ("[table]\nplayers = ['a', 'b', 'c']\ncolours = ['red', 'red', 'blue']",
         "same colour"),
        ("[table]\nplayers = ['a', 'b', 'c']\ncolours = ['red', 'pink', 'blue']",
         "table.colours[1]: 'pink'"),
        ("[table]\nvariant = 'hard'", "table.variant: 'hard'"),
        ("[table]\nlanguage = 'fr'", "table.language"),
        ("[table]\nplayer = ['a']", "unknown key(s) player"),
        ("[screen]\nsize = [10, 10]", "not a plausible screen size"),
        ("[screen]\nfullscreen = 'yes'", "screen.fullscreen: expected bool"),
        ("pins = 3", "pins: expected dict"),
        ("[table.decks]\nsomething-mising = '/d'",
         "table.decks: 'something-mising' is not a game of this box"),
        ("[table.decks]\nsomething-missing = 3", "table.decks.something-missing: expected str"),
        ("[table]\ndecks = ['/d']", "table.decks: expected dict"),
        ("[table]\nitems_deck = '/a'\n[table.decks]\nsomething-missing = '/b'",
         "name the deck once"),
    ],
)
def test_bad_config_names_file_and_key(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError) as exc:
        load_config(path)
    assert str(path) in str(exc.value)
    assert message in str(exc.value)


def test_the_game_and_the_roster(tmp_path: Path) -> None:
    path = tmp_path / "table.toml"
    path.write_text('[table]\ngame = "something-missing"\nroster = ["志強", " 美玲 "]\n'
                    'players = ["美玲", "Ann"]\n', encoding="utf-8")
    table = load_config(path).table
    assert table.game == "something-missing"
    assert table.roster == ("志強", "美玲")
    assert table.names == ("志強", "美玲", "Ann")  # the older `players` join the roster
    assert TableConfig().names == () and TableConfig().game == "something-missing"


def test_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_bytes(b"[table]\nplayers = ['\xff']\n")
    with pytest.raises(ConfigError, match="not UTF-8"):
        load_config(path)


def test_failed_save_keeps_old_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "tablekeeper.toml"
    save_config(Config(), path)
    before = path.read_bytes()

    def boom(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("os.fsync", boom)
    with pytest.raises(OSError):
        save_config(Config(TableConfig(variant="easy")), path)
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["tablekeeper.toml"]


def test_each_game_names_its_deck(tmp_path: Path) -> None:
    path = tmp_path / "table.toml"
    path.write_text('[table]\nstate_dir = "/s"\n[table.decks]\nsomething-missing = " /d/items "\n',
                    encoding="utf-8")
    table = load_config(path).table
    assert table.deck_for("something-missing") == "/d/items"
    assert table.deck_for("the-game") is None  # not named: the game's demo deck
    assert TableConfig(items_deck="/old").deck_for("something-missing") == "/old"
    assert TableConfig(decks={"something-missing": ""}).deck_for("something-missing") is None
    save_config(load_config(path), path)
    assert load_config(path).table == table


def test_a_mistyped_game_in_decks_says_the_near_name(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text("[table.decks]\nsomething-mising = '/d'\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="did you mean 'something-missing'"):
        load_config(path)
