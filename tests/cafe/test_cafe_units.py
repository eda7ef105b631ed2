"""The publisher's and the board's units: systemd accepts them, rates them, and they ask only
for what they need (network, not the kiosk's devices; the journals read-only; the password as
a credential)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from system_needs import requires_system

ROOT = Path(__file__).resolve().parents[2]
UNITS = {name: ROOT / "systemd" / f"tablekeeper-{name}.service" for name in ("publisher",
                                                                          "board")}
KIOSK = ROOT / "systemd" / "tablekeeper-kiosk.service"
VENV_BIN = "/opt/tablekeeper/venv/bin/tablekeeper"
#: the new units have network, the kiosk has none: network alone costs 0.4 (PrivateNetwork=
#: and AF_INET/AF_INET6), so the kiosk's 0.6 plus that is the floor
MAX_EXPOSURE = 1.0

SYSTEMD_ANALYZE = shutil.which("systemd-analyze") or (
    "/usr/bin/systemd-analyze" if os.access("/usr/bin/systemd-analyze", os.X_OK) else None)
needs_analyze = requires_system("systemd", SYSTEMD_ANALYZE,
                                "systemd-analyze verify and security of the units")


def settings(unit: Path) -> list[tuple[str, str]]:
    out = []
    for raw in unit.read_text().splitlines():
        line = raw.strip()
        if line and not line.startswith(("#", "[")):
            key, _, value = line.partition("=")
            out.append((key, value))
    return out


def verifiable_copy(unit: Path, tmp_path: Path) -> Path:
    stub = tmp_path / "bin" / "tablekeeper"
    stub.parent.mkdir(exist_ok=True)
    stub.write_text("#!/bin/sh\nexit 0\n")
    stub.chmod(0o755)
    copy = tmp_path / unit.name
    copy.write_text(unit.read_text().replace(f"ExecStart={VENV_BIN} ", f"ExecStart={stub} "))
    return copy


def exposure(unit: Path) -> tuple[float, str]:
    assert SYSTEMD_ANALYZE is not None
    proc = subprocess.run([SYSTEMD_ANALYZE, "security", "--offline=true", "--no-pager",
                           str(unit)], capture_output=True, text=True, check=False,
                          timeout=60, cwd=unit.parent)
    match = re.search(r"Overall exposure level for \S+: (\d+\.\d)", proc.stdout)
    assert match, f"no exposure figure in:\n{proc.stdout}\n{proc.stderr}"
    return float(match.group(1)), proc.stdout


@needs_analyze
@pytest.mark.parametrize("name", sorted(UNITS))
def test_systemd_analyze_verify(name: str, tmp_path: Path) -> None:
    assert SYSTEMD_ANALYZE is not None
    proc = subprocess.run([SYSTEMD_ANALYZE, "verify", str(verifiable_copy(UNITS[name],
                                                                          tmp_path))],
                          capture_output=True, text=True, check=False, timeout=60)
    assert proc.returncode == 0 and proc.stderr.strip() == "", proc.stderr


@needs_analyze
@pytest.mark.parametrize("name", sorted(UNITS))
def test_security_exposure_is_as_low_as_the_kiosks_allows(name: str, tmp_path: Path) -> None:
    score, report = exposure(verifiable_copy(UNITS[name], tmp_path))
    kiosk, _ = exposure(verifiable_copy(KIOSK, tmp_path))
    print(f"{name}: exposure {score} (kiosk {kiosk})")
    assert score <= MAX_EXPOSURE, report
    assert score <= kiosk + 0.4 + 0.05, report
    weak = verifiable_copy(UNITS[name], tmp_path)
    text = weak.read_text()
    weak.write_text(text[: text.index("# --- hardening")] + "\n[Install]\n"
                    "WantedBy=multi-user.target\n")
    assert exposure(weak)[0] > 5.0  # the check sees a unit without its hardening


@pytest.mark.parametrize("name", sorted(UNITS))
def test_network_and_nothing_else(name: str) -> None:
    kv = settings(UNITS[name])
    keys = dict(kv)
    assert "PrivateNetwork" not in keys
    assert keys["RestrictAddressFamilies"] == "AF_INET AF_INET6 AF_UNIX"
    assert keys["IPAddressDeny"] == "any" and "localhost" in keys["IPAddressAllow"]
    assert keys["PrivateDevices"] == "yes" and keys["CapabilityBoundingSet"] == ""
    assert keys["ProtectSystem"] == "strict" and keys["NoNewPrivileges"] == "yes"
    assert keys["LoadCredential"].startswith("mqtt-password:/etc/tablekeeper/")
    assert not any("DeviceAllow" in k for k, _ in kv)
    assert "password" not in " ".join(v for k, v in kv if k == "Environment").lower()


def test_the_publisher_reads_the_journals_and_writes_only_its_own_state() -> None:
    keys = dict(settings(UNITS["publisher"]))
    assert keys["User"] == "tablekeeper"  # the journals' owner (mode 0600) ...
    assert keys["ReadOnlyPaths"] == "/var/lib/tablekeeper"  # ... read-only here
    assert keys["StateDirectory"] == "tablekeeper-publisher"
    assert "cafe publish --settings /etc/tablekeeper/publisher.toml" in keys["ExecStart"]
    kiosk = dict(settings(KIOSK))
    assert kiosk["PrivateNetwork"] == "yes"  # the kiosk keeps no network


def test_the_installer_writes_the_publishers_settings_only_with_a_cafe_section(
        tmp_path: Path) -> None:
    state = tmp_path / "state"
    state.mkdir()
    env = {**os.environ, "TK_STATE_DIR": str(state), "TK_ETC_DIR": str(tmp_path / "etc"),
           "TK_UNIT_DIR": str(tmp_path / "units"), "TK_PREFIX": str(tmp_path / "opt"),
           "TK_BIN_DIR": str(tmp_path / "bin")}
    argv = ["bash", str(ROOT / "systemd" / "install.sh"), "--dry-run",
            "--skip=apt,user,deps,systemd"]

    def dry_run() -> str:
        proc = subprocess.run(argv, capture_output=True, text=True, check=False, env=env,
                              timeout=120)
        assert proc.returncode == 0, proc.stdout + proc.stderr
        return proc.stdout

    out = dry_run()
    assert "no [cafe] section" in out and "publisher.toml" not in out
    (state / "config.toml").write_text(f'[table]\nstate_dir = "{state}"\n\n[cafe]\n'
                                       'table = "t1"\nbroker_host = "board.local"\n')
    out = dry_run()
    assert f"+ write {tmp_path}/etc/publisher.toml from [cafe]" in out
    assert "warning: no broker password" in out
    assert "tablekeeper-publisher.service" in out
    secret = tmp_path / "pw"
    secret.write_text("s3cret")
    env["TK_MQTT_PASSWORD_FILE"] = str(secret)
    out = dry_run()
    assert "install -m 0600 -o root -g root" in out and "s3cret" not in out
    assert not (tmp_path / "etc").exists()  # a dry run changes nothing
