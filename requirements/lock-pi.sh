#!/usr/bin/env bash
# Make (or --check) requirements/pi-bookworm-aarch64.txt: the exact wheels a Raspberry Pi
# (Pi OS Bookworm, CPython 3.11, aarch64) installs, each with the sha256 of the wheel on PyPI.
#
#   requirements/lock-pi.sh           rewrite the lock from requirements/pi.in
#   requirements/lock-pi.sh --check   download again and fail if the lock differs (CI)
#
# It asks pip to resolve for the Pi, not for this machine: --platform manylinux2014_aarch64
# --python-version 3.11 --only-binary=:all: (a Pi never builds from source).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
lock="$here/pi-bookworm-aarch64.txt"
python="${PYTHON:-python3}"
check=0
case "${1:-}" in
  --check) check=1 ;;
  "") ;;
  *) echo "lock-pi.sh: unknown option '$1' (--check)" >&2; exit 1 ;;
esac

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# PyPI itself: no local wheel folders, mirrors or constraints of this machine's pip config.
env -u PIP_FIND_LINKS -u PIP_EXTRA_INDEX_URL -u PIP_INDEX_URL -u PIP_CONSTRAINT \
  PIP_CONFIG_FILE=/dev/null \
"$python" -m pip download --quiet --disable-pip-version-check --dest "$work/wheels" \
  --index-url https://pypi.org/simple --no-cache-dir \
  --platform manylinux2014_aarch64 --python-version 3.11 --implementation cp --abi cp311 \
  --only-binary=:all: -r "$here/pi.in"

{
  echo "# The kiosk's dependencies on a Raspberry Pi: Pi OS Bookworm, CPython 3.11, aarch64."
  echo "# Exact versions; each hash is the sha256 of the wheel on PyPI. systemd/install.sh"
  echo "# installs this with pip --require-hashes; .ci/pi-deps tests these versions."
  echo "# Made by requirements/lock-pi.sh from requirements/pi.in; do not edit by hand."
  for wheel in "$work"/wheels/*.whl; do
    file="$(basename "$wheel")"
    name="$(echo "${file%%-*}" | tr '_A-Z' '-a-z')"
    version="$(echo "$file" | cut -d- -f2)"
    hash="$(sha256sum "$wheel" | cut -d' ' -f1)"
    printf '%s==%s \\\n    --hash=sha256:%s\n' "$name" "$version" "$hash"
  done
} > "$work/lock.txt"

if [ "$check" -eq 1 ]; then
  if diff -u "$lock" "$work/lock.txt"; then
    echo "lock-pi.sh: $lock resolves to the same wheels"
  else
    echo "lock-pi.sh: $lock is out of date (run requirements/lock-pi.sh)" >&2
    exit 1
  fi
else
  cp "$work/lock.txt" "$lock"
  echo "lock-pi.sh: wrote $lock"
fi
