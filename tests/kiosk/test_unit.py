"""The kiosk unit: systemd accepts it, rates it safe, and it asks for what the kiosk needs.

``systemd-analyze verify`` and ``systemd-analyze security --offline=true`` run without a running
systemd, so they run here and in CI. Two details of ``verify``:

* it fails when ``ExecStart=``'s binary does not exist, and ``/opt/tablekeeper/venv`` exists
  only on an installed Pi. ``--root=DIR`` would look the binary up under DIR but then needs the
  whole unit tree (sysinit.target ...) there too, so the test verifies a temporary copy of the
  unit whose ExecStart binary is rewritten to an executable stub (arguments unchanged);
* it exits 0 even for unknown keys or unparsable values (it only warns on stderr), so the test
  also requires an empty stderr.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest
from system_needs import requires_system

ROOT = Path(__file__).resolve().parents[2]
UNIT = ROOT / "systemd" / "tablekeeper-kiosk.service"
VENV_BIN = "/opt/tablekeeper/venv/bin/tablekeeper"
MAX_EXPOSURE = 3.0

SYSTEMD_ANALYZE = shutil.which("systemd-analyze") or (
    "/usr/bin/systemd-analyze" if os.access("/usr/bin/systemd-analyze", os.X_OK) else None)
needs_analyze = requires_system("systemd", SYSTEMD_ANALYZE,
                                "systemd-analyze verify and security of the units")


def parse_unit(text: str) -> list[tuple[str, str, str]]:
    """(section, key, value) for every assignment, in order (keys repeat in unit files)."""
    out: list[tuple[str, str, str]] = []
    section = ""
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("[") and line.endswith("]"):
            section = line[1:-1]
            continue
        key, sep, value = line.partition("=")
        assert sep, f"not a KEY=value line: {raw!r}"
        out.append((section, key.strip(), value.strip()))
    return out


def values(section: str, key: str) -> list[str]:
    return [v for s, k, v in parse_unit(UNIT.read_text()) if s == section and k == key]


def one(section: str, key: str) -> str:
    found = values(section, key)
    assert len(found) == 1, f"{section}.{key}: expected one value, found {found}"
    return found[0]


def verifiable_copy(tmp_path: Path) -> Path:
    """The unit, its ExecStart binary rewritten to an existing stub executable."""
    stub = tmp_path / "bin" / "tablekeeper"
    stub.parent.mkdir()
    stub.write_text("#!/bin/sh\nexit 0\n")
    stub.chmod(0o755)
    text = UNIT.read_text()
    assert f"ExecStart={VENV_BIN} " in text
    copy = tmp_path / UNIT.name
    copy.write_text(text.replace(f"ExecStart={VENV_BIN} ", f"ExecStart={stub} "))
    return copy


@needs_analyze
def test_systemd_analyze_verify(tmp_path: Path) -> None:
    assert SYSTEMD_ANALYZE is not None
    copy = verifiable_copy(tmp_path)
    proc = subprocess.run([SYSTEMD_ANALYZE, "verify", str(copy)], capture_output=True,
                          text=True, check=False, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.strip() == "", f"systemd-analyze verify warned:\n{proc.stderr}"


@needs_analyze
def test_verify_would_catch_a_mistake(tmp_path: Path) -> None:
    """The check above is not vacuous: a misspelt key makes it fail."""
    assert SYSTEMD_ANALYZE is not None
    copy = verifiable_copy(tmp_path)
    copy.write_text(copy.read_text().replace("ProtectSystem=strict", "ProtectSytem=strict"))
    proc = subprocess.run([SYSTEMD_ANALYZE, "verify", str(copy)], capture_output=True,
                          text=True, check=False, timeout=60)
    assert "ProtectSytem" in proc.stderr


def exposure(unit: Path) -> tuple[float, str]:
    assert SYSTEMD_ANALYZE is not None
    proc = subprocess.run([SYSTEMD_ANALYZE, "security", "--offline=true", "--no-pager",
                           str(unit)], capture_output=True, text=True, check=False,
                          timeout=60, cwd=unit.parent)
    match = re.search(r"Overall exposure level for \S+: (\d+\.\d)", proc.stdout)
    assert match, f"no exposure figure in:\n{proc.stdout}\n{proc.stderr}"
    return float(match.group(1)), proc.stdout


@needs_analyze
def test_security_exposure_is_at_most_3(tmp_path: Path) -> None:
    score, report = exposure(verifiable_copy(tmp_path))
    print(f"systemd-analyze security --offline=true: exposure {score}")
    assert score <= MAX_EXPOSURE, report


@needs_analyze
def test_security_check_sees_a_weaker_unit(tmp_path: Path) -> None:
    """Dropping the hardening block raises the figure well above the limit."""
    copy = verifiable_copy(tmp_path)
    text = copy.read_text()
    weak = text[: text.index("# --- hardening")] + "\n[Install]\nWantedBy=multi-user.target\n"
    copy.write_text(weak)
    score, _ = exposure(copy)
    assert score > MAX_EXPOSURE


def test_notify_watchdog_and_restart() -> None:
    assert one("Service", "Type") == "notify"
    assert one("Service", "NotifyAccess") == "main"
    watchdog = int(one("Service", "WatchdogSec"))
    assert 5 <= watchdog <= 60
    assert one("Service", "Restart") == "always"
    # a watchdog kill (SIGABRT) leaves the stuck loop's traceback in the journal
    assert "PYTHONFAULTHANDLER=1" in values("Service", "Environment")
    assert 1 <= int(one("Service", "RestartSec")) <= 10
    interval = int(one("Unit", "StartLimitIntervalSec"))
    burst = int(one("Unit", "StartLimitBurst"))
    # the start limit must leave room for restarts: it trips only on a real crash loop
    assert burst * int(one("Service", "RestartSec")) < interval


def test_runs_kiosk_from_the_installed_venv() -> None:
    argv = shlex.split(one("Service", "ExecStart"))
    assert argv[0] == VENV_BIN
    assert argv[1] == "kiosk"
    assert "/var/lib/tablekeeper/config.toml" in argv
    # the command line is one the app's own parser accepts
    from tablekeeper.cli import build_parser

    args = build_parser().parse_args(argv[1:])
    assert args.command == "kiosk" and args.config == "/var/lib/tablekeeper/config.toml"
    # the installer builds exactly that venv
    proc = subprocess.run(["bash", str(ROOT / "systemd" / "install.sh"), "--dry-run",
                           "--skip=apt,user,systemd"], capture_output=True, text=True,
                          check=False, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert f"== 3. venv {Path(VENV_BIN).parent.parent}\n" in proc.stdout


def test_unprivileged_user_and_writable_state() -> None:
    assert one("Service", "User") == "tablekeeper"
    assert one("Service", "StateDirectory") == "tablekeeper"
    assert one("Service", "WorkingDirectory") == "/var/lib/tablekeeper"
    assert one("Service", "UMask") == "0077"
    assert "LG_WD=/run/tablekeeper" in values("Service", "Environment")
    assert one("Service", "RuntimeDirectory") == "tablekeeper"


def test_screen_on_tty1_with_kmsdrm() -> None:
    assert one("Service", "TTYPath") == "/dev/tty1"
    assert one("Service", "StandardInput") == "tty"
    assert "getty@tty1.service" in one("Unit", "Conflicts")
    assert any("getty@tty1.service" in v for v in values("Unit", "After"))
    assert "SDL_VIDEODRIVER=kmsdrm" in values("Service", "Environment")


def test_devices_the_kiosk_needs_are_allowed() -> None:
    allowed = {v.split()[0] for v in values("Service", "DeviceAllow")}
    assert one("Service", "DevicePolicy") == "closed"
    for device in ("char-gpiochip", "char-media", "char-video4linux", "char-dma_heap",
                   "char-vchiq", "char-drm", "char-tty", "char-input", "char-alsa"):
        assert device in allowed, device


def test_hardening_settings_present() -> None:
    expected = {
        "NoNewPrivileges": "yes", "CapabilityBoundingSet": "", "PrivateNetwork": "yes",
        "ProtectSystem": "strict", "ProtectHome": "yes", "LockPersonality": "yes",
        "MemoryDenyWriteExecute": "yes", "ProtectKernelTunables": "yes",
        "ProtectKernelModules": "yes", "ProtectKernelLogs": "yes", "ProtectClock": "yes",
        "ProtectHostname": "yes", "RestrictNamespaces": "yes", "RestrictRealtime": "yes",
        "SystemCallArchitectures": "native", "ProtectProc": "invisible",
    }
    for key, value in expected.items():
        assert one("Service", key) == value, key
    assert values("Service", "SystemCallFilter")[0] == "@system-service"
    families = one("Service", "RestrictAddressFamilies").split()
    assert "AF_UNIX" in families
    assert not {"AF_INET", "AF_INET6", "AF_PACKET"} & set(families)


def test_parse_unit_rejects_garbage() -> None:
    with pytest.raises(AssertionError, match="not a KEY=value line"):
        parse_unit("[Service]\nthis is not an assignment\n")
