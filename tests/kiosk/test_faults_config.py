"""Fault suite, config: broken config files through the real kiosk start-up path.

Every problem is reported at once (file, line, section, key); a bad value falls back for its
key alone; ``state_dir`` never falls back (the kiosk stops, exit 78, and says why); unknown
sections and keys are reported with the near name; an explicit ``--config`` that does not
exist stops the kiosk.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from tablekeeper.cli import main
from tablekeeper.kiosk import EXIT_CONFIG, read_config


def _run(config: Path) -> int:
    return main(["kiosk", "--config", str(config), "--keyboard", "--simulate-camera",
                 "--window", "--run-for", "0.3"])


def _errors(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]


def _start(tmp_path: Path, text: str, caplog: pytest.LogCaptureFixture,
           monkeypatch: pytest.MonkeyPatch) -> tuple[int, list[str], Path]:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))  # where the defaults would go
    state = tmp_path / "state"
    config = tmp_path / "tablekeeper.toml"
    config.write_text(text.replace("STATE", str(state)), encoding="utf-8")
    with caplog.at_level(logging.ERROR):
        code = _run(config)
    assert config.read_text(encoding="utf-8") == text.replace("STATE", str(state))  # untouched
    assert not (tmp_path / "home" / ".local").exists()  # never a game in the default folder
    return code, _errors(caplog), state


# (config text, what each reported problem must contain, in any order)
SOFT: list[tuple[str, list[str]]] = [
    ('[table]\nstate_dir = "STATE"\nlanguage = "english"\n',
     [":3: [table] language: 'english'"]),
    ('[table]\nlanguage = english\nstate_dir = "STATE"\n',  # not TOML: that line alone
     [":2: [table] language: not valid TOML"]),
    ('[table]\nstate_dir = "STATE"\n[firmware.pins]\nseats = [5, 6, 13\n[screen]\n'
     'fullscreen = false\n', [":4: [firmware] pins.seats: not valid TOML"]),
    ('[tabel]\nplayers = ["a", "b", "c"]\n[table]\nstate_dir = "STATE"\n',
     [":1: [tabel]: unknown section; did you mean 'table'?"]),
    ('[table]\nstate_dir = "STATE"\n[screem]\nsize = [800, 480]\n[fimware]\nbackend = "gpio"\n',
     ["[screem]: unknown section; did you mean 'screen'?",
      "[fimware]: unknown section; did you mean 'firmware'?"]),
    ('[table]\nstate_dir = "STATE"\nvariant = "hard"\nplayer = ["a"]\n[screen]\n'
     'fullscreen = "yes"\n[camera]\nfsp = 3\n[vision]\nstable_frame = 2\n[firmware]\n'
     'backend = "gpoi"\n[firmware.arbiter]\nwindow_ms = "x"\n',
     [":3: [table] variant: 'hard'", ":4: [table] player: unknown key; did you mean 'players'?",
      ":6: [screen] fullscreen: expected bool", ":8: [camera] fsp: unknown key; did you mean 'fps'",
      ":10: [vision] stable_frame: unknown key; did you mean 'stable_frames'",
      ":12: [firmware] backend: 'gpoi'", "[firmware] arbiter."]),
    ('[table]\nstate_dir = "STATE"\nplayers = ["a", "b", "c"]\ncolours = ["red", "red", "blue"]\n',
     [":4: [table] colours: two players have the same colour"]),
    ('[table]\nstate_dir = "STATE"\nplayers = ["\xff\xfe"]\n', []),  # valid UTF-8 text
]


@pytest.mark.parametrize(("text", "expected"), SOFT)
def test_a_bad_value_falls_back_alone_and_every_problem_is_said(
        tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch,
        text: str, expected: list[str]) -> None:
    code, errors, state = _start(tmp_path, text, caplog, monkeypatch)
    problems = [e for e in errors if e.startswith("config: ")]
    if "\xff" in text:  # one name, of valid UTF-8 text: a name like any (it joins the roster)
        assert code == 0 and not any("[table] players" in p for p in problems)
        return
    assert code == 0
    for fragment in expected:
        assert any(fragment in p for p in problems), (fragment, problems)
    assert len(problems) == len(expected), problems
    assert all(str(tmp_path / "tablekeeper.toml") in p for p in problems)
    assert (state / "games" / "current.jsonl").exists()  # the configured folder is used


def test_the_other_keys_of_a_broken_section_are_kept(tmp_path: Path) -> None:
    config = tmp_path / "c.toml"
    config.write_text('[table]\nlanguage = english\nvariant = "easy"\nstate_dir = "/x"\n'
                      '[firmware.pins]\nseats = [5, 6, 13\nconfirm = 3\n[screen]\n'
                      'size = [800, 480]\nfullscreen = nope\n', encoding="utf-8")
    report = read_config(config, explicit=True)
    assert report.fatal is None
    assert report.config.table.variant == "easy" and report.config.table.state_dir == "/x"
    assert report.config.table.language == "zh-TW"
    assert report.config.screen.size == (800, 480) and report.config.screen.fullscreen
    assert report.config.sections["firmware"] == {"pins": {"confirm": 3}}
    assert len(report.problems) == 3


FATAL: list[str] = [
    '[table]\nstate_dir = /var/lib/tablekeeper\n',     # not TOML
    '[table]\nstate_dir = 5\n',                        # not a path
    '[table]\nstate_dir = ""\n',                       # empty
    '[tabel]\nstate_dir = "STATE"\n',                  # in a misspelled section
    'state_dir = "STATE"\n[table]\nvariant = "easy"\n',  # outside [table]
    '[table]\nstate_dir = "STATE"\nstate_dir = "STATE"\n',  # twice: which one?
    '[table]\nstate_dir = "ST\xe9\n',                  # a broken string
]


@pytest.mark.parametrize("text", FATAL)
def test_state_dir_never_falls_back(tmp_path: Path, caplog: pytest.LogCaptureFixture,
                                    monkeypatch: pytest.MonkeyPatch,
                                    capsys: pytest.CaptureFixture[str], text: str) -> None:
    code, errors, state = _start(tmp_path, text, caplog, monkeypatch)
    assert code == EXIT_CONFIG
    err = capsys.readouterr().err.splitlines()  # one line: the unit's log gets nothing else
    assert len(err) == 1 and "table.state_dir" in err[0] and "stopped" in err[0], err
    assert not errors  # (no log line besides it)
    assert not state.exists()


def test_state_dir_in_bytes_that_are_not_utf8_stops_the_kiosk(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    config = tmp_path / "c.toml"
    config.write_bytes(b'[table]\nvariant = "easy"\nstate_dir = "/var/\xff"\n')
    assert _run(config) == EXIT_CONFIG
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and ":3: [table] state_dir: not UTF-8" in err[0], err
    assert not (tmp_path / "home" / ".local").exists()


def test_an_explicit_config_that_does_not_exist_stops_the_kiosk(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert _run(tmp_path / "nope.toml") == EXIT_CONFIG
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and "nope.toml: the config file does not exist" in err[0], err
    assert not (tmp_path / "home" / ".local").exists()


def test_an_unreadable_config_stops_the_kiosk(tmp_path: Path) -> None:
    config = tmp_path / "c.toml"
    config.mkdir()  # reading a directory fails for root too
    report = read_config(config, explicit=True)
    assert report.fatal is not None and "cannot be read" in report.fatal


def test_the_unit_does_not_restart_a_kiosk_stopped_for_its_config() -> None:
    unit = (Path(__file__).parents[2] / "systemd" / "tablekeeper-kiosk.service").read_text()
    assert f"RestartPreventExitStatus={EXIT_CONFIG}" in unit


def test_the_screen_gets_one_short_line_for_all_the_problems(tmp_path: Path) -> None:
    from tablekeeper.kiosk import config_summary

    config = tmp_path / "tablekeeper.toml"
    config.write_text('[table]\nstate_dir = "/x"\nlanguage = "english"\nvariant = "hard"\n'
                      '[screem]\n', encoding="utf-8")
    report = read_config(config, explicit=True)
    line = config_summary(report.problems, config)
    assert line is not None and "\n" not in line and str(tmp_path) not in line
    assert line.startswith("設定檔有誤 / config: tablekeeper.toml:3: [table] language")
    assert "+2 more in the log" in line
    assert config_summary((), config) is None


# --- a config that says nothing (issue 29): said, and the games stay where the service keeps
# them ($STATE_DIRECTORY, which systemd sets from the unit's StateDirectory=) ----------------

SAYS_NOTHING: dict[str, bytes] = {
    "empty": b"",
    "truncated to blanks": b"\n\n   \n",
    "only comments": b"# tablekeeper configuration\n",
    "NULs of a power cut": b"\0" * 4096,
    "garbage": b"}}}{{{ not toml at all ===\n",
}


@pytest.mark.parametrize("name", sorted(SAYS_NOTHING))
def test_a_config_that_says_nothing_is_said_and_the_games_stay_in_the_services_folder(
        tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch,
        name: str) -> None:
    from tablekeeper import screen as screen_module

    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    service = tmp_path / "var-lib-tablekeeper"
    monkeypatch.setenv("STATE_DIRECTORY", str(service))  # what systemd sets for the unit
    shown: list[str] = []
    real = screen_module.PygameScreen.show_problem

    def show_problem(self: object, problem: str, **told: str | None) -> None:
        shown.append(problem)
        real(self, problem, **told)  # type: ignore[arg-type]

    monkeypatch.setattr(screen_module.PygameScreen, "show_problem", show_problem)
    config = tmp_path / "config.toml"
    config.write_bytes(SAYS_NOTHING[name])
    with caplog.at_level(logging.ERROR):
        assert _run(config) == 0
    assert (service / "games" / "current.jsonl").is_file()  # the service's folder
    assert not (tmp_path / "home" / ".local").exists()  # never a new one in silence
    said = [e for e in _errors(caplog) if "nothing is set" in e]
    assert said and str(service) in said[0] and "STATE_DIRECTORY" in said[0]
    assert any("config" in p for p in shown), shown  # on the screen too
    assert config.read_bytes() == SAYS_NOTHING[name]  # left as it is


def test_the_default_games_folder_is_decided_by_the_service_then_the_user() -> None:
    from tablekeeper.config import USER_STATE_DIR, default_state_dir

    assert default_state_dir({"STATE_DIRECTORY": "/var/lib/tablekeeper"})[0] == \
        "/var/lib/tablekeeper"
    assert default_state_dir({"STATE_DIRECTORY": "/a:/b"})[0] == "/a"
    assert default_state_dir({"TABLEKEEPER_STATE_DIR": "/srv/tk"})[0] == "/srv/tk"
    assert default_state_dir({})[0] == USER_STATE_DIR


def test_the_unit_keeps_its_games_in_its_state_directory() -> None:
    unit = (Path(__file__).resolve().parents[2] / "systemd" / "tablekeeper-kiosk.service"
            ).read_text(encoding="utf-8")
    assert "StateDirectory=tablekeeper\n" in unit  # systemd: STATE_DIRECTORY=/var/lib/...
