#!/usr/bin/env bash
# Make (or --check) requirements/dev.txt: the exact versions, with the sha256 of every wheel on
# PyPI, that ./tk installs into .venv (a laptop, the tests, CI). One lock for every platform
# we develop and test on (x86_64 and aarch64 Linux, CPython 3.11 to 3.13: markers say where a
# version applies), covering the runtime dependencies and every extra of pyproject.toml.
#
#   requirements/lock.sh            rewrite the lock from pyproject.toml (after adding or
#                                   changing a dependency there: run this, commit both files)
#   requirements/lock.sh --check    resolve again and fail if the lock differs (CI can run it)
#   requirements/lock.sh --upgrade  take the newest releases that fit (default: keep what the
#                                   lock has where it still fits pyproject.toml)
#
# The tool is uv's `uv pip compile --universal` (a universal, marker-aware resolution; pip-tools
# resolves only for the machine it runs on). uv comes from PyPI at the version pinned below: if
# `uv` on PATH is not that version, a private copy is installed once into
# ${XDG_CACHE_HOME:-~/.cache}/tablekeeper/uv-<version>.
# The Pi's kiosk has its own locks (requirements/lock-pi.sh: Pi OS's apt numpy decides there).
set -euo pipefail

readonly UV_VERSION=0.13.9
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(dirname "$here")"
lock="$here/dev.txt"
python="${PYTHON:-python3}"
mode="write"
case "${1:-}" in
  --check) mode=check ;;
  --upgrade) mode=upgrade ;;
  "") ;;
  -h|--help) sed -n '2,17s/^# \{0,1\}//p' "$0"; exit 0 ;;
  *) echo "lock.sh: unknown option '$1' (--check, --upgrade)" >&2; exit 1 ;;
esac

uv=uv
if [ "$(uv --version 2> /dev/null | cut -d' ' -f2)" != "$UV_VERSION" ]; then
  tools="${XDG_CACHE_HOME:-$HOME/.cache}/tablekeeper/uv-$UV_VERSION"
  if [ ! -x "$tools/bin/uv" ]; then
    echo "lock.sh: installing uv $UV_VERSION into $tools ..." >&2
    "$python" -m venv "$tools"
    "$tools/bin/python" -m pip install --quiet --disable-pip-version-check "uv==$UV_VERSION"
  fi
  uv="$tools/bin/uv"
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# With the old lock as the starting point, uv keeps every version that still fits pyproject.toml
# and resolves only what changed (a new dependency, a raised bound), so adding a package does
# not move the others. --upgrade (or no lock yet) resolves everything afresh.
if [ "$mode" != upgrade ] && [ -f "$lock" ]; then cp "$lock" "$work/dev.txt"; fi
# PyPI itself, and the same header whoever runs it: no index, cache or config of this machine.
(cd "$repo" && env -u UV_INDEX_URL -u UV_EXTRA_INDEX_URL -u UV_FIND_LINKS -u UV_CONSTRAINT \
  UV_NO_CONFIG=1 UV_CUSTOM_COMPILE_COMMAND="requirements/lock.sh" \
  "$uv" --quiet pip compile pyproject.toml --all-extras --universal --python-version 3.11 \
  --generate-hashes --index-url https://pypi.org/simple --no-header --output-file "$work/dev.txt")

{
  echo "# The development set-up's exact versions (./tk installs this into .venv with"
  echo "# pip --require-hashes, then the project with --no-deps): x86_64 and aarch64 Linux,"
  echo "# CPython 3.11+, pyproject.toml's dependencies and all its extras."
  echo "# Made by requirements/lock.sh (uv pip compile --universal); do not edit by hand."
  echo "# Added or changed a dependency in pyproject.toml? Run requirements/lock.sh and commit"
  echo "# both files. Newest releases: requirements/lock.sh --upgrade (./tk test --latest first)."
  cat "$work/dev.txt"
} > "$work/lock.txt"

if [ "$mode" = check ]; then
  if diff -u "$lock" "$work/lock.txt"; then
    echo "lock.sh: $lock fits pyproject.toml"
  else
    echo "lock.sh: $lock is out of date with pyproject.toml (run requirements/lock.sh)" >&2
    exit 1
  fi
else
  cp "$work/lock.txt" "$lock"
  echo "lock.sh: wrote $lock"
fi
