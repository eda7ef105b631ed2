"""The ``tablekeeper`` command line.

Each subsystem contributes its own sub-commands through a module with a ``register`` function,
so the CLI stays one small table here and each command lives beside the code it drives:

    def register(commands: Subcommands, benches: Subcommands) -> None

``commands`` holds the top-level sub-commands (``demo``, ``replay``, ``vision`` ...),
``benches`` the targets of ``tablekeeper bench`` (``buzzer``, ``vision``, ``display``).
A command sets ``func=`` (``Callable[[argparse.Namespace], int]``) with ``set_defaults``.
Heavy imports (cv2, pygame) belong inside the command functions, so ``tablekeeper replay``
starts fast and works without a display or camera.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import os
import stat
import sys
import tempfile
from collections.abc import Callable, MutableMapping, Sequence
from typing import Any

from tablekeeper import __version__

Subcommands = "argparse._SubParsersAction[argparse.ArgumentParser]"

#: Modules that may contribute commands; a module that does not exist yet is skipped.
PLUGINS: tuple[str, ...] = (
    "tablekeeper.commands",
    "tablekeeper.app_commands",
    "tablekeeper.cafe.cli",
    "firmware.cli",
    "vision.cli",
    "display.cli",
    "tablekeeper.selftest",
    "tablekeeper.games.the_game.cli",
)


def quiet_environment(env: MutableMapping[str, str] | None = None) -> None:
    """Keep the libraries' chatter out of the program's own output; called first by
    :func:`main`, before pygame or cv2 is imported (each reads these once, at import):

    - no "pygame-ce 2.x (SDL ...)" banner (``PYGAME_HIDE_SUPPORT_PROMPT``);
    - OpenCV logs errors only, not its ``[ WARN:0@...]`` lines from probing cameras
      (``OPENCV_LOG_LEVEL``, read by 4.x and 5.x alike; :func:`vision.camera.quiet_opencv`
      sets it again once cv2 is loaded);
    - SDL's "XDG_RUNTIME_DIR not set" warning, where the variable is unset (a command run
      over ssh or from cron, a service without a login session): a private runtime folder of
      this user's in the temp folder (mode 0700; left unset if it exists and is not ours).

    A variable already set is left as it is."""
    env = os.environ if env is None else env
    env.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    env.setdefault("OPENCV_LOG_LEVEL", "ERROR")
    if not env.get("XDG_RUNTIME_DIR") and sys.platform.startswith("linux"):
        runtime = private_runtime_dir()
        if runtime is not None:
            env["XDG_RUNTIME_DIR"] = runtime


def private_runtime_dir(base: str | None = None) -> str | None:
    """``<temp>/tablekeeper-runtime-<uid>``, made mode 0700 if missing; None where it cannot be
    made, or exists but is not this user's private folder."""
    uid = os.getuid()
    if base is None:
        try:
            base = tempfile.gettempdir()
        except OSError:  # a full card: tempfile finds no folder where it can write a file
            base = os.environ.get("TMPDIR") or "/tmp"
    path = os.path.join(base, f"tablekeeper-runtime-{uid}")
    try:
        os.mkdir(path, 0o700)
    except FileExistsError:
        pass
    except OSError:
        return None
    try:
        st = os.lstat(path)
    except OSError:
        return None
    if not stat.S_ISDIR(st.st_mode) or st.st_uid != uid or st.st_mode & 0o077:
        return None
    return path


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tablekeeper",
        description="A Raspberry Pi referee for card games on a real table.",
    )
    parser.add_argument("--version", action="version", version=f"tablekeeper {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    bench = commands.add_parser("bench", help="run a benchmark and print its figures")
    benches = bench.add_subparsers(dest="bench", required=True, metavar="TARGET")
    for name in PLUGINS:
        if importlib.util.find_spec(name) is None:
            continue
        module: Any = importlib.import_module(name)
        module.register(commands, benches)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    quiet_environment()
    parser = build_parser()
    args = parser.parse_args(argv)
    func: Callable[[argparse.Namespace], int] | None = getattr(args, "func", None)
    if func is None:
        parser.print_help()
        return 2
    try:
        return int(func(args) or 0)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
