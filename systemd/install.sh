#!/usr/bin/env bash
# Install tablekeeper's kiosk on a fresh Raspberry Pi OS, 64-bit (Lite): Bookworm or Trixie.
# It reads VERSION_CODENAME from /etc/os-release and installs that release's lock
# (requirements/pi-<release>-aarch64.txt); other releases are refused, saying so.
#
#   sudo systemd/install.sh            install (or update) and start the kiosk
#   systemd/install.sh --dry-run       print every step it would take; change nothing
#
# Run it from a checkout of tablekeeper: it installs *that* checkout. It is idempotent: each
# step first checks whether it is already done, so a second run changes nothing ("ok: ...").
# Steps:
#   1. apt packages: picamera2, lgpio, python3-systemd, CJK fonts, SDL2 runtime, venv
#   2. the user `tablekeeper` (system user, no login) in the gpio video render input audio
#      groups, and the admin (TK_ADMIN, else the user who ran sudo) in the group tablekeeper,
#      so the admin can read the config (and run `tablekeeper selftest`)
#   3. a venv with --system-site-packages under /opt/tablekeeper (picamera2/lgpio come from apt);
#      into it the locked dependencies (requirements/pi-<release>-aarch64.txt: exact versions,
#      pip --require-hashes, wheels only) and this checkout (--no-deps); skipped when the same
#      source and lock are installed; the command /usr/local/bin/tablekeeper (a symlink)
#   4. the state directory /var/lib/tablekeeper and a default config.toml if there is none
#      (written atomically: temp file, fsync, rename, fsync the directory; mode 0640, group
#      tablekeeper: readable by the admin group)
#   5. the unit tablekeeper-kiosk.service, enabled and started (restarted when it changed)
#   6. only if config.toml has a [cafe] section (docs/cafe.md): the publisher's settings
#      /etc/tablekeeper/publisher.toml written from it (`tablekeeper cafe settings`), the broker
#      password (TK_MQTT_PASSWORD_FILE, copied root-only, mode 0600, to
#      /etc/tablekeeper/publisher-mqtt-password: a systemd credential, never in the settings),
#      and the unit tablekeeper-publisher.service, enabled and started
#
# Options:
#   --dry-run         print the steps, change nothing (runs without root)
#   --no-start        enable the unit but do not start or restart it (e.g. in an image build)
#   --skip=LIST       comma-separated steps to leave out: apt, user, deps (the locked
#                     dependencies: e.g. not on aarch64), systemd, cafe
#   -h, --help        this text
# Environment (for image builds and tests; defaults in brackets):
#   TK_PREFIX [/opt/tablekeeper]  TK_STATE_DIR [/var/lib/tablekeeper]
#   TK_UNIT_DIR [/etc/systemd/system]  TK_USER [tablekeeper]  TK_PYTHON [/usr/bin/python3]
#   TK_PIP_OPTS [] extra options for pip install   TK_BIN_DIR [/usr/local/bin]
#   TK_ADMIN [$SUDO_USER] the admin put in the group tablekeeper (none: nobody)
#   TK_ETC_DIR [/etc/tablekeeper]  TK_MQTT_PASSWORD_FILE [] the table's broker password
#   TK_OS_RELEASE [/etc/os-release] the file naming the Pi OS release (VERSION_CODENAME)
set -euo pipefail

readonly UNIT_NAME=tablekeeper-kiosk.service
APT_PACKAGES=(
  python3-venv python3-pip       # the venv and its pip
  python3-picamera2              # the camera (with python3-libcamera); apt only, not on PyPI
  python3-lgpio                  # gpiozero's pin factory on Pi 5 (and Pi 4)
  python3-systemd                # journald fields and sd_notify via libsystemd
  fonts-noto-cjk                 # Traditional Chinese on screen (NotoSansCJK-*.ttc, face 3)
  libsdl2-2.0-0                  # brings SDL2's KMSDRM runtime: libdrm2, libgbm1, libegl1
  libchewing3 libchewing3-data   # 注音 input of names on the touchscreen (display/zhuyin.py)
)
# ALSA for the buzzer sounds: the package's name per release (Debian 13's 64-bit time_t
# transition renamed it; trixie's libasound2 is only a virtual package)
declare -A ALSA=([bookworm]=libasound2 [trixie]=libasound2t64)
#: The Pi OS releases this installs on (each has its lock, requirements/pi-R-aarch64.txt).
readonly RELEASES=(bookworm trixie)
readonly GROUPS_WANTED=(gpio video render input audio)

src="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
prefix="${TK_PREFIX:-/opt/tablekeeper}"
venv="$prefix/venv"
state_dir="${TK_STATE_DIR:-/var/lib/tablekeeper}"
unit_dir="${TK_UNIT_DIR:-/etc/systemd/system}"
user="${TK_USER:-tablekeeper}"
python="${TK_PYTHON:-/usr/bin/python3}"
read -r -a pip_opts <<< "${TK_PIP_OPTS:-}"
stamp="$prefix/installed-source.sha256"
config="$state_dir/config.toml"
bin_dir="${TK_BIN_DIR:-/usr/local/bin}"
admin="${TK_ADMIN-${SUDO_USER:-}}"
os_release="${TK_OS_RELEASE:-/etc/os-release}"
etc_dir="${TK_ETC_DIR:-/etc/tablekeeper}"
password_src="${TK_MQTT_PASSWORD_FILE:-}"

dry_run=0
start=1
reinstalled=0
skip=","

usage() { sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}"; }
die() { echo "install.sh: error: $*" >&2; exit 1; }
note() { echo "ok: $*"; }
# Every change goes through `run`: printed always, executed unless --dry-run.
run() {
  printf '+'; printf ' %q' "$@"; printf '\n'
  if [ "$dry_run" -eq 0 ]; then "$@"; fi
}
skipped() { case "$skip" in *",$1,"*) return 0 ;; *) return 1 ;; esac; }

while [ $# -gt 0 ]; do
  case "$1" in
    --dry-run) dry_run=1 ;;
    --no-start) start=0 ;;
    --skip=*)
      skip=",${1#--skip=},"
      IFS=, read -r -a asked <<< "${1#--skip=}"
      for s in "${asked[@]}"; do
        case "$s" in apt|user|deps|systemd|cafe) ;; *) die "--skip: unknown step '$s' (apt, user, deps, systemd, cafe)" ;; esac
      done
      ;;
    -h|--help) usage; exit 0 ;;
    *) die "unknown option '$1' (try --help)" ;;
  esac
  shift
done

if [ "$dry_run" -eq 1 ]; then
  echo "install.sh: dry run: printing the steps, changing nothing"
elif [ "$(id -u)" -ne 0 ]; then
  die "must run as root to install (try: sudo $0), or use --dry-run to see the steps"
fi

if ! grep -qs '^name = "tablekeeper"' "$src/pyproject.toml"; then
  die "$src is not a tablekeeper checkout (no pyproject.toml naming tablekeeper)"
fi
[ -f "$src/systemd/$UNIT_NAME" ] || die "$src/systemd/$UNIT_NAME is missing"

# --- which Pi OS release: its lock and its package names --------------------------------
[ -r "$os_release" ] || die "cannot read $os_release (which Pi OS release is this?)"
release="$(sed -n 's/^VERSION_CODENAME=//p' "$os_release" | tr -d '"' | head -n 1)"
pretty="$(sed -n 's/^PRETTY_NAME=//p' "$os_release" | tr -d '"' | head -n 1)"
case " ${RELEASES[*]} " in
  *" $release "*) ;;
  *)
    why="${pretty:-this system} (${release:-no VERSION_CODENAME in $os_release}) is not supported:"
    why="$why this installs on Raspberry Pi OS Bookworm or Trixie, 64-bit (VERSION_CODENAME"
    why="$why ${RELEASES[*]// /, }); see hardware.md"
    why="$why (Pi OS) for where to get a supported image"
    if skipped deps && skipped apt; then echo "warning: $why"; else die "$why"; fi
    release=bookworm  # (apt and deps skipped: only the names below, never installed)
    ;;
esac
echo "install.sh: Pi OS release $release ($pretty)"
lock="$src/requirements/pi-$release-aarch64.txt"
APT_PACKAGES+=("${ALSA[$release]}")
[ -f "$lock" ] || die "$lock is missing"
if ! skipped deps && [ "$(uname -m)" != "aarch64" ]; then
  why="the lock $lock is for a 64-bit Pi (aarch64); this is $(uname -m): use --skip=deps"
  if [ "$dry_run" -eq 1 ]; then echo "warning: $why"; else die "$why"; fi
fi

if ! grep -qs "Raspberry Pi" /proc/device-tree/model; then
  echo "warning: this does not look like a Raspberry Pi (no 'Raspberry Pi' in /proc/device-tree/model)"
fi

# --- 1. packages ------------------------------------------------------------------------
echo "== 1. apt packages"
if skipped apt; then
  note "skipped (--skip=apt)"
else
  missing=()
  for pkg in "${APT_PACKAGES[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
      missing+=("$pkg")
    fi
  done
  if [ ${#missing[@]} -eq 0 ]; then
    note "all installed: ${APT_PACKAGES[*]}"
  else
    run apt-get update
    run env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
  fi
fi

# --- 2. user and groups -----------------------------------------------------------------
echo "== 2. user $user"
if skipped user; then
  note "skipped (--skip=user)"
else
  if getent passwd "$user" >/dev/null; then
    note "user $user exists"
  else
    run useradd --system --user-group --home-dir "$state_dir" --no-create-home \
      --shell /usr/sbin/nologin --comment "tablekeeper kiosk" "$user"
  fi
  current=" $(id -nG "$user" 2>/dev/null || true) "
  for group in "${GROUPS_WANTED[@]}"; do
    if ! getent group "$group" >/dev/null; then
      echo "warning: group $group does not exist here (on Pi OS it does); skipping it"
    elif [[ "$current" == *" $group "* ]]; then
      note "$user is in $group"
    else
      run usermod --append --groups "$group" "$user"
    fi
  done
  if [ -z "$admin" ] || [ "$admin" = root ]; then
    note "no admin to add to the group $user (TK_ADMIN, or run through sudo)"
  elif ! getent passwd "$admin" >/dev/null; then
    echo "warning: admin $admin does not exist; not added to the group $user"
  elif [[ " $(id -nG "$admin") " == *" $user "* ]]; then
    note "admin $admin is in the group $user"
  else
    run usermod --append --groups "$user" "$admin"
    echo "note: $admin can read $config after logging in again"
  fi
fi

# --- 3. venv and the project ------------------------------------------------------------
echo "== 3. venv $venv"
if [ -x "$venv/bin/python" ]; then
  note "venv exists"
else
  run install -d -m 0755 "$prefix"
  run "$python" -m venv --system-site-packages "$venv"
fi
# What is installed is identified by a hash of the source files, so re-running with the same
# checkout does not reinstall (pip would rebuild and rewrite every file).
source_hash="$(cd "$src" && find pyproject.toml README.md requirements tablekeeper engine firmware vision display ground \
  -type f ! -path '*/__pycache__/*' ! -name '*.pyc' -print0 2>/dev/null \
  | LC_ALL=C sort -z | xargs -0 sha256sum | sha256sum | cut -d' ' -f1)"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$source_hash" ]; then
  note "this checkout is installed ($source_hash)"
else
  # Exactly the versions CI tests (.ci/pi-deps), each wheel checked against its hash. Pi OS's
  # own numpy-based packages (python3-picamera2's simplejpeg, python3-libcamera) are built
  # against its apt numpy: Bookworm's lock keeps numpy 1.26 (and so OpenCV 4.11), Trixie's
  # has Debian's numpy 2.2.4 (and OpenCV 5.1).
  build_opts=()
  if skipped deps; then
    note "locked dependencies skipped (--skip=deps)"
  else
    run "$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
      --require-hashes --only-binary=:all: "${pip_opts[@]}" -r "$lock"
    build_opts=(--no-build-isolation)  # build with the locked setuptools, fetch nothing more
  fi
  run "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-deps \
    "${build_opts[@]}" "${pip_opts[@]}" "$src"
  reinstalled=1
  if [ "$dry_run" -eq 1 ]; then
    echo "+ record $source_hash in $stamp"
  else
    echo "$source_hash" > "$stamp"
  fi
fi

# The admin's command: `tablekeeper selftest --auto` as the README says, from any shell.
if [ "$(readlink "$bin_dir/tablekeeper" 2>/dev/null || true)" = "$venv/bin/tablekeeper" ]; then
  note "$bin_dir/tablekeeper -> $venv/bin/tablekeeper"
else
  run install -d -m 0755 "$bin_dir"
  run ln -sfn "$venv/bin/tablekeeper" "$bin_dir/tablekeeper"
fi

# --- 4. state directory and default config ----------------------------------------------
echo "== 4. state $state_dir"
owner="$user"
if skipped user && ! getent passwd "$user" >/dev/null; then owner="$(id -un)"; fi
if [ -d "$state_dir" ] && [ "$(stat -c '%U %a' "$state_dir")" = "$owner 750" ]; then
  note "$state_dir exists (owner $owner, mode 750)"
else
  run install -d -o "$owner" -g "$(id -gn "$owner" 2>/dev/null || echo "$owner")" -m 0750 "$state_dir"
fi
group="$(id -gn "$owner" 2>/dev/null || echo "$owner")"
if [ -f "$config" ]; then
  note "$config exists (its content left as it is)"
  if [ "$(stat -c '%a %G' "$config")" = "640 $group" ]; then
    note "$config is readable by the group $group (mode 640)"
  else
    run chgrp "$group" "$config"
    run chmod 0640 "$config"
  fi
else
  echo "+ write default $config atomically"
  if [ "$dry_run" -eq 0 ]; then
    tmp="$(mktemp "$state_dir/.config.toml.XXXXXX")"
    trap 'rm -f "$tmp"' EXIT
    cat > "$tmp" <<EOF
# tablekeeper configuration, written by systemd/install.sh (see README: Configuration).
# Only what differs from the defaults; the kiosk rewrites this file atomically.
[table]
state_dir = "$state_dir"
EOF
    chown "$owner:$(id -gn "$owner")" "$tmp"
    chmod 0640 "$tmp"
    sync "$tmp"
    mv -T "$tmp" "$config"
    sync "$state_dir"
    trap - EXIT
  fi
fi

# --- 5. the unit ------------------------------------------------------------------------
echo "== 5. unit $UNIT_NAME"
unit_changed=0
if cmp -s "$src/systemd/$UNIT_NAME" "$unit_dir/$UNIT_NAME"; then
  note "$unit_dir/$UNIT_NAME is current"
else
  run install -D -m 0644 "$src/systemd/$UNIT_NAME" "$unit_dir/$UNIT_NAME"
  unit_changed=1
fi
if skipped systemd; then
  note "systemctl skipped (--skip=systemd)"
else
  if [ "$unit_changed" -eq 1 ]; then run systemctl daemon-reload; fi
  if systemctl is-enabled --quiet "$UNIT_NAME" 2>/dev/null; then
    note "$UNIT_NAME is enabled"
  else
    run systemctl enable "$UNIT_NAME"
  fi
  if [ "$start" -eq 0 ]; then
    note "not starting (--no-start)"
  elif ! systemctl is-active --quiet "$UNIT_NAME" 2>/dev/null; then
    run systemctl start "$UNIT_NAME"
  elif [ "$unit_changed" -eq 1 ] || [ "$reinstalled" -eq 1 ]; then
    run systemctl restart "$UNIT_NAME"
  else
    note "$UNIT_NAME is running"
  fi
fi

# --- 6. the café publisher (only with [cafe] in the config) -----------------------------
echo "== 6. cafe publisher"
PUB_UNIT=tablekeeper-publisher.service
if skipped cafe; then
  note "skipped (--skip=cafe)"
elif [ ! -f "$config" ] || ! grep -qs '^\[cafe\]' "$config"; then
  note "no [cafe] section in $config: this box publishes nothing (docs/cafe.md)"
else
  settings="$etc_dir/publisher.toml"
  secret="$etc_dir/publisher-mqtt-password"
  pub_changed=0
  if [ ! -d "$etc_dir" ]; then run install -d -m 0755 "$etc_dir"; fi
  if [ "$dry_run" -eq 1 ]; then
    echo "+ write $settings from [cafe] of $config (tablekeeper cafe settings)"
  else
    new="$(mktemp "$etc_dir/.publisher.toml.XXXXXX")"
    trap 'rm -f "$new"' EXIT
    "$venv/bin/tablekeeper" cafe settings --config "$config" > "$new" \
      || die "[cafe] in $config cannot make the publisher's settings (see above)"
    if cmp -s "$new" "$settings"; then
      rm -f "$new"
      note "$settings is current"
    else
      chmod 0644 "$new"
      mv -T "$new" "$settings"
      echo "+ wrote $settings"
      pub_changed=1
    fi
    trap - EXIT
  fi
  if [ -n "$password_src" ]; then
    [ -r "$password_src" ] || die "TK_MQTT_PASSWORD_FILE=$password_src cannot be read"
    if cmp -s "$password_src" "$secret"; then
      note "$secret is current"
    else
      run install -m 0600 -o root -g root "$password_src" "$secret"
      pub_changed=1
    fi
  elif [ -f "$secret" ]; then
    note "$secret exists (root-only)"
  else
    echo "warning: no broker password: put this table's password in $secret (root, mode 0600)" \
      "or run again with TK_MQTT_PASSWORD_FILE=FILE; the publisher cannot connect until then"
  fi
  if cmp -s "$src/systemd/$PUB_UNIT" "$unit_dir/$PUB_UNIT"; then
    note "$unit_dir/$PUB_UNIT is current"
  else
    run install -D -m 0644 "$src/systemd/$PUB_UNIT" "$unit_dir/$PUB_UNIT"
    if ! skipped systemd; then run systemctl daemon-reload; fi
    pub_changed=1
  fi
  if skipped systemd; then
    note "systemctl skipped (--skip=systemd)"
  else
    if ! systemctl is-enabled --quiet "$PUB_UNIT" 2>/dev/null; then run systemctl enable "$PUB_UNIT"; fi
    if [ "$start" -eq 0 ]; then
      note "not starting $PUB_UNIT (--no-start)"
    elif ! systemctl is-active --quiet "$PUB_UNIT" 2>/dev/null; then
      run systemctl start "$PUB_UNIT"
    elif [ "$pub_changed" -eq 1 ] || [ "$reinstalled" -eq 1 ]; then
      run systemctl restart "$PUB_UNIT"
    else
      note "$PUB_UNIT is running"
    fi
  fi
fi

if [ "$dry_run" -eq 1 ]; then
  echo "install.sh: dry run done; nothing was changed"
else
  echo "install.sh: done. Logs: journalctl -u ${UNIT_NAME%.service} -f"
fi
