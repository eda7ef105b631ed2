#!/usr/bin/env bash
# Make (or --check) a Pi OS release's lock, requirements/pi-<release>-aarch64.txt: the exact
# wheels a Raspberry Pi installs (systemd/install.sh picks the lock by /etc/os-release), each
# with the sha256 of the wheel on PyPI. Supported releases, and their CPython:
#   bookworm  Pi OS Bookworm (Debian 12), CPython 3.11: numpy 1.26, OpenCV 4.11
#   trixie    Pi OS Trixie (Debian 13), CPython 3.13: numpy 2.2.4 (Debian's), OpenCV 5.1
#
#   requirements/lock-pi.sh [--release R]           rewrite the lock from requirements/pi-R.in
#   requirements/lock-pi.sh [--release R] --check   download again, fail if the lock differs
#   (--release all, the default: every release)
#
# It asks pip to resolve for the Pi, not for this machine: --platform manylinux2014_aarch64
# --python-version of the release --only-binary=:all: (a Pi never builds from source).
# The versions are pinned by hand in requirements/pi-R.in (they follow Pi OS's apt numpy);
# the development set-up's lock is requirements/dev.txt (requirements/lock.sh).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
python="${PYTHON:-python3}"
check=0
releases=(bookworm trixie)
while [ $# -gt 0 ]; do
  case "$1" in
    --check) check=1; shift ;;
    --release) releases=("${2:?--release needs bookworm, trixie or all}"); shift 2 ;;
    --release=*) releases=("${1#--release=}"); shift ;;
    *) echo "lock-pi.sh: unknown option '$1' (--check, --release bookworm|trixie|all)" >&2; exit 1 ;;
  esac
done
if [ "${releases[0]}" = all ]; then releases=(bookworm trixie); fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
status=0
for release in "${releases[@]}"; do
case "$release" in
  bookworm) pyver=3.11; title="Pi OS Bookworm, CPython 3.11, aarch64" ;;
  trixie) pyver=3.13; title="Pi OS Trixie, CPython 3.13, aarch64" ;;
  *) echo "lock-pi.sh: --release $release: only bookworm and trixie" >&2; exit 1 ;;
esac
lock="$here/pi-$release-aarch64.txt"
rm -rf "$work/wheels"
# PyPI itself: no local wheel folders, mirrors or constraints of this machine's pip config.
env -u PIP_FIND_LINKS -u PIP_EXTRA_INDEX_URL -u PIP_INDEX_URL -u PIP_CONSTRAINT \
  PIP_CONFIG_FILE=/dev/null \
"$python" -m pip download --quiet --disable-pip-version-check --dest "$work/wheels" \
  --index-url https://pypi.org/simple --no-cache-dir \
  --platform manylinux2014_aarch64 --python-version "$pyver" --implementation cp \
  --abi "cp${pyver/./}" --only-binary=:all: -r "$here/pi-$release.in"

{
  echo "# The kiosk's dependencies on a Raspberry Pi: $title."
  echo "# Exact versions; each hash is the sha256 of the wheel on PyPI. systemd/install.sh"
  echo "# installs this with pip --require-hashes; .ci/pi-deps tests these versions."
  echo "# Made by requirements/lock-pi.sh --release $release from requirements/pi-$release.in;"
  echo "# do not edit by hand."
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
    echo "lock-pi.sh: $lock is out of date (run requirements/lock-pi.sh --release $release)" >&2
    status=1
  fi
else
  cp "$work/lock.txt" "$lock"
  echo "lock-pi.sh: wrote $lock"
fi
done
exit "$status"
