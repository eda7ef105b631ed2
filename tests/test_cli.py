from __future__ import annotations

import pytest

from tablekeeper.cli import build_parser, main


def test_help_lists_commands(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["--help"])
    assert exc.value.code == 0
    out = capsys.readouterr().out
    assert "demo" in out and "bench" in out


def test_unknown_command_is_an_error() -> None:
    with pytest.raises(SystemExit) as exc:
        build_parser().parse_args(["no-such-command"])
    assert exc.value.code == 2


def test_the_cli_starts_without_opencv() -> None:
    """Building the CLI imports no heavy library: ``tablekeeper --version`` works in a venv
    without OpenCV (the installer's test installs with --skip=deps; a bench's registration
    once imported the simulated table, and so cv2, at start)."""
    import subprocess
    import sys

    code = ("import sys; sys.modules['cv2'] = None\n"
            "from tablekeeper.cli import main\n"
            "main(['--version'])")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60, check=False)
    assert done.returncode == 0 and "tablekeeper" in done.stdout, done.stderr
