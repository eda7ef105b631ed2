"""Pins that config.txt gives to an interface are named (issue 31, hardware.md section 2)."""

from __future__ import annotations

from pathlib import Path

from firmware.bootconfig import clashes, configured_pins, interfaces
from firmware.config import FirmwareConfig
from tablekeeper.config import load_config
from tablekeeper.selftest import Verdict, boot_config_result

BOOKWORM = """# For more options and information see
# http://rptl.io/configtxt
#dtparam=i2c_arm=on
#dtparam=i2s=on
#dtparam=spi=on
dtparam=audio=on
camera_auto_detect=1
display_auto_detect=1
auto_initramfs=1
dtoverlay=vc4-kms-v3d
max_framebuffers=2
arm_64bit=1
[cm4]
otg_mode=1
[all]
"""


def _used(d: dict[str, object] | None = None) -> list[tuple[int, str]]:
    fw = FirmwareConfig.from_dict(d or {})
    return configured_pins(fw.pins.to_dict(), fw.seats, fw.sound.kind == "piezo")


def test_a_fresh_bookworm_config_takes_none_of_the_default_pins() -> None:
    assert interfaces(BOOKWORM) == []
    assert clashes(BOOKWORM, _used()) == []


def test_i2s_spi_and_one_wire_are_named_with_the_key_to_move() -> None:
    text = BOOKWORM + "dtoverlay=hifiberry-dac\ndtparam=spi=on\ndtoverlay=w1-gpio\n"
    found = {(c.gpio, c.key) for c in clashes(text, _used())}
    assert found == {(18, "lamps[1]"), (19, "seats[8]"), (20, "lamps[7]"),
                     (21, "lamps[8]"), (9, "back"), (10, "confirm"),
                     (11, "next"), (4, "seats[1]")}
    one = next(c for c in clashes(text, _used()) if c.gpio == 4)
    assert "config.txt line 18 `dtoverlay=w1-gpio`" in one.text()
    assert "[firmware.pins] seats[1]" in one.text()


def test_moved_interfaces_and_fewer_seats() -> None:
    # 1-wire moved to a free pin, seats 7 and 8 absent: no clash left
    text = "dtoverlay=w1-gpio,gpiopin=8\ndtoverlay=audremap,pins_18_19\n"
    assert [(c.gpio, c.key) for c in clashes(text, _used({"seats": 6}))] == [
        (18, "lamps[1]")]
    assert clashes("dtoverlay=w1-gpio,gpiopin=8\n", _used({"seats": 6})) == []
    # a commented-out line is not an interface
    assert clashes("#dtoverlay=w1-gpio\n", _used()) == []


def test_the_selftest_line(tmp_path: Path) -> None:
    boot = tmp_path / "config.txt"
    config = load_config(None)
    assert boot_config_result(config, boot).outcome is Verdict.SKIP
    boot.write_text(BOOKWORM)
    assert boot_config_result(config, boot).outcome is Verdict.PASS
    boot.write_text(BOOKWORM + "dtparam=i2s=on\n")
    r = boot_config_result(config, boot)
    assert r.outcome is Verdict.FAIL and "GPIO 18 ([firmware.pins] lamps[1])" in r.detail
