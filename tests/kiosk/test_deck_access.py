"""Files a tool writes for the kiosk can be read by the kiosk (issue 31, Deliver 1).

hardware.md section 5 enrols a deck with ``sudo tablekeeper vision enroll --deck
/var/lib/tablekeeper/decks/NAME --from-images ~/photos``. Here that command runs (as root, as
``sudo`` runs it) into a state folder laid out as ``systemd/install.sh`` lays it out (owned by
a real system user, 0750), and the deck is then loaded *as that user* through ``runuser``:
before issue 31 the templates were 0600 root's and the kiosk got "permission denied". The
other way round, the service user (not root) enrolling into a folder it cannot write is
refused with the command to run instead, and nothing is written.

These need root (to create the user and switch to it): CI runs as root; elsewhere they skip.
"""

from __future__ import annotations

import os
import pwd
import shutil
import stat
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import cv2
import pytest
from system_needs import requires_root, requires_system

from tablekeeper.cli import main
from vision.deck import Deck, load_deck

#: a system user made for these tests, like install.sh's tablekeeper (one per xdist worker:
#: the workers make and remove their own)
USER = f"tk-deckread-{os.environ.get('PYTEST_XDIST_WORKER', 'main')}"
ROOT = hasattr(os, "geteuid") and os.geteuid() == 0
NEEDS = "to create a service user and read as it"
needs_root = (requires_root(NEEDS) if not ROOT
              else requires_system("passwd", shutil.which("useradd"), NEEDS)
              if shutil.which("useradd") is None
              else requires_system("util-linux", shutil.which("runuser"), NEEDS))


@pytest.fixture(scope="module")
def service_user() -> Iterator[pwd.struct_passwd]:
    made = False
    try:
        pw = pwd.getpwnam(USER)
    except KeyError:
        subprocess.run(["useradd", "--system", "--user-group", "--no-create-home",
                        "--shell", "/usr/sbin/nologin", USER], check=True)
        made = True
        pw = pwd.getpwnam(USER)
    yield pw
    if made:
        subprocess.run(["userdel", USER], check=False)


@pytest.fixture
def box(service_user: pwd.struct_passwd) -> Iterator[Path]:
    """A folder anyone may pass through (``/tmp``'s pytest folders are root's 0700), holding
    ``state``: the service user's, 0750, as install.sh makes ``/var/lib/tablekeeper``."""
    top = Path(tempfile.mkdtemp(prefix="tk-i31-"))
    os.chmod(top, 0o755)
    state = top / "state"
    state.mkdir()
    os.chown(state, service_user.pw_uid, service_user.pw_gid)
    os.chmod(state, 0o750)
    try:
        yield top
    finally:
        shutil.rmtree(top)


def _photos(folder: Path, deck: Deck, ids: list[str]) -> Path:
    """Flat "scans" of a few cards in a folder only root can read (an admin's home)."""
    folder.mkdir(mode=0o700)
    for cid in ids:
        ok, buf = cv2.imencode(".png", deck.template(cid))
        assert ok
        (folder / f"{cid}.png").write_bytes(buf.tobytes())
    return folder


def _as_user(pw: pwd.struct_passwd, fn: Callable[[], int]) -> tuple[int, str]:
    """Run ``fn`` in a forked child that has become ``pw`` (group, then user): the
    interpreter may live where the user cannot exec it (a root-only pyenv), so the child
    keeps this one, with everything ``fn`` needs already imported. Returns its exit code and
    what it printed."""
    import io
    import shlex  # noqa: F401  (imported before the fork: the child may not read the stdlib)
    import traceback

    import vision.cli
    import vision.enroll  # noqa: F401

    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child
        os.close(read)
        rc, buf = 70, io.StringIO()
        try:
            os.setgroups([])
            os.setgid(pw.pw_gid)
            os.setuid(pw.pw_uid)
            old_out, old_err = sys.stdout, sys.stderr
            sys.stdout = sys.stderr = buf
            try:
                rc = fn()
            finally:
                sys.stdout, sys.stderr = old_out, old_err
        except BaseException:
            buf.write(traceback.format_exc())
        os.write(write, buf.getvalue().encode())
        os._exit(rc)
    os.close(write)
    chunks = []
    while chunk := os.read(read, 65536):
        chunks.append(chunk)
    os.close(read)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status), b"".join(chunks).decode()


@needs_root
def test_a_deck_enrolled_with_sudo_is_readable_by_the_service_user(
        box: Path, service_user: pwd.struct_passwd,
        demo_decks: Callable[[str], Deck], capsys: pytest.CaptureFixture[str]) -> None:
    wink = demo_decks("wink")
    ids = list(wink.ids)[:3]
    photos = _photos(box / "admin-photos", wink, ids)
    deck_dir = box / "state" / "decks" / "wink"  # decks/ does not exist yet
    rc = main(["vision", "enroll", "--deck", str(deck_dir), "--from-images", str(photos),
               "--game", "wink"])
    out = capsys.readouterr()
    assert rc == 0, out.out + out.err
    # every folder and file written belongs to the service user and its group can read it
    for path in [deck_dir.parent, deck_dir, *deck_dir.iterdir()]:
        st = path.stat()
        assert (st.st_uid, st.st_gid) == (service_user.pw_uid, service_user.pw_gid), path
        assert st.st_mode & stat.S_IRGRP, f"{path}: {stat.filemode(st.st_mode)}"
    # ... and the service user reads every file (cat, as that user) and loads the deck
    for path in deck_dir.iterdir():
        cat = subprocess.run(["runuser", "-u", USER, "--", "cat", str(path)],
                             capture_output=True, timeout=60)
        assert cat.returncode == 0, cat.stderr.decode()
        assert cat.stdout == path.read_bytes()

    def load() -> int:
        print(",".join(sorted(load_deck(deck_dir).ids)))
        return 0

    rc, text = _as_user(service_user, load)
    assert rc == 0, text
    assert text.strip() == ",".join(sorted(ids))


@needs_root
def test_the_service_user_cannot_enrol_where_it_cannot_write_and_is_told_how(
        box: Path, service_user: pwd.struct_passwd,
        demo_decks: Callable[[str], Deck]) -> None:
    wink = demo_decks("wink")
    photos = _photos(box / "photos", wink, list(wink.ids)[:1])
    os.chmod(photos, 0o755)
    for p in photos.iterdir():
        os.chmod(p, 0o644)
    root_only = box / "root-decks"
    root_only.mkdir(mode=0o755)  # root's: the service user may read, not write
    deck_dir = root_only / "wink"
    argv = ["vision", "enroll", "--deck", str(deck_dir), "--from-images", str(photos),
            "--game", "wink"]

    def enrol() -> int:
        sys.argv = ["tablekeeper", *argv]
        return main(argv)

    rc, text = _as_user(service_user, enrol)
    assert rc == 2, text
    assert f"cannot write in {root_only}" in text
    assert "owner root" in text
    assert f"sudo tablekeeper vision enroll --deck {deck_dir}" in text
    assert not deck_dir.exists()


def test_new_deck_files_are_group_readable_whatever_the_umask(
        tmp_path: Path, demo_decks: Callable[[str], Deck]) -> None:
    """Not 0600 any more: a tight umask still leaves the group (the service's) able to read."""
    wink = demo_decks("wink")
    photos = _photos(tmp_path / "photos", wink, list(wink.ids)[:2])
    old = os.umask(0o077)
    try:
        assert main(["vision", "enroll", "--deck", str(tmp_path / "deck"), "--from-images",
                     str(photos), "--game", "wink"]) == 0
    finally:
        os.umask(old)
    files = list((tmp_path / "deck").iterdir())
    assert files
    for path in [tmp_path / "deck", *files]:
        mode = path.stat().st_mode
        assert mode & stat.S_IRGRP, f"{path}: {stat.filemode(mode)}"
        assert not mode & stat.S_IROTH, f"{path}: {stat.filemode(mode)}"


def test_a_real_camera_on_a_demo_deck_is_a_warning_at_start_and_in_the_selftest(
        tmp_path: Path, demo_decks: Callable[[str], Deck]) -> None:
    from tablekeeper.config import load_config
    from tablekeeper.selftest import Verdict, game_deck_result, game_deck_results, report
    from tablekeeper.vision_link import demo_deck_warning

    demo = demo_decks("the-game")
    warning = demo_deck_warning(demo, "picamera2", "the-game")
    assert warning is not None
    assert "demo deck" in warning and "[table.decks] the-game" in warning
    assert demo_deck_warning(demo, "sim", "the-game") is None  # the simulated table is fine
    photos = _photos(tmp_path / "photos", demo, list(demo.ids)[:2])
    enrolled = tmp_path / "decks" / "the-game"
    assert main(["vision", "enroll", "--deck", str(enrolled), "--from-images", str(photos),
                 "--game", "the-game"]) == 0
    assert demo_deck_warning(load_deck(enrolled), "picamera2", "the-game") is None

    def config(text: str) -> object:
        path = tmp_path / "config.toml"
        path.write_text(f'[table]\ngame = "the-game"\nstate_dir = "{tmp_path}"\n' + text)
        return load_config(path)

    warned = game_deck_result(config('[camera]\nsource = "opencv"\n'))
    assert warned.outcome is Verdict.WARN and "demo deck" in warned.detail
    assert "1 warning(s)" in report([warned])
    fine = game_deck_result(config(f'[camera]\nsource = "opencv"\n'
                                   f'[table.decks]\nthe-game = "{enrolled}"\n'))
    assert fine.outcome is Verdict.PASS, fine
    assert game_deck_result(config('[camera]\nsource = "sim"\n')).outcome is Verdict.PASS
    missing = game_deck_result(config(f'[table.decks]\nthe-game = "{tmp_path / "nowhere"}"\n'))
    assert missing.outcome is Verdict.FAIL and "nowhere" in missing.detail
    assert missing.item == "deck the-game"
    # every game of [table.decks] gets its line, the config's own game first
    lines = game_deck_results(config(f'[camera]\nsource = "opencv"\n'
                                     f'[table.decks]\neselsbruecke = "{tmp_path / "no"}"\n'))
    assert [(r.item, r.outcome) for r in lines] == [("deck the-game", Verdict.WARN),
                                                   ("deck eselsbruecke", Verdict.FAIL)]


@needs_root
def test_a_config_written_as_root_into_the_state_folder_is_the_services(
        box: Path, service_user: pwd.struct_passwd) -> None:
    from tablekeeper.config import Config, save_config

    path = box / "state" / "config.toml"
    save_config(Config(), path)
    st = path.stat()
    assert (st.st_uid, st.st_gid) == (service_user.pw_uid, service_user.pw_gid)
    os.chmod(path, 0o640)
    save_config(Config(), path)  # rewritten: owner and mode kept
    st = path.stat()
    assert (st.st_uid, st.st_mode & 0o777) == (service_user.pw_uid, 0o640)
