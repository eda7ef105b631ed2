"""Every command in hardware.md's shell blocks works as written (issue 31, Deliver 4).

Each ```sh block of hardware.md is cut into commands (a ``\\`` joins lines, ``#`` starts a
comment). Every command must match one entry of :data:`COMMANDS`: either it is **run** here,
in document order, against a fake box (a state folder standing for ``/var/lib/tablekeeper``,
a home folder with photos, simulated camera frames of the config's ``[camera] size``, gpiozero's
mock pins, SDL's dummy video and audio), or it is **skipped** with the reason it needs a Pi (or
a second machine, or systemd). A command that no entry knows fails the test: a new command in
the document must be run here or say why not.

What the rewriting does, and no more: ``/var/lib/tablekeeper`` -> the fake state folder,
``~`` -> the fake home, ``tablekeeper`` and ``/opt/tablekeeper/venv/bin/tablekeeper`` -> this
checkout's command, ``sudo`` and ``sudo -u tablekeeper`` dropped (who may read what is
``test_deck_access.py``'s business, run as a real system user there), placeholders (``DIR``,
``<game>``) -> real names, ``--camera picamera2`` -> a folder of frames (or the simulated table
for the marker calibration, its documented stand-in), ``tablekeeper:tablekeeper`` -> the
running user. Everything else of the command is run as printed.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import cv2
import pytest

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "hardware.md"
TABLEKEEPER = Path(sys.executable).parent / "tablekeeper"


def commands(text: str) -> list[tuple[int, str]]:
    """(line number, command) of every command in the ```sh blocks of ``text``."""
    out: list[tuple[int, str]] = []
    inside, pending, start = False, "", 0
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if line.startswith("```"):
            inside = line == "```sh" and not inside
            continue
        if not inside:
            continue
        if not pending:
            start = n
        # a comment: '#' at the start or after whitespace (not inside a word)
        line = re.sub(r"(^|\s)#.*$", "", line).rstrip()
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        command = " ".join((pending + line).split())
        pending = ""
        if command:
            out.append((start, command))
    return out


@dataclass(frozen=True)
class Entry:
    pattern: str  # a regular expression the whole command must match
    skip: str = ""  # why it cannot run here ("" = it runs)
    layout: str = ""  # calibrate: the cards its frame must show (pile, rows:4, grid:6x6)


PI = "needs the Pi"
COMMANDS: tuple[Entry, ...] = (
    Entry(r"sudo systemctl (stop|start) tablekeeper-kiosk",
          skip=f"{PI}'s systemd and the installed unit (the kiosk itself is tested in "
               "tests/app and tests/kiosk)"),
    Entry(r"sudo -u tablekeeper env LG_WD=/tmp /opt/tablekeeper/venv/bin/tablekeeper buzzer "
          r"calibrate .*",
          skip=f"{PI}'s GPIO with section 4's jumpers (mock pins are wired to nothing); its "
               "options are parsed by the CLI here"),
    Entry(r"sudo tablekeeper vision enroll --deck /var/lib/tablekeeper/decks/the-game "
          r"--from-images ~/photos --game the-game"),
    Entry(r"sudo tablekeeper vision enroll --deck /var/lib/tablekeeper/decks/the-game "
          r"--from-images ~/more-photos --add"),
    Entry(r"sudo -u tablekeeper tablekeeper vision calibrate --deck \S+ --camera picamera2 "
          r".*--layout rows:4 .*", layout="rows:4"),
    Entry(r"sudo -u tablekeeper tablekeeper vision calibrate --deck \S+ --camera picamera2 "
          r".*--layout grid:6x6 .*", layout="grid:6x6"),
    Entry(r"tablekeeper vision calibrate --deck DIR --image frame.png .*--layout pile",
          layout="pile"),
    Entry(r"tablekeeper vision calibrate --deck DIR --image frame.png .*--layout rows:4",
          layout="rows:4"),
    Entry(r"tablekeeper vision calibrate --deck DIR --image frame.png .*--layout grid:6x6",
          layout="grid:6x6"),
    Entry(r"sudo systemd/install.sh --dry-run"),
    Entry(r"sudo systemd/install.sh",
          skip="installs for real (apt packages, a user, /opt, a unit); "
               "tests/kiosk/test_install.py runs it in a throwaway prefix (slow tier)"),
    Entry(r"sudo -u tablekeeper env LG_WD=/tmp /opt/tablekeeper/venv/bin/tablekeeper selftest "
          r"--config \S+ --deck \S+",
          skip="needs a person at the box (presses, looking, listening); its --auto form "
               "(section 10) runs here"),
    Entry(r"sudo -u tablekeeper env LG_WD=/tmp tablekeeper selftest --auto .*"),
    Entry(r"journalctl -u tablekeeper-kiosk.*",
          skip=f"{PI}'s systemd journal with the unit's own lines"),
    Entry(r"sudo cp /var/lib/tablekeeper/games/<game>.jsonl ~ && sudo chown \"\$USER\" "
          r"~/<game>.jsonl"),
    Entry(r"scp pi@<kiosk>:<game>.jsonl \.", skip="copies to a second machine (a laptop)"),
    Entry(r"tablekeeper replay <game>.jsonl"),
    Entry(r"sudo -u tablekeeper tablekeeper vision calibrate-markers --config \S+ "
          r"--camera picamera2"),
    Entry(r"sudo tar -C /var/lib/tablekeeper -czf ~/tablekeeper-backup.tgz \."),
    Entry(r"sudo tar -C /var/lib/tablekeeper -xzf ~/tablekeeper-backup.tgz"),
    Entry(r"sudo chown -R tablekeeper:tablekeeper /var/lib/tablekeeper"),
)


def entry_for(command: str) -> Entry | None:
    found = [e for e in COMMANDS if re.fullmatch(e.pattern, command)]
    return found[0] if found else None


def test_every_command_of_hardware_md_is_run_here_or_says_why_not() -> None:
    found = commands(DOC.read_text(encoding="utf-8"))
    assert len(found) >= 20, found  # (the parser found the blocks)
    unknown = [f"hardware.md:{n}: {c}" for n, c in found if entry_for(c) is None]
    assert not unknown, ("commands in hardware.md that this test neither runs nor skips with "
                         "a reason (add them to COMMANDS):\n" + "\n".join(unknown))
    # (and no entry is left over from a command the document no longer has)
    used = {entry_for(c) for _, c in found}
    assert [e.pattern for e in COMMANDS if e not in used] == []


def test_the_command_parser_reads_blocks_continuations_and_comments() -> None:
    text = ("x\n```sh\nsudo a \\\n    --b 1   # note\n# only a comment\nc d\n```\n"
            "```toml\nnot = 'a command'\n```\n   ```sh\n   e\n   ```\n")
    assert commands(text) == [(3, "sudo a --b 1"), (6, "c d"), (12, "e")]


# --- running them ---------------------------------------------------------------------------


@dataclass
class Box:
    state: Path
    home: Path
    frames: Path
    env: dict[str, str]


def _frame(layout: str, size: tuple[int, int]) -> object:
    """A simulated frame of ``size`` with the cards ``layout`` calibrates from."""
    from vision.deck import load_deck
    from vision.demo_decks import demo_deck
    from vision.simtable import Conditions, Pose, SimulatedTable

    deck = load_deck(demo_deck("wink" if layout.startswith("grid") else "the-game"))
    table = SimulatedTable(deck, seed=3, size=size, conditions=Conditions.clean("dark"))
    w, h = size
    card = 0.11 * w
    ids = list(deck.ids)
    if layout == "pile":
        spots = [(w / 2, h / 2)]
    elif layout.startswith("rows"):
        spots = [(w * (0.2 + 0.2 * k), h / 2) for k in range(4)]
    else:  # the 4 corner cards of the grid
        spots = [(w * x, h * y) for y in (0.2, 0.8) for x in (0.2, 0.8)]
    for k, (x, y) in enumerate(spots):
        table.place(ids[k], Pose(x, y, angle=0, width=card))
    return table.capture().image


def _rewrite(command: str, box: Box, entry: Entry) -> str:
    c = command
    c = c.replace("sudo -u tablekeeper ", "").replace("sudo ", "")
    c = c.replace("/opt/tablekeeper/venv/bin/tablekeeper", str(TABLEKEEPER))
    c = re.sub(r"(^|&& |env LG_WD=/tmp )tablekeeper ", lambda m: f"{m.group(1)}{TABLEKEEPER} ",
               c)
    c = c.replace("/var/lib/tablekeeper", str(box.state))
    c = re.sub(r"(^| )~(/|$| )", lambda m: f"{m.group(1)}{box.home}{m.group(2)}", c)
    c = c.replace("<game>", "game-20261203-2000")
    c = c.replace("tablekeeper:tablekeeper", f"{os.getuid()}:{os.getgid()}")
    if entry.layout:
        folder = box.frames / entry.layout.replace(":", "-")
        if not folder.is_dir():
            folder.mkdir(parents=True)
            ok, buf = cv2.imencode(".png", _frame(entry.layout, (1280, 960)))  # type: ignore[call-overload]
            assert ok
            (folder / "frame.png").write_bytes(buf.tobytes())
        deck = box.state / "decks" / ("wink" if entry.layout.startswith("grid") else "the-game")
        c = c.replace("--deck DIR", f"--deck {deck}")
        c = c.replace("--image frame.png", f"--image {folder / 'frame.png'}")
        c = c.replace("--camera picamera2", f"--camera folder:{folder}")
    elif "calibrate-markers" in c:
        c = c.replace("--camera picamera2", "--simulate")
    return c


@pytest.fixture
def box(tmp_path: Path) -> Box:
    from vision.deck import load_deck
    from vision.demo_decks import demo_deck

    state, home = tmp_path / "var-lib-tablekeeper", tmp_path / "home"
    for d in (state / "games", home):
        d.mkdir(parents=True)
    the_game = load_deck(demo_deck("the-game"))
    ids = list(the_game.ids)
    for folder, chosen in (("photos", ids[:4]), ("more-photos", ids[4:6])):
        (home / folder).mkdir()
        for cid in chosen:
            ok, buf = cv2.imencode(".png", the_game.template(cid))
            assert ok
            (home / folder / f"{cid}.png").write_bytes(buf.tobytes())
    # Wink's deck for the grid: the demo deck's folder copied in (enrolled as in section 5)
    shutil.copytree(demo_deck("wink"), state / "decks" / "wink")
    # the config as section 5 step 4 and section 9 leave it (the camera simulated here)
    (state / "config.toml").write_text(
        f'[table]\nstate_dir = "{state}"\n'
        f'[table.decks]\nthe-game = "{state}/decks/the-game"\nwink = "{state}/decks/wink"\n'
        '[camera]\nsource = "sim"\n', encoding="utf-8")
    shutil.copy(ROOT / "tests" / "data" / "the_game_demo.jsonl",
                state / "games" / "game-20261203-2000.jsonl")
    env = {**os.environ, "HOME": str(home), "USER": os.environ.get("USER", "root"),
           "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy",
           "GPIOZERO_PIN_FACTORY": "mock", "PYGAME_HIDE_SUPPORT_PROMPT": "1",
           "TK_STATE_DIR": str(state), "TK_PREFIX": str(tmp_path / "opt")}
    return Box(state, home, tmp_path / "frames", env)


def _check(command: str, got: subprocess.CompletedProcess[str], box: Box) -> None:
    out = got.stdout + got.stderr
    if " selftest " in command:
        # An empty simulated table: nothing to focus on, no test card; everything else passes.
        failed = [ln.split()[1:3] for ln in got.stdout.splitlines() if ln.startswith("FAIL")]
        assert failed in ([["camera", "focus"], ["test", "card"]], []), out
        for item in ("pins vs config.txt", "seat 8 lamp output", "sound device",
                     "deck something-missing", "deck wink", "camera frame", "screen font"):
            assert re.search(rf"^(PASS|SKIP)\s+{re.escape(item)}\b", got.stdout, re.M), (item,
                                                                                          out)
        assert re.search(r"^PASS\s+deck the-game\s+the-game from ", got.stdout, re.M), out
        return
    assert got.returncode == 0, out
    if "vision enroll" in command:
        assert "enrolled" in out
    if "calibrate --deck" in command:
        assert "[[vision.zones]]" in got.stdout, out
    if "install.sh --dry-run" in command:
        assert got.stdout.rstrip().endswith("dry run done; nothing was changed"), out
    if " replay " in command:
        assert got.stdout.lstrip().startswith("{"), out


@pytest.mark.slow
def test_every_runnable_command_of_hardware_md_runs_as_written(box: Box) -> None:
    ran, skipped = [], []
    for n, command in commands(DOC.read_text(encoding="utf-8")):
        entry = entry_for(command)
        assert entry is not None, f"hardware.md:{n}: {command} (see the test above)"
        if entry.skip:
            skipped.append(n)
            if " buzzer calibrate " in command:  # its options at least
                from tablekeeper.cli import build_parser

                argv = shlex.split(command.split("/opt/tablekeeper/venv/bin/tablekeeper ")[1])
                args = build_parser().parse_args(argv)
                assert (args.out, args.seats, args.toggles) == (7, [1, 2], 2000)
            continue
        run = _rewrite(command, box, entry)
        got = subprocess.run(["bash", "-c", run], cwd=ROOT if "systemd/" in run else box.home,
                             capture_output=True, text=True, timeout=300, env=box.env,
                             stdin=subprocess.DEVNULL)
        _check(command, got, box)
        ran.append(n)
    # what the commands left behind, as the document says
    deck = box.state / "decks" / "the-game"
    assert len([p for p in deck.iterdir() if p.suffix == ".png"]) == 6  # 4 photos, 2 added
    assert (box.state / "rows.png").is_file() and (box.state / "grid.toml").is_file()
    assert (box.state / "markers.json").is_file()
    assert (box.home / "tablekeeper-backup.tgz").is_file()
    assert len(ran) >= 13 and len(skipped) >= 10, (ran, skipped)


# --- the commands in the text (issue 38) ----------------------------------------------------

#: A span in backquotes is a command when its first word is one of these.
COMMAND_WORDS = ("sudo", "tablekeeper", "./tk", "journalctl", "systemctl", "rpicam-hello",
                 "pinctrl", "git", "fc-list", "id", "ls", "df", "scp", "apt", "apt-get", "dpkg",
                 "systemd-analyze", "mosquitto_passwd", "pip", "tar", "stress-ng", "aplay",
                 "nmtui")


def inline_commands(text: str) -> list[tuple[int, str]]:
    """(line number, command) of every command quoted in the text of ``text`` (outside its
    fenced blocks): a span in backquotes, joined across the lines of its paragraph, whose first
    word is a :data:`COMMAND_WORDS`."""
    out: list[tuple[int, str]] = []
    inside = False
    paragraph: list[str] = []
    start = 0

    def flush() -> None:
        for m in re.finditer(r"`([^`]+)`", " ".join(paragraph)):
            words = m.group(1).split()
            if words and words[0] in COMMAND_WORDS and (len(words) > 1 or words == ["nmtui"]):
                out.append((start, " ".join(words)))
        paragraph.clear()

    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if line.startswith("```"):
            flush()
            inside = not inside
            continue
        if inside:
            continue
        if not line:
            flush()
            continue
        if not paragraph:
            start = n
        paragraph.append(line)
    flush()
    return out


CLI = "parsed by the CLI here (its options and sub-commands exist as written)"
SYSTEM = "the Pi's systemd"
INLINE: tuple[Entry, ...] = (
    Entry(r"tablekeeper vision camera-plan --sensor NAME"),  # run, for every camera
    Entry(r"(sudo )?(tablekeeper|\./tk) (?!test$).*", skip=CLI),
    Entry(r"\./tk test", skip="the whole test suite (this test is part of it)"),
    Entry(r"sudo (systemctl|reboot|raspi-config|fuser|userdel)\b.*|systemctl .*|sudo reboot",
          skip=f"{SYSTEM}, the installed unit and the Pi's GPIO (pinctrl)"),
    Entry(r"journalctl .*", skip="the Pi's journal"),
    Entry(r"sudo cp systemd/mosquitto-tablekeeper\.conf /etc/mosquitto/conf\.d/\S+",
          skip="the café's broker host; tests/cafe load that same file into their mosquitto"),
    Entry(r"systemd-analyze cat-config systemd/journald.conf",
          skip="the Pi's journald drop-ins; test_install.py runs it on the installer's"),
    Entry(r"systemd-analyze security tablekeeper-kiosk", skip=f"{SYSTEM} and the unit"),
    Entry(r"sudo systemd/install.sh", skip="installs for real; test_install.py runs it"),
    Entry(r"sudo TK_MQTT_PASSWORD_FILE=\S+ systemd/install.sh",
          skip="installs the café's publisher for real (docs/cafe.md; test_install.py)"),
    Entry(r"sudo tools/arm64-test.sh", skip="a qemu arm64 root, by hand (docs/arm64.md)"),
    Entry(r"sudo (apt|apt-get) .*|apt .*", skip="installs Debian/Pi OS packages"),
    Entry(r"dpkg -l .*", skip="the Pi's installed packages"),
    Entry(r"rpicam-hello .*", skip="the Pi's camera (rpicam-apps)"),
    Entry(r"stress-ng .*", skip="loads the Pi on purpose"),
    Entry(r"aplay -L", skip="the Pi's ALSA devices"),
    Entry(r"(id tablekeeper|ls -l /dev/gpiochip\*|fc-list .*|df -h /var/lib/tablekeeper)",
          skip="the Pi's users, devices, fonts and disk"),
    Entry(r"sudo chown -R tablekeeper:tablekeeper /var/lib/tablekeeper/decks",
          skip="the Pi's service user"),
    Entry(r"git (clone|bundle|pull)\b.*|tar [cx]zf tablekeeper\.tgz.*",
          skip="moves the checkout between machines (section 6, step 4)"),
    Entry(r"pip --require-hashes|pip install 'tablekeeper\[cafe\]'",
          skip="pip's own options (installs)"),
    Entry(r"nmtui|mosquitto_passwd .*", skip="the café's network and broker (docs/cafe.md)"),
)


def inline_entry(command: str) -> Entry | None:
    found = [e for e in INLINE if re.fullmatch(e.pattern, command)]
    return found[0] if found else None


def test_every_command_in_the_text_is_checked_here_or_says_why_not() -> None:
    found = inline_commands(DOC.read_text(encoding="utf-8"))
    assert len(found) >= 60, found
    unknown = [f"hardware.md:{n}: {c}" for n, c in found if inline_entry(c) is None]
    assert not unknown, ("commands in hardware.md's text that this test neither checks nor "
                         "skips with a reason (add them to INLINE):\n" + "\n".join(unknown))
    used = {inline_entry(c) for _, c in found}
    assert [e.pattern for e in INLINE if e not in used] == []


def test_the_inline_command_finder() -> None:
    text = ("Run `sudo systemctl\nstop tablekeeper-kiosk` then `x y`.\n\n```sh\n`git clone a`\n"
            "```\n`tablekeeper selftest` and `nmtui`\n")
    assert inline_commands(text) == [(1, "sudo systemctl stop tablekeeper-kiosk"),
                                     (7, "tablekeeper selftest"), (7, "nmtui")]


def _cli_argv(command: str) -> list[str]:
    """The command's arguments for the CLI's parser: placeholders made real names."""
    words = shlex.split(command.split(">")[0])
    while words and words[0] in ("sudo", "tablekeeper", "./tk"):
        words.pop(0)
    names = {"NAME": "cm3", "DIR": "/tmp/deck", "FILE": "game.jsonl", "...": "the-game"}
    return [names.get(w, w) for w in words]


def test_every_tablekeeper_command_in_the_text_parses(capsys: pytest.CaptureFixture[str]) -> None:
    """The CLI knows each quoted ``tablekeeper``/``./tk`` command: its sub-commands and options
    as written; a bare mention (``tablekeeper vision calibrate``) names a real sub-command
    (the parser then only misses its required arguments)."""
    from tablekeeper.cli import build_parser

    parser = build_parser()
    bad = []
    for n, command in inline_commands(DOC.read_text(encoding="utf-8")):
        entry = inline_entry(command)
        if entry is None or not re.match(r"(sudo )?(tablekeeper|\./tk) ", command) or \
                command == "./tk test":
            continue
        try:
            parser.parse_args(_cli_argv(command))
        except SystemExit as exc:
            said = capsys.readouterr().err
            if exc.code != 0 and "required" not in said:
                bad.append(f"hardware.md:{n}: {command}: {said.strip().splitlines()[-1]}")
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("key", ["cm3", "cm3-wide", "hq", "v2", "v1"])
def test_camera_plan_runs_as_the_text_says(key: str) -> None:
    command = "tablekeeper vision camera-plan --sensor NAME"
    assert command in [c for _, c in inline_commands(DOC.read_text(encoding="utf-8"))]
    got = subprocess.run([str(TABLEKEEPER), *_cli_argv(command.replace("NAME", key))],
                         capture_output=True, text=True, timeout=120)
    assert got.returncode == 0 and "crop: 1.00" in got.stdout, got.stdout + got.stderr
