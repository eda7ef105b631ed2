#!/usr/bin/env bash
# Fetch picamera2's pure-Python wheel (the version and hash of requirements/picamera2-check.txt)
# into .cache/picamera2/, where tests/vision/test_sensor_modes.py finds it and runs picamera2's
# own sensor-mode selection with libcamera stubbed. It is never installed: the kiosk uses
# Pi OS's python3-picamera2, and the development venv must not find a picamera2 (the camera
# source "auto" would take it).
set -euo pipefail
cd "$(dirname "$0")/.."
python=python3
[ -x .venv/bin/python ] && python=.venv/bin/python
mkdir -p .cache/picamera2
"$python" -m pip download --quiet --no-deps --only-binary=:all: --require-hashes \
    -r requirements/picamera2-check.txt -d .cache/picamera2
ls .cache/picamera2/picamera2-*.whl
