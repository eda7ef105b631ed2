"""tablekeeper selftest against gpiozero's MockFactory, the simulated camera and SDL's dummy
drivers; a scripted person stands in for whoever is at the box."""

from __future__ import annotations

import dataclasses
import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from firmware.box import Firmware, build
from firmware.config import FirmwareConfig
from firmware.mock import mock_factory
from tablekeeper import selftest
from tablekeeper.cli import main
from tablekeeper.selftest import Result, SelfTest, TerminalPerson, Verdict, frame_quality


@pytest.fixture(autouse=True)
def _sdl_dummies(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    yield
    import pygame

    pygame.mixer.quit()
    pygame.display.quit()


@pytest.fixture
def factory() -> Any:
    return mock_factory()


@pytest.fixture
def fw(factory: Any) -> Iterator[Firmware]:
    box = build(FirmwareConfig.from_dict({"seats": 3}), pin_factory=factory)
    yield box
    box.close()


class ScriptedPerson:
    """Does what it is told, unless the script says otherwise; answers questions from a list.

    ``press``: seat asked -> seat actually pressed (None: presses nothing).
    """

    def __init__(self, fw: Firmware, factory: Any, *, press: dict[int, int | None] | None = None,
                 answers: dict[str, bool | None] | None = None, camera: Any = None,
                 card: str | None = None) -> None:
        self.fw, self.factory = fw, factory
        self.press = press or {}
        self.answers = answers or {}
        self.camera, self.card = camera, card
        self.told: list[str] = []
        self.asked: list[str] = []
        self.lamps_when_asked: dict[int, tuple[int, ...]] = {}

    def _lit(self) -> tuple[int, ...]:
        lamps = self.fw.config.pins.lamps
        return tuple(i for i, pin in enumerate(lamps, start=1)
                     if self.factory.pin(pin).state)

    def tell(self, text: str) -> None:
        self.told.append(text)
        pins = self.fw.config.pins
        seat = re.search(r"seat (\d+): press", text)
        if seat:
            asked = int(seat.group(1))
            self.lamps_when_asked[asked] = self._lit()
            actual = self.press.get(asked, asked)
            if actual is not None:
                pin = self.factory.pin(pins.seats[actual - 1])
                pin.press()
                pin.release()
            return
        host = re.search(r"press the host button (\w+)", text)
        if host:
            pin = self.factory.pin(getattr(pins, host.group(1)))
            pin.press()
            pin.release()
            return
        if "lay the test card" in text and self.camera is not None and self.card:
            self.camera.place(self.card, "centre")

    def ask(self, question: str) -> bool | None:
        self.asked.append(question)
        for key, answer in self.answers.items():
            if key in question:
                return answer
        return True


def by_item(results: list[Result]) -> dict[str, Result]:
    return {r.item: r for r in results}


# --- buttons, lamps, host buttons, sound ------------------------------------------------------

def test_interactive_all_good(fw: Firmware, factory: Any) -> None:
    person = ScriptedPerson(fw, factory)
    results = SelfTest(firmware=fw, person=person, timeout_s=2).run(["buttons", "host", "sound"])
    items = by_item(results)
    for seat in (1, 2, 3):
        assert items[f"seat {seat} button"].outcome is Verdict.PASS
        assert items[f"seat {seat} lamp"].outcome is Verdict.PASS
        # while the person was asked to press seat N, lamp N and only it was lit
        assert person.lamps_when_asked[seat] == (seat,)
    for action in ("confirm", "back", "next"):
        assert items[f"host {action}"].outcome is Verdict.PASS
    assert items["sound"].outcome is Verdict.PASS
    assert all(r.outcome is Verdict.PASS for r in results), results
    assert not any(factory.pin(p).state for p in fw.config.pins.lamps)  # lamps off after


def test_swapped_buttons_are_named(fw: Firmware, factory: Any) -> None:
    person = ScriptedPerson(fw, factory, press={1: 2, 2: 1})
    items = by_item(SelfTest(firmware=fw, person=person, timeout_s=2).run(["buttons"]))
    assert items["seat 1 button"].outcome is Verdict.FAIL
    assert "seat 2's button answered" in items["seat 1 button"].detail
    assert "swapped" in items["seat 2 button"].detail
    assert items["seat 3 button"].outcome is Verdict.PASS


def test_dead_button_times_out(fw: Firmware, factory: Any) -> None:
    person = ScriptedPerson(fw, factory, press={2: None})
    items = by_item(SelfTest(firmware=fw, person=person, timeout_s=0.05).run(["buttons"]))
    assert items["seat 2 button"].outcome is Verdict.FAIL
    assert "no press within 0.05 s" in items["seat 2 button"].detail
    assert items["seat 1 button"].outcome is Verdict.PASS


def test_lamp_not_seen_and_no_answer(fw: Firmware, factory: Any) -> None:
    person = ScriptedPerson(fw, factory, answers={"lamp 2": False, "lamp 3": None})
    items = by_item(SelfTest(firmware=fw, person=person, timeout_s=2).run(["buttons"]))
    assert items["seat 2 lamp"].outcome is Verdict.FAIL
    assert "12 V" in items["seat 2 lamp"].detail
    assert items["seat 3 lamp"].outcome is Verdict.SKIP


def test_host_button_wrong_one(fw: Firmware, factory: Any) -> None:
    class Mixup(ScriptedPerson):
        def tell(self, text: str) -> None:
            super().tell(text.replace("host button back", "host button next"))

    items = by_item(SelfTest(firmware=fw, person=Mixup(fw, factory), timeout_s=2).run(["host"]))
    assert items["host confirm"].outcome is Verdict.PASS
    assert items["host back"].outcome is Verdict.FAIL
    assert "the next button answered instead" in items["host back"].detail


def test_auto_checks_what_needs_nobody(fw: Firmware) -> None:
    items = by_item(SelfTest(firmware=fw, person=None).run(["buttons", "host", "sound"]))
    for seat in (1, 2, 3):
        assert items[f"seat {seat} button at rest"].outcome is Verdict.PASS
        assert items[f"seat {seat} lamp output"].outcome is Verdict.PASS
    assert items["host buttons"].outcome is Verdict.SKIP
    assert items["sound"].outcome is Verdict.PASS
    assert "without error" in items["sound"].detail


def test_the_calibration_jumpers_are_checked_off(fw: Firmware, factory: Any) -> None:
    items = by_item(SelfTest(firmware=fw, person=None).run(["buttons"]))
    assert items["calibration jumpers"].outcome is Verdict.PASS
    assert "no seat followed" in items["calibration jumpers"].detail


def test_calibration_jumpers_left_on_fail_naming_the_seats(factory: Any) -> None:
    from firmware.mock import JumperMockPin

    box = build(FirmwareConfig.from_dict({"seats": 3}), pin_factory=factory)
    factory.pin(7, pin_class=JumperMockPin, inputs=[factory.pin(4), factory.pin(17)])
    try:
        for person in (None, ScriptedPerson(box, factory)):
            items = by_item(SelfTest(firmware=box, person=person, timeout_s=0.2).run(
                ["buttons"]))
            jumpers = items["calibration jumpers"]
            assert jumpers.outcome is Verdict.FAIL
            assert "GPIO 7 pulls seat 1, 2" in jumpers.detail and "remove" in jumpers.detail
        assert box.buttons.pressed_seats() == frozenset()  # the output let go of
    finally:
        box.close()


def test_auto_finds_a_stuck_button(factory: Any) -> None:
    factory.pin(17).held = True  # seat 2's input shorted to GND, already at start-up
    box = build(FirmwareConfig.from_dict({"seats": 3}), pin_factory=factory)
    try:
        items = by_item(SelfTest(firmware=box, person=None).run(["buttons"]))
    finally:
        box.close()
    assert items["seat 2 button at rest"].outcome is Verdict.FAIL
    assert "short to GND" in items["seat 2 button at rest"].detail
    assert items["seat 1 button at rest"].outcome is Verdict.PASS


def test_sound_fails_without_an_audio_device(factory: Any,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    import pygame

    pygame.mixer.quit()
    monkeypatch.setenv("SDL_AUDIODRIVER", "no-such-driver")
    box = build(FirmwareConfig.from_dict({"seats": 3}), pin_factory=factory)
    try:
        items = by_item(SelfTest(firmware=box, person=None).run(["sound"]))
    finally:
        box.close()
    assert items["sound"].outcome is Verdict.FAIL
    assert "audio group" in items["sound"].detail


def test_sound_not_heard(fw: Firmware, factory: Any) -> None:
    person = ScriptedPerson(fw, factory, answers={"hear": False})
    items = by_item(SelfTest(firmware=fw, person=person).run(["sound"]))
    assert items["sound"].outcome is Verdict.FAIL


def test_keyboard_backend_and_missing_parts_are_skipped() -> None:
    box = build(FirmwareConfig.from_dict({"seats": 3, "backend": "keyboard",
                                          "sound": {"kind": "none"}}))
    try:
        items = by_item(SelfTest(firmware=box, person=None).run())
    finally:
        box.close()
    assert items["seat buttons"].outcome is Verdict.SKIP
    assert items["host buttons"].outcome is Verdict.SKIP
    assert items["sound"].outcome is Verdict.SKIP
    assert items["camera"].outcome is Verdict.SKIP
    assert items["screen"].outcome is Verdict.SKIP


# --- camera -----------------------------------------------------------------------------------

@cache
def _deck() -> Any:
    from vision.deck import load_deck
    from vision.demo_decks import demo_deck

    return load_deck(demo_deck("something-missing-items"))


def sim_camera(**conditions: Any) -> Any:
    from vision.simtable import Conditions, SimulatedTable

    deck = _deck()
    c = dataclasses.replace(Conditions.clean("cloth"), **conditions)
    return SimulatedTable(deck, seed=1, size=(1280, 960), conditions=c)


def test_camera_good_frame_and_card(fw: Firmware, factory: Any) -> None:
    camera = sim_camera()
    card = _deck().ids[5]
    person = ScriptedPerson(fw, factory, camera=camera, card=card)
    test = SelfTest(camera=camera, person=person, recognise=selftest.deck_recogniser(_deck()),
                    test_card=card)
    items = by_item(test.run(["camera"]))
    assert items["camera frame"].outcome is Verdict.PASS
    assert items["camera exposure"].outcome is Verdict.PASS
    assert items["camera focus"].outcome is Verdict.PASS, items["camera focus"]
    assert items["test card"].outcome is Verdict.PASS
    assert any("lay the test card" in t for t in person.told)


@pytest.mark.parametrize(("conditions", "item", "words"), [
    ({"blur_sigma": 3.0}, "camera focus", "blurred"),
    ({"exposure": 0.15}, "camera exposure", "too dark"),
    ({"exposure": 3.0}, "camera exposure", "blown out"),
])
def test_camera_problems_are_found(conditions: dict[str, float], item: str,
                                   words: str) -> None:
    camera = sim_camera(**conditions)
    camera.place(_deck().ids[5], "centre")
    items = by_item(SelfTest(camera=camera, person=None).run(["camera"]))
    assert items[item].outcome is Verdict.FAIL
    assert words in items[item].detail
    assert items["test card"].outcome is Verdict.SKIP  # no recogniser given


def test_camera_wrong_or_no_card() -> None:
    camera = sim_camera()
    deck = _deck()
    camera.place(deck.ids[5], "centre")
    test = SelfTest(camera=camera, recognise=selftest.deck_recogniser(deck),
                    test_card=deck.ids[6])
    assert "expected" in by_item(test.run(["camera"]))["test card"].detail
    empty = sim_camera()
    test = SelfTest(camera=empty, recognise=selftest.deck_recogniser(_deck()))
    assert by_item(test.run(["camera"]))["test card"].outcome is Verdict.FAIL


def test_camera_that_does_not_start() -> None:
    class Broken:
        def configure(self, size: Any = None) -> None:
            pass

        def start(self) -> None:
            raise RuntimeError("Camera __init__ sequence did not complete")

        def close(self) -> None:
            pass

    items = by_item(SelfTest(camera=Broken()).run(["camera"]))
    assert items["camera"].outcome is Verdict.FAIL
    assert "did not complete" in items["camera"].detail


def test_frame_quality_rejects_colour_input() -> None:
    import numpy as np

    with pytest.raises(ValueError, match="greyscale"):
        frame_quality(np.zeros((4, 4, 3), np.uint8))


# --- screen -----------------------------------------------------------------------------------

def test_screen_opens_and_draws(fw: Firmware, factory: Any) -> None:
    person = ScriptedPerson(fw, factory)
    items = by_item(SelfTest(screen=selftest.SelftestScreen((640, 480)), person=person)
                    .run(["screen"]))
    assert items["screen"].outcome is Verdict.PASS
    assert "dummy 640x480" in items["screen"].detail
    assert items["screen font"].outcome is Verdict.PASS, items["screen font"]
    assert items["screen picture"].outcome is Verdict.PASS


def test_screen_text_is_what_the_screens_show() -> None:
    """The sample is made of UI strings (and digits), so the font that draws the screens
    draws it: no word of its own that the bundled font might lack."""
    from display.i18n import STRINGS

    shown = {text for entry in STRINGS.values() for text in entry.values()}
    words = selftest.SCREEN_TEXT.split(" ")
    assert "什麼不見啦" in words  # what the person is asked whether they see
    assert "Something Is Missing" in selftest.SCREEN_TEXT
    rest = selftest.SCREEN_TEXT
    for text in sorted(shown, key=len, reverse=True):
        if text and text in rest:
            rest = rest.replace(text, " ")
    assert set(rest) <= set(" 0123456789"), rest


def test_screen_font_missing_glyphs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(selftest, "SCREEN_TEXT", "什麼\U000f0000")  # a private-use character
    items = by_item(SelfTest(screen=selftest.SelftestScreen((320, 240))).run(["screen"]))
    assert items["screen font"].outcome is Verdict.FAIL
    assert "U+F0000" in items["screen font"].detail


def test_screen_that_does_not_open(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SDL_VIDEODRIVER", "no-such-driver")
    items = by_item(SelfTest(screen=selftest.SelftestScreen((320, 240))).run(["screen"]))
    assert items["screen"].outcome is Verdict.FAIL
    assert "vc4-kms-v3d" in items["screen"].detail


# --- the person at the terminal, the command --------------------------------------------------

def test_terminal_person_answers() -> None:
    said: list[str] = []
    replies = iter(["maybe", "Y"])
    person = TerminalPerson(out=said.append, read=lambda prompt: next(replies))
    assert person.ask("ok?") is True
    assert any("y or n" in s for s in said)

    def eof(prompt: str) -> str:
        raise EOFError

    assert TerminalPerson(out=said.append, read=eof).ask("ok?") is None


@pytest.mark.parametrize(("argv", "message"), [
    (["--only", "buttons,toaster"], "--only: toaster is not one of"),
    (["--timeout", "0"], "--timeout: 0 is not a positive"),
])
def test_command_bad_input(argv: list[str], message: str,
                           capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["selftest", "--auto", *argv]) == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize(("text", "key"), [
    ("[table]\nplayers = 3\n", "[table] players: expected list"),
    ("[firmware.pins]\nconfirm = \"x\"\n", "[firmware] pins.confirm: "),
    ("[table]\nstate_dir = 5\n", "[table] state_dir: expected str"),
    ("[screen]\nrotate = 45\n", "[screen] rotate: 45 is not one of 0, 90, 180, 270"),
])
def test_command_bad_config(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                            text: str, key: str) -> None:
    """A bad setting: exit 78 with one line naming the file, the key and what is wanted
    (as the units), before any hardware is touched; not a FAIL line and exit 1."""
    bad = tmp_path / "config.toml"
    bad.write_text(text)
    assert main(["selftest", "--auto", "--config", str(bad)]) == 78
    out, err = capsys.readouterr()
    assert out == ""
    [line] = err.splitlines()
    assert line.startswith("tablekeeper selftest: bad settings")
    assert f"{bad}:2: {key}" in line, line


def test_command_bad_config_says_every_problem_on_its_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "config.toml"
    bad.write_text('[camera]\nfps = "fast"\n[vision]\nstable_frames = -3\n')
    assert main(["selftest", "--auto", "--only", "config", "--config", str(bad)]) == 78
    [line] = capsys.readouterr().err.splitlines()
    assert "[camera] fps: " in line and "(+1 more: " in line and "[vision] stable_frames" in line


def test_command_bad_config_through_the_real_process(tmp_path: Path) -> None:
    """End to end, as a builder runs it (and as a unit would see it): exit 78, one line."""
    bad = tmp_path / "config.toml"
    bad.write_text("[firmware]\nseats = 12\n")
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy",
           "PYTHONPATH": str(Path(__file__).parents[2])}
    done = subprocess.run([sys.executable, "-m", "tablekeeper", "selftest", "--auto",
                           "--config", str(bad)], capture_output=True, text=True, timeout=120,
                          env=env, check=False)
    assert done.returncode == 78, done.stderr
    assert done.stderr.splitlines() == [
        line for line in done.stderr.splitlines() if f"{bad}:2: [firmware] seats: " in line]
    assert len(done.stderr.splitlines()) == 1 and "Traceback" not in done.stderr


def test_command_screen_only_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "config.toml"
    config.write_text("[screen]\nfullscreen = false\nsize = [640, 480]\n")
    code = main(["selftest", "--auto", "--only", "screen", "--config", str(config), "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0, out
    assert [r["item"] for r in out] == ["screen", "screen font"]
    assert all(r["outcome"] == "PASS" for r in out)


def test_command_camera_on_the_simulated_table(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    """The command wires the configured camera and the deck's recogniser: on the empty
    simulated table it gets a frame but finds no card (nobody laid one down in --auto)."""
    config = tmp_path / "config.toml"
    config.write_text('[camera]\nsource = "sim"\nsize = [640, 480]\nsim_surface = "cloth"\n')
    code = main(["selftest", "--auto", "--only", "camera", "--config", str(config),
                 "--deck", "something-missing-items", "--json"])
    out = {r["item"]: r for r in json.loads(capsys.readouterr().out)}
    assert code == 1
    assert out["camera frame"]["outcome"] == "PASS"
    assert out["test card"]["outcome"] == "FAIL"
    assert out["test card"]["detail"] == "no card recognised"


def test_command_unknown_test_card(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "config.toml"
    config.write_text('[camera]\nsource = "sim"\n')
    code = main(["selftest", "--auto", "--only", "camera", "--config", str(config),
                 "--deck", "something-missing-items", "--test-card", "joker"])
    assert code == 1
    assert "'joker' is not a card of deck" in capsys.readouterr().out


def test_command_reports_missing_gpio(capsys: pytest.CaptureFixture[str]) -> None:
    """Off the Pi the real pin factory is missing: a FAIL with the reason, exit code 1."""
    code = main(["selftest", "--auto", "--only", "buttons"])
    out = capsys.readouterr().out
    assert code == 1
    assert re.search(r"FAIL\s+firmware\s+could not start", out)
    assert "0 passed, 1 failed" in out


def test_without_config_the_installed_box_s_config_is_checked(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 38: `selftest` alone tests the box as installed (its pins), not the defaults."""
    monkeypatch.setenv("TK_STATE_DIR", str(tmp_path))
    assert main(["selftest", "--auto", "--only", "config", "--json"]) == 0
    out = {r["item"]: r for r in json.loads(capsys.readouterr().out)}
    assert out["config"]["outcome"] == "WARN"
    assert f"no {tmp_path}/config.toml" in out["config"]["detail"]
    installed = tmp_path / "config.toml"
    installed.write_text("[firmware]\nseats = 3\n")
    assert main(["selftest", "--auto", "--only", "config", "--json"]) == 0
    out = {r["item"]: r for r in json.loads(capsys.readouterr().out)}
    assert out["config"] == {"item": "config", "outcome": "PASS", "detail": str(installed)}
    installed.write_text("[firmware]\nseats = 12\n")  # refused: it is this file that is read
    assert main(["selftest", "--auto", "--only", "config", "--json"]) == 78
    err = capsys.readouterr().err
    assert f"{installed}:2: [firmware] seats" in err
