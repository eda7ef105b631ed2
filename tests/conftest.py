"""Fixtures every part of the suite shares.

- **fonts**: the system's fonts are invisible to every test process (below);
- ``clock``: a :class:`tablekeeper.clock.FakeClock` (timers and the arbiter's settle window are
  tested in microseconds, never with sleeps);
- ``factory``: gpiozero's own ``MockFactory`` (``firmware.mock.mock_factory``), pins stamped on
  the fake clock's time line by the tests that press them;
- ``firmware``: the buttons, lamps and arbiter on those mock pins, on the fake clock, no sound;
- ``referee``: a :class:`tablekeeper.referee.Referee` keeping a new game of the default kit,
  journalled to ``tmp_path / "game.jsonl"``;
- ``started_referee``: the same after a 3-player 什麼不見啦 setup, the viewing passes run out on
  the referee's own timer: waiting for the first card;
- ``demo_decks``: ``demo_decks("wink")`` -> a demo deck, generated once per test session (one
  conftest for the whole suite: mypy checks the tests too, and two files named ``conftest``
  would be one module to it);
- **the fault suite's tally** (tests/kiosk/test_faults_*.py): how many faults were injected and
  survived, printed at the end of the run (below).
"""

from __future__ import annotations

import os
import random
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import system_needs
from hypothesis import settings

from firmware.box import Firmware, build
from firmware.config import FirmwareConfig
from firmware.mock import mock_factory
from tablekeeper.clock import FakeClock
from tablekeeper.journal import JournaledGame
from tablekeeper.referee import Referee
from vision.deck import Deck, load_deck
from vision.demo_decks import demo_deck

# --- fonts: what happens to be installed must not change a result ----------------------------
#
# A machine with fonts-noto-cjk passed tests that a fresh one (CI, a new laptop) failed: the
# bundled subset lacked characters the system font had. So every test sees what a fresh machine
# sees, set here at import, before any test module imports pygame:
#
# - TABLEKEEPER_SYSTEM_FONTS=0: display.fonts skips its hard-coded system paths (it reads the
#   variable whenever a FontBook is made) and uses the bundled subset;
# - FONTCONFIG_FILE: an empty fontconfig configuration (no font folders), so nothing that asks
#   fontconfig (pygame.font.SysFont / pygame.sysfont via fc-list, SDL) finds a system font.
#
# Child processes (the CLI and power-cut tests start `python -m tablekeeper`) inherit both.
# tests/display/test_display_fonts.py checks that this holds, and that the bundled font alone
# has every glyph the UI draws.

SYSTEM_FONTS_ENV = "TABLEKEEPER_SYSTEM_FONTS"  # display.fonts.SYSTEM_FONTS_ENV
EMPTY_FONTCONFIG = """<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<!-- tablekeeper's tests: no font folders, so fontconfig knows no fonts -->
<fontconfig></fontconfig>
"""


def hide_system_fonts() -> Path:
    """Point fontconfig at an empty configuration and switch display.fonts' system fonts off;
    returns the configuration file."""
    folder = Path(tempfile.gettempdir()) / f"tablekeeper-tests-{os.getuid()}"
    folder.mkdir(exist_ok=True)
    path = folder / "fonts-empty.conf"
    if not path.is_file() or path.read_text(encoding="utf-8") != EMPTY_FONTCONFIG:
        part = folder / f"fonts-empty.conf.{os.getpid()}"
        part.write_text(EMPTY_FONTCONFIG, encoding="utf-8")
        part.replace(path)  # atomic: xdist workers may race here
    os.environ["FONTCONFIG_FILE"] = str(path)
    os.environ[SYSTEM_FONTS_ENV] = "0"
    return path


EMPTY_FONTCONFIG_FILE = hide_system_fonts()


# --- hypothesis: CI explores the same examples every run ------------------------------------
#
# Locally every run draws new random examples (that is how the playouts find bugs); on CI
# (CI=true) the examples are derived from each test, so a landing is not decided by a draw.
# A failure found locally is kept in .hypothesis/ and replayed first next time.
# No deadline per example: a deadline is a timed assertion, and on a shared 2-core machine (or a
# Pi under emulation) a slow example is load, not a bug; speed is measured by the benchmarks.

settings.register_profile("local", deadline=None)
settings.register_profile("ci", deadline=None, derandomize=True, print_blob=True)
settings.load_profile("ci" if os.environ.get("CI") else "local")


# --- clock, pins, firmware, referee ---------------------------------------------------------

@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def factory() -> Any:
    return mock_factory()


@pytest.fixture
def firmware(factory: Any, clock: FakeClock) -> Iterator[Firmware]:
    config = FirmwareConfig.from_dict({"backend": "gpio", "sound": {"kind": "none"}})
    fw = build(config, factory, rng=random.Random(5), clock=clock.now_ns)
    yield fw
    fw.close()


@pytest.fixture
def referee(tmp_path: Path, firmware: Firmware, clock: FakeClock) -> Referee:
    return Referee(JournaledGame.create(tmp_path / "game.jsonl"), firmware, clock.now_ns(),
                   game_id="test")


@pytest.fixture
def started_referee(referee: Referee, clock: FakeClock) -> Referee:
    from engine.something_missing import Phase, State, ViewingStarted
    from tablekeeper.games.something_missing.host import new_game

    event = new_game(["A", "B", "C"], ["red", "yellow", "blue"], "easy", 0,
                     referee.at_ms(clock.now_ns()), random.Random(1))
    assert isinstance(referee.submit(event), State)
    if referee.state.deadline_ms is None:  # the host's "ready": the first pass starts
        referee.submit(ViewingStarted(at_ms=referee.at_ms(clock.now_ns())))
    while referee.state.phase is Phase.VIEWING:
        clock.advance_ms(1_000)
        referee.tick(clock.now_ns())
    assert referee.state.phase is Phase.REVEAL
    return referee


# --- vision ------------------------------------------------------------------------------


@pytest.fixture(scope="session")
def demo_deck_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A cache folder of demo decks shared by the session (decks are made on first use)."""
    return tmp_path_factory.mktemp("demo-decks")


@pytest.fixture(scope="session")
def demo_decks(demo_deck_cache: Path) -> Callable[[str], Deck]:
    """``demo_decks("wink")`` -> the loaded demo deck, generated once per session."""
    loaded: dict[str, Deck] = {}

    def get(name: str) -> Deck:
        if name not in loaded:
            loaded[name] = load_deck(demo_deck(name, demo_deck_cache))
        return loaded[name]

    return get


# --- the fault suite's tally ------------------------------------------------------------
#
# The fault suite's tally (tests/kiosk/test_faults_*.py): how many faults were injected, how
# many the kiosk survived (the test passed: no crash, the reason said, nothing acknowledged
# lost), printed at the end of the run. Each test case is one fault unless it records its own
# count (``record_property("faults", n)``: a test that tries many in a loop, or each example
# of a hypothesis test). Rerun it with:
#
#     PYTHONPATH=. .venv/bin/pytest -q -n 2 -p no:cacheprovider tests/kiosk/test_faults_*.py


@dataclass
class _Tally:
    tried: int = 0
    survived: int = 0
    tests: int = 0
    failed: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)


_TALLY = _Tally()


def _faults(report: pytest.TestReport) -> int:
    counts = [v for k, v in report.user_properties if k == "faults" and isinstance(v, int)]
    return sum(counts) if counts else 1


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    _note_skip(report)
    if "/test_faults_" not in "/" + report.nodeid.replace("::", "/"):
        return
    if report.when == "call" or (report.when == "setup" and not report.passed):
        _TALLY.tests += 1
        if report.skipped:
            reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else ""
            _TALLY.skipped.append(f"{report.nodeid} ({reason})")
            return
        faults = _faults(report)
        _TALLY.tried += faults
        if report.passed:
            _TALLY.survived += faults
        else:
            _TALLY.failed.append(report.nodeid)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    t = _TALLY
    if not t.tests:
        return
    lost = "nothing lost" if not t.failed else f"{len(t.failed)} tests FAILED"
    terminalreporter.write_line(
        f"fault suite: {t.tried} faults tried in {t.tests} tests, {t.survived} survived, "
        f"{lost}; {len(t.skipped)} tests skipped")
    for name in t.failed:
        terminalreporter.write_line(f"  failed: {name}")
    for name in t.skipped:
        terminalreporter.write_line(f"  skipped: {name}")


# --- what this machine lacks ----------------------------------------------------------------
#
# The tests that skip for a missing Debian package or for want of root say so with a tagged
# reason (tests/system_needs.py); the run ends with one line naming them and the one command
# that installs the packages (tools/system-deps.sh, what .ci/run runs). With xdist the
# controller sees every worker's reports, so the line is the whole run's.

_NEEDS: list[tuple[str, str]] = []
_SEEN = [0]


def _note_skip(report: pytest.TestReport | pytest.CollectReport) -> None:
    _SEEN[0] += 1
    if report.skipped and isinstance(report.longrepr, tuple):
        need = system_needs.parse(str(report.longrepr[2]))
        if need is not None:
            _NEEDS.append(need)


def pytest_collectreport(report: pytest.CollectReport) -> None:
    if report.skipped:  # a whole module skipped at collection
        _note_skip(report)


def pytest_unconfigure(config: pytest.Config) -> None:
    """After pytest's own summary line (pytest_terminal_summary comes before it): the last
    line of the run, on the controller only."""
    if hasattr(config, "workerinput") or not _SEEN[0]:
        return
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None:
        reporter.write_line(system_needs.summary(_NEEDS))
