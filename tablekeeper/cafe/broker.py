"""A local Eclipse Mosquitto for the demo, the tests and the bench (never the café's own).

It listens on loopback only (127.0.0.1, a free port), TLS only, with a CA and a server
certificate made for the run by ``openssl`` (private keys stay in the run's folder, mode 0600),
a user per table plus ``board``, passwords made by ``mosquitto_passwd``, and the ACL a café
uses (:func:`acl_text`): the board reads every table, a table writes only under its prefix.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import secrets
import shutil
import socket
import subprocess
import time
from pathlib import Path

from tablekeeper.cafe.settings import BrokerSettings
from tablekeeper.cafe.topics import BOARD_USER, EPOCH_TOPIC, ROOT, check_table

#: the café broker's message policy that hardware.md §13 gives (queues, persistence)
POLICY = Path(__file__).resolve().parents[2] / "systemd" / "mosquitto-tablekeeper.conf"


class BrokerUnavailable(RuntimeError):
    pass


def mosquitto_path() -> str | None:
    for name in ("mosquitto", "/usr/sbin/mosquitto"):
        found = shutil.which(name)
        if found:
            return found
    return None


def acl_text() -> str:
    """The café's ACL: ``board`` reads every table; each table (its user name) writes only
    under its own prefix; nobody else reads or writes anything."""
    return (f"# tablekeeper café ACL (tablekeeper.cafe.broker.acl_text)\n"
            f"user {BOARD_USER}\n"
            f"topic read {ROOT}/#\n"
            f"topic write {EPOCH_TOPIC}\n\n"
            f"# every other user is a table: write under its own prefix only (%u: the user\n"
            f"# name the broker authenticated); everyone reads the board's epoch\n"
            f"pattern write {ROOT}/%u/#\n"
            f"pattern read {EPOCH_TOPIC}\n")


def free_port() -> int:
    """A free loopback port: any, or one of ``$TK_PORTS`` (``LOW-HIGH``: a machine shared
    with other runs gives each its own range)."""
    span = os.environ.get("TK_PORTS", "")
    low, _, high = span.partition("-")
    candidates = [0]
    if low.isdigit() and high.isdigit():
        candidates = list(range(int(low), int(high) + 1))
        secrets.SystemRandom().shuffle(candidates)
    for port in candidates:
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return int(s.getsockname()[1])
    raise BrokerUnavailable(f"no free loopback port in TK_PORTS={span}")


def _openssl(*args: str, cwd: Path) -> None:
    proc = subprocess.run(["openssl", *args], cwd=cwd, capture_output=True, text=True,
                          check=False, timeout=60)
    if proc.returncode != 0:
        raise BrokerUnavailable(f"openssl {args[0]} failed: {proc.stderr.strip()}")


def make_certificates(folder: Path) -> tuple[Path, Path, Path]:
    """(ca.crt, server.crt, server.key) for 127.0.0.1/localhost, valid two days."""
    folder.mkdir(parents=True, exist_ok=True)
    ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
    _openssl("req", "-x509", *ec, "-keyout", "ca.key", "-out", "ca.crt", "-days", "2",
             "-subj", "/CN=tablekeeper test CA",
             "-addext", "basicConstraints=critical,CA:TRUE",
             "-addext", "keyUsage=critical,keyCertSign,cRLSign", cwd=folder)
    _openssl("req", *ec, "-keyout", "server.key", "-out", "server.csr",
             "-subj", "/CN=localhost", cwd=folder)
    (folder / "server.ext").write_text(
        "subjectAltName=IP:127.0.0.1,DNS:localhost\nbasicConstraints=CA:FALSE\n"
        "extendedKeyUsage=serverAuth\n")
    _openssl("x509", "-req", "-in", "server.csr", "-CA", "ca.crt", "-CAkey", "ca.key",
             "-CAcreateserial", "-out", "server.crt", "-days", "2", "-extfile", "server.ext",
             cwd=folder)
    for key in ("ca.key", "server.key"):
        os.chmod(folder / key, 0o600)
    return folder / "ca.crt", folder / "server.crt", folder / "server.key"


class LocalBroker:
    """A Mosquitto of this run's own; ``start``/``stop`` (or ``kill``) keep port and data."""

    def __init__(self, folder: Path, tables: list[str], port: int | None = None) -> None:
        exe = mosquitto_path()
        if exe is None:
            raise BrokerUnavailable("mosquitto is not installed (Debian: apt-get install "
                                    "mosquitto; .ci/run installs it)")
        self.exe = exe
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)
        os.chmod(folder, 0o700)
        self.port = port or free_port()
        self.host = "127.0.0.1"
        self.ca_file, cert, key = make_certificates(folder / "tls")
        self.passwords: dict[str, str] = {}
        passwd = folder / "passwd"
        for user in [BOARD_USER, *tables]:
            if user != BOARD_USER:
                check_table(user)
            self.add_user(user)
        acl = folder / "acl"
        acl.write_text(acl_text())
        (folder / "data").mkdir(exist_ok=True)
        self.log_file = folder / "mosquitto.log"
        lines = [
            "per_listener_settings false",
            "allow_anonymous false",
            f"password_file {passwd}",
            f"acl_file {acl}",
            "persistence true",
            f"persistence_location {folder / 'data'}/",
            "autosave_interval 1",
            f"log_dest file {self.log_file}",
            "log_type error", "log_type warning", "log_type notice", "log_type information",
            f"listener {self.port} 127.0.0.1",
            f"cafile {self.ca_file}", f"certfile {cert}", f"keyfile {key}",
            "tls_version tlsv1.2",
        ]
        if os.geteuid() == 0:  # mosquitto drops root for its `user` (default: mosquitto)
            lines.append(f"user {pwd.getpwuid(0).pw_name}")
        # the café's documented message policy (queues, persistence), the very file
        conf_d = folder / "conf.d"
        conf_d.mkdir(exist_ok=True)
        try:
            shutil.copy(POLICY, conf_d / "tablekeeper.conf")
        except OSError as exc:
            raise BrokerUnavailable(f"the café broker policy {POLICY} cannot be read "
                                    f"({exc.strerror or exc}): run from a checkout") from exc
        lines.append(f"include_dir {conf_d}")
        self.config = folder / "mosquitto.conf"
        self.config.write_text("\n".join(lines) + "\n")
        self.proc: subprocess.Popen[bytes] | None = None

    def add_user(self, user: str) -> None:
        password = secrets.token_urlsafe(18)
        passwd = self.folder / "passwd"
        args = ["mosquitto_passwd", "-b"]
        if not passwd.exists():
            passwd.touch(mode=0o600)
        proc = subprocess.run([*args, str(passwd), user, password], capture_output=True,
                              text=True, check=False, timeout=30)
        if proc.returncode != 0:
            raise BrokerUnavailable(f"mosquitto_passwd failed: {proc.stderr.strip()}")
        os.chmod(passwd, 0o600)
        self.passwords[user] = password
        secret = self.folder / f"{user}.password"
        secret.touch(mode=0o600)
        secret.write_text(password)

    def settings_for(self, user: str) -> BrokerSettings:
        return BrokerSettings(host=self.host, port=self.port, ca_file=str(self.ca_file),
                              username=user,
                              password_file=str(self.folder / f"{user}.password"))

    def start(self, timeout: float = 10.0) -> None:
        self.proc = subprocess.Popen([self.exe, "-c", str(self.config)],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                err = self.proc.stderr.read().decode() if self.proc.stderr else ""
                raise BrokerUnavailable(f"mosquitto exited ({self.proc.returncode}): "
                                        f"{err.strip()} {self.log_tail()}")
            with contextlib.suppress(OSError), \
                    socket.create_connection((self.host, self.port), timeout=0.5):
                return
            time.sleep(0.05)
        self.stop()
        raise BrokerUnavailable(f"mosquitto did not listen on port {self.port} within "
                                f"{timeout:g} s: {self.log_tail()}")

    def log_tail(self, lines: int = 20) -> str:
        try:
            return "\n".join(self.log_file.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        self.proc = None

    def __enter__(self) -> LocalBroker:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
