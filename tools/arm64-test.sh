#!/usr/bin/env bash
# The test suite on a Raspberry Pi's CPU (aarch64) under emulation, on an amd64 Debian/Ubuntu
# machine: a Debian arm64 root (bookworm or trixie, the Debian releases under Pi OS Bookworm and
# Pi OS Trixie) made with mmdebstrap, run through qemu-user-static.
# Slow (every instruction is emulated: about 10-20 times slower than native), so never part of
# CI: run it by hand, as root, before a release or after a change of library versions.
# docs/arm64.md says what to expect.
#
#   sudo tools/arm64-test.sh                 ./tk test (the fast tier) in the arm64 root
#   sudo tools/arm64-test.sh --as-pi         ./tk test as on a Pi (TK_PI=1: the lock's
#                                            versions, installed with --require-hashes)
#   sudo tools/arm64-test.sh --pi-deps       .ci/pi-deps there (lock check, then every tier)
#   sudo tools/arm64-test.sh -- -k vision    extra arguments for ./tk test (pytest's)
#   sudo tools/arm64-test.sh --release trixie --as-pi   the same on Debian trixie (Pi OS Trixie)
#   sudo tools/arm64-test.sh --as-pi --pytest-only -- tests/vision   the venv, then pytest only
#                                            (no ruff, no mypy: they check the source, not the
#                                            CPU, and mypy alone takes over 25 min emulated)
#
# Options: --release bookworm|trixie (default bookworm), --root DIR (default
# /var/tmp/tablekeeper-arm64-root for bookworm, /var/tmp/tablekeeper-arm64-trixie-root for
# trixie; made on first use, kept for the next run), --setup-only (make the root and stop),
# --dry-run (say what would be done).
# The repository is cloned (its committed HEAD, not the work tree's edits) into the root's
# /src/tablekeeper afresh on each run.
set -euo pipefail

root=""
release=bookworm
mode="test"
pytest_only=0
dry=0
extra=()
usage() { sed -n '2,26s/^# \{0,1\}//p' "$0"; }
while [ $# -gt 0 ]; do
  case "$1" in
    --root) root="${2:?--root needs a directory}"; shift 2 ;;
    --root=*) root="${1#--root=}"; shift ;;
    --release) release="${2:?--release needs bookworm or trixie}"; shift 2 ;;
    --release=*) release="${1#--release=}"; shift ;;
    --pi-deps) mode=pi-deps; shift ;;
    --as-pi) mode=as-pi; shift ;;
    --setup-only) mode=setup; shift ;;
    --pytest-only) pytest_only=1; shift ;;
    --dry-run) dry=1; shift ;;
    -h|--help) usage; exit 0 ;;
    --) shift; extra=("$@"); break ;;
    *) echo "arm64-test: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done

case "$release" in
  bookworm) root="${root:-/var/tmp/tablekeeper-arm64-root}" ;;
  trixie) root="${root:-/var/tmp/tablekeeper-arm64-trixie-root}" ;;
  *) echo "arm64-test: --release $release: only bookworm and trixie (see --help)" >&2; exit 2 ;;
esac

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
packages=python3,python3-venv,python3-pip,git,shellcheck,ca-certificates,systemd,procps
run() {
  echo "+ $*" >&2
  if [ "$dry" -eq 0 ]; then "$@"; fi
}

if [ "$dry" -eq 0 ] && [ "$(id -u)" -ne 0 ]; then
  echo "arm64-test: run as root (mmdebstrap, chroot and mounts need it)" >&2
  exit 1
fi
if [ "$dry" -eq 0 ]; then
  for tool in mmdebstrap update-binfmts chroot; do
    if ! command -v "$tool" > /dev/null; then
      echo "arm64-test: $tool missing: apt-get install -y qemu-user-static binfmt-support mmdebstrap" >&2
      exit 1
    fi
  done
fi

# binfmt_misc: the kernel hands aarch64 binaries to qemu-aarch64-static
binfmt=/proc/sys/fs/binfmt_misc
if [ ! -e "$binfmt/status" ]; then
  run mount -t binfmt_misc binfmt_misc "$binfmt"
fi
if [ ! -e "$binfmt/qemu-aarch64" ]; then
  run update-binfmts --enable qemu-aarch64
fi

if [ ! -x "$root/usr/bin/python3" ]; then
  run mmdebstrap --arch=arm64 --variant=apt --include="$packages" "$release" "$root" \
    "deb http://deb.debian.org/debian $release main" \
    "deb http://deb.debian.org/debian $release-updates main" \
    "deb http://deb.debian.org/debian-security $release-security main"
fi
if [ "$mode" = setup ]; then exit 0; fi

mounted=()
# shellcheck disable=SC2329  # (called by the trap)
cleanup() {
  local i
  for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do
    umount -l "${mounted[i]}" 2> /dev/null || true
  done
}
trap cleanup EXIT
for fs in proc sys dev dev/pts; do
  if ! mountpoint -q "$root/$fs"; then
    case "$fs" in
      proc) run mount -t proc proc "$root/proc" ;;
      *) run mount --bind "/$fs" "$root/$fs" ;;
    esac
    mounted+=("$root/$fs")
  fi
done
run cp -L /etc/resolv.conf "$root/etc/resolv.conf"
# This machine's own certificate authorities (a network whose proxy signs TLS itself), so
# that pip in the root trusts what pip here trusts.
if compgen -G "/usr/local/share/ca-certificates/*.crt" > /dev/null; then
  run cp /usr/local/share/ca-certificates/*.crt "$root/usr/local/share/ca-certificates/"
  run chroot "$root" update-ca-certificates --fresh > /dev/null
fi
run rm -rf "$root/src/tablekeeper"
run mkdir -p "$root/src"
run git clone --quiet --no-local "$repo" "$root/src/tablekeeper"

# (the inner bash expands "$@": the arguments after its script and name)
# shellcheck disable=SC2016
case "$mode:$pytest_only" in
  pi-deps:*) inner='.ci/pi-deps' ;;
  as-pi:0) inner='TK_PI=1 TK_VENV=.venv-pi ./tk test "$@"' ;;
  as-pi:1) inner='TK_PI=1 TK_VENV=.venv-pi ./tk --version && .venv-pi/bin/pytest -p no:cacheprovider "$@"' ;;
  *:1) inner='./tk --version && .venv/bin/pytest -p no:cacheprovider "$@"' ;;
  *) inner='./tk test "$@"' ;;
esac
start=$(date +%s)
status=0
run nice -n 10 chroot "$root" /usr/bin/env -i HOME=/root PATH=/usr/local/bin:/usr/bin:/bin \
  LANG=C.UTF-8 PIP_CERT=/etc/ssl/certs/ca-certificates.crt \
  SSL_CERT_FILE=/etc/ssl/certs/ca-certificates.crt /bin/bash -c "cd /src/tablekeeper && uname -m && $inner" arm64-test \
  "${extra[@]}" || status=$?
echo "arm64-test: $mode finished with status $status after $(( $(date +%s) - start )) s" >&2
exit "$status"
