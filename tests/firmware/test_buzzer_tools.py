"""Calibration (on a mock jumper), the live test loop, the benchmark and the CLI commands."""

from __future__ import annotations

import random
import re
import warnings

import pytest
from gpiozero import Device
from gpiozero.exc import PinFactoryFallback

from firmware import bench, calibrate
from firmware.box import build
from firmware.config import ArbiterConfig, FirmwareConfig
from firmware.live import describe_decision, session
from firmware.mock import JumperMockPin, mock_factory
from tablekeeper.cli import main

CFG = FirmwareConfig()


def jumpered(out: int, seats: tuple[int, int] = (1, 2)) -> object:
    factory = mock_factory()
    inputs = [factory.pin(CFG.pins.seats[s - 1]) for s in seats]
    factory.pin(out, pin_class=JumperMockPin, inputs=inputs)
    return factory


def test_calibration_on_a_mock_jumper() -> None:
    factory = jumpered(14)
    report = calibrate.run(CFG, factory, out_pin=14, toggles=200, pause_s=0)
    assert len(report.diffs_ns) == 400 and report.missed == 0
    # The mock drives seat 1's input, then seat 2's: seat 2 is always stamped later.
    assert all(d > 0 for d in report.diffs_ns)
    assert report.percentile_us(50) <= report.percentile_us(99.9) <= report.max_us
    assert report.suggested_tie_window_us >= max(10.0, report.max_us)
    assert report.suggested_tie_window_us % 10 == 0
    text = report.text()
    assert "400 edges measured, 0 missed" in text and "p99.9=" in text
    assert "seat 1 stamped first in 100.0% of edges" in text
    assert f"suggested tie window: {report.suggested_tie_window_us:g} us" in text


def test_suggested_tie_window() -> None:
    assert calibrate.suggest_tie_window_us([1_000, -2_000, 3_000]) == 10  # at least 10 us
    assert calibrate.suggest_tie_window_us([5_000] * 999 + [40_000]) == 50  # 1.25 x max
    assert calibrate.suggest_tie_window_us([30_000] * 1000) == 60  # 2 x p99.9
    with pytest.raises(ValueError, match="no measurements"):
        calibrate.suggest_tie_window_us([])


def test_calibration_without_the_jumper_says_so() -> None:
    with pytest.raises(RuntimeError, match=r"is GPIO 14 jumpered to GPIO 4 and GPIO 17\?"):
        calibrate.run(CFG, mock_factory(), out_pin=14, toggles=3, timeout_s=0, pause_s=0)


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"out_pin": 4}, "out: GPIO 4 is one of the two seat inputs"),
    ({"out_pin": 30}, r"out: 30 is not a BCM GPIO number"),
    ({"out_pin": 14, "seats": (1, 1)}, "two different seats"),
    ({"out_pin": 14, "seats": (1, 9)}, r"seats: 9 is not a seat number \(1-8\)"),
    ({"out_pin": 14, "toggles": 0}, "toggles: 0 must be at least 1"),
])
def test_calibration_bad_arguments(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        calibrate.run(CFG, mock_factory(), **kwargs)  # type: ignore[arg-type]


def test_live_session_on_the_keyboard_with_a_fake_clock() -> None:
    cfg = FirmwareConfig.from_dict({"backend": "keyboard", "seats": 3, "sound": {"kind": "none"}})
    t = [10**12]

    def now() -> int:
        t[0] += 1_000_000  # 1 ms per look at the clock
        return t[0]

    script = {3: ["2"], 4: ["1"], 40: ["return"]}
    calls = [0]

    def keys() -> list[str]:
        calls[0] += 1
        return script.get(calls[0], [])

    lines: list[str] = []
    with build(cfg, rng=random.Random(1), clock=now) as fw:
        assert session(fw, now=now, out=lines.append, keys=keys, seconds=3.0,
                       wait=lambda: None) == 0
    text = "\n".join(lines)
    assert "seat 2 down" in text and "seat 1 down" in text and "host confirm" in text
    assert re.search(r"WINNER seat 2 after [\d.]+ ms; runner-up seat 1 by \d+ us", text)
    assert "armed again" in text


def test_describe_decision_mentions_ties_lockouts_and_held() -> None:
    from firmware.arbiter import Decision

    d = Decision(winner=4, t_ns=3_000_000, armed_ns=0, decided_ns=20_000_000, runner_up=2,
                 runner_up_t_ns=3_000_000, margin_us=0.0, tie=True, tied=(2, 4),
                 locked_out=(1,), held=(6,))
    assert describe_decision(d) == (
        "WINNER seat 4 after 3.0 ms (tie between seats 2, 4, drawn by lot); runner-up seat 2 "
        "by 0 us; locked out: 1; held down at arming: 6")


def test_bench_all_decidable_races_are_correct() -> None:
    result = bench.run(races=400, seed=3)
    assert result.races == 400 and result.undecided == 0 and not result.failures
    assert 0 < result.decidable == result.correct < 400
    assert result.ties == result.ties_ok == 400 - result.decidable
    assert re.fullmatch(r"races=400 decidable=\d+ correct=\d+ ties=\d+ overhead_us=[\d.]+",
                        result.line())


def test_bench_catches_a_settle_window_shorter_than_callback_delays() -> None:
    result = bench.run(races=400, seed=3, config=ArbiterConfig(settle_ms=0.5))
    assert result.correct < result.decidable and result.failures


def test_bench_cli_ends_with_the_figures_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "buzzer", "--races", "300", "--seed", "9"]) == 0
    last = capsys.readouterr().out.strip().splitlines()[-1]
    m = re.fullmatch(r"races=300 decidable=(\d+) correct=(\d+) ties=(\d+) overhead_us=[\d.]+",
                     last)
    assert m and m.group(1) == m.group(2) and int(m.group(1)) + int(m.group(3)) == 300


def test_bench_cli_bad_options(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "buzzer", "--races", "0"]) == 2
    assert "--races must be at least 1" in capsys.readouterr().err
    assert main(["bench", "buzzer", "--races", "5", "--settle-ms", "-1"]) == 2
    assert "arbiter.settle_ms" in capsys.readouterr().err


def test_calibrate_cli_without_gpio_explains(monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    monkeypatch.setattr(Device, "pin_factory", None)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        code = main(["buzzer", "calibrate", "--out", "14", "--toggles", "2"])
    assert code == 1
    err = capsys.readouterr().err
    # gpiozero's warning for each factory it falls back from is said in the message instead.
    assert err.startswith("buzzer calibrate: ") and "Tried lgpio: " in err
    assert not [w for w in caught if issubclass(w.category, PinFactoryFallback)]


def test_buzzer_cli_reads_the_config_file(tmp_path: object,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    from pathlib import Path

    path = Path(str(tmp_path)) / "box.toml"
    path.write_text("[firmware]\nseats = 12\n", encoding="utf-8")
    assert main(["buzzer", "test", "--config", str(path), "--seconds", "0.01"]) == 1
    assert "seats: 12 is not a seat count (1-8)" in capsys.readouterr().err
