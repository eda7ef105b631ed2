"""The Pi cameras a builder may buy, their sensor modes, and the mode the box asks for.

**Why a choice.** picamera2 picks a sensor mode for a stream by scoring every mode against the
stream's size (``score_mode`` in ``Picamera2._make_libcamera_config``, a copy of libcamera's
Raspberry Pi ``findBestMode``): width and height differences, 1500 x the aspect-ratio
difference, 500 x the bit-depth difference. The field of view plays no part. For the Camera
Module 3 (IMX708) and the kiosk's 1280x960 stream that picks **1536x864**, a 2x2-binned crop of
the central 3072x1728 of the 4608x2592 sensor: two thirds of its width and height, a
36 x 28 degree view instead of 52 x 41 (tests/vision/test_sensor_modes.py runs picamera2's own
code on it). So the box chooses the mode itself (:func:`choose_mode`) and asks picamera2 for it
(``sensor={"output_size": ..., "bit_depth": ...}`` and a raw stream of that size:
:class:`vision.camera.Picamera2Source`).

**The rule.** Of a camera's modes, those that see the most of the sensor at the stream's aspect
(the ISP crops a mode's picture to the stream's aspect about its centre: libcamera's Raspberry
Pi pipeline, ``boundedToAspectRatio`` of the mode's size), then those that reach the frame rate,
then the smallest that is at least the stream's size (less to move and scale), else the
largest.

**The modes** are the published lists: ``rpicam-hello --list-cameras`` as the Raspberry Pi
documentation prints it (https://www.raspberrypi.com/documentation/computers/
camera_software.html, ``--list-cameras``: the IMX219 and IMX477 lists), and the mode tables
of the sensors' drivers in the Raspberry Pi kernel (github.com/raspberrypi/linux,
``drivers/media/i2c/imx708.c``, ``imx477.c``, ``imx219.c``, ``ov5647.c``: each mode's size and
its crop of the pixel array), which libcamera reports as each mode's crop (``(x, y)/WxH``).
The fields of view are the Raspberry Pi camera hardware page's (https://www.raspberrypi.com/
documentation/accessories/camera.html): Camera Module 3 66 x 41 degrees, its Wide 102 x 67,
v2 62.2 x 48.8, v1.3 53.50 x 41.41; the HQ camera's follows from its lens (a 6 mm CS lens, as
hardware.md's bill of materials names, on its 6.287 x 4.712 mm pixel array: 1.55 um pixels).
On the Pi the camera's own list (picamera2's ``sensor_modes``) is used for a sensor this table
does not know.

Pure Python, no picamera2: ``tablekeeper vision camera-plan`` and hardware.md's mount table
use the same functions on a laptop.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class SensorMode:
    """One readout mode: the picture's size, its bit depth, the rectangle of the pixel array
    it covers (x, y, w, h in full-resolution pixels) and its fastest frame rate."""

    size: tuple[int, int]
    bit_depth: int
    crop: tuple[int, int, int, int]
    fps: float
    format: str = ""

    @property
    def binned(self) -> bool:
        return self.size[0] < self.crop[2]

    def text(self) -> str:
        x, y, w, h = self.crop
        return (f"{self.size[0]}x{self.size[1]} {self.bit_depth}-bit [{self.fps:.2f} fps - "
                f"({x}, {y})/{w}x{h} crop]")


@dataclass(frozen=True)
class Sensor:
    """A camera a builder may buy: its libcamera model names, pixel array, the full array's
    field of view (horizontal, vertical, degrees) and its modes."""

    key: str
    name: str
    models: tuple[str, ...]
    pixels: tuple[int, int]
    fov_deg: tuple[float, float]
    modes: tuple[SensorMode, ...]
    lens: str = ""


def _m(w: int, h: int, bits: int, crop: tuple[int, int, int, int], fps: float,
       fmt: str) -> SensorMode:
    return SensorMode((w, h), bits, crop, fps, fmt)


_IMX708_MODES = (
    _m(1536, 864, 10, (768, 432, 3072, 1728), 120.13, "SRGGB10_CSI2P"),
    _m(2304, 1296, 10, (0, 0, 4608, 2592), 56.03, "SRGGB10_CSI2P"),
    _m(4608, 2592, 10, (0, 0, 4608, 2592), 14.35, "SRGGB10_CSI2P"),
)

#: The HQ camera's field of view with the 6 mm lens: 2 atan(half the array / 6 mm).
_HQ_ARRAY_MM = (4056 * 1.55e-3, 3040 * 1.55e-3)
_HQ_LENS_MM = 6.0


def _lens_fov(array_mm: tuple[float, float], focal_mm: float) -> tuple[float, float]:
    return (round(math.degrees(2 * math.atan(array_mm[0] / 2 / focal_mm)), 1),
            round(math.degrees(2 * math.atan(array_mm[1] / 2 / focal_mm)), 1))


SENSORS: dict[str, Sensor] = {s.key: s for s in (
    Sensor("cm3", "Camera Module 3 (IMX708)", ("imx708", "imx708_noir"), (4608, 2592),
           (66.0, 41.0), _IMX708_MODES),
    Sensor("cm3-wide", "Camera Module 3 Wide (IMX708)", ("imx708_wide", "imx708_wide_noir"),
           (4608, 2592), (102.0, 67.0), _IMX708_MODES),
    Sensor("hq", "HQ Camera (IMX477), 6 mm lens", ("imx477", "imx477_noir"), (4056, 3040),
           _lens_fov(_HQ_ARRAY_MM, _HQ_LENS_MM), (
               _m(1332, 990, 10, (696, 528, 2664, 1980), 120.05, "SRGGB10_CSI2P"),
               _m(2028, 1080, 12, (0, 440, 4056, 2160), 50.03, "SRGGB12_CSI2P"),
               _m(2028, 1520, 12, (0, 0, 4056, 3040), 40.01, "SRGGB12_CSI2P"),
               _m(4056, 3040, 12, (0, 0, 4056, 3040), 10.00, "SRGGB12_CSI2P"),
           ), lens="6 mm CS-mount"),
    Sensor("v2", "Camera Module v2 (IMX219)", ("imx219", "imx219_noir"), (3280, 2464),
           (62.2, 48.8), tuple(
               _m(w, h, bits, crop, fps, f"SRGGB{bits}" + ("_CSI2P" if bits == 10 else ""))
               for bits in (10, 8) for (w, h, crop, fps) in (
                   (640, 480, (1000, 752, 1280, 960), 206.65),
                   (1640, 1232, (0, 0, 3280, 2464), 41.85),
                   (1920, 1080, (680, 692, 1920, 1080), 47.57),
                   (3280, 2464, (0, 0, 3280, 2464), 21.19)))),
    Sensor("v1", "Camera Module v1.3 (OV5647)", ("ov5647", "ov5647_noir"), (2592, 1944),
           (53.50, 41.41), (
               _m(640, 480, 10, (16, 0, 2560, 1920), 58.92, "SGBRG10_CSI2P"),
               _m(1296, 972, 10, (0, 0, 2592, 1944), 43.25, "SGBRG10_CSI2P"),
               _m(1920, 1080, 10, (348, 434, 1928, 1080), 30.62, "SGBRG10_CSI2P"),
               _m(2592, 1944, 10, (0, 0, 2592, 1944), 15.63, "SGBRG10_CSI2P"),
           )),
)}


class UnknownSensor(ValueError):
    """A sensor name that is neither a key of :data:`SENSORS` nor one of its models."""


def sensor(name: str) -> Sensor:
    """A camera by key (``cm3``, ``cm3-wide``, ``hq``, ``v2``, ``v1``) or libcamera model
    (``imx708_wide_noir`` ...)."""
    key = name.strip().lower()
    if key in SENSORS:
        return SENSORS[key]
    for s in SENSORS.values():
        if key in s.models:
            return s
    raise UnknownSensor(f"unknown camera {name!r}: one of {', '.join(SENSORS)} (or a model: "
                        f"{', '.join(m for s in SENSORS.values() for m in s.models)})")


@dataclass(frozen=True)
class ModeChoice:
    """The mode for a stream, and what the stream then sees."""

    sensor: Sensor
    mode: SensorMode
    stream: tuple[int, int]
    #: the rectangle of the pixel array the stream sees (x, y, w, h)
    seen: tuple[float, float, float, float]
    #: the share of the widest view at the stream's aspect that it sees (1.0: all of it)
    crop: float
    #: the stream's field of view (horizontal, vertical), degrees
    fov_deg: tuple[float, float]

    @property
    def sensor_share(self) -> tuple[float, float]:
        """The share of the full pixel array's width and height the stream sees."""
        return (self.seen[2] / self.sensor.pixels[0], self.seen[3] / self.sensor.pixels[1])

    def request(self) -> dict[str, Any]:
        """picamera2's ``sensor`` configuration for this mode."""
        return {"output_size": self.mode.size, "bit_depth": self.mode.bit_depth}

    def text(self) -> str:
        w, h = self.sensor_share
        return (f"mode {self.mode.text()}; crop {self.crop:.2f} (sees {w:.0%} x {h:.0%} of the "
                f"sensor); field of view {self.fov_deg[0]:.1f} x {self.fov_deg[1]:.1f} deg")


def _within(region: tuple[float, float, float, float], aspect: float
            ) -> tuple[float, float, float, float]:
    """The largest rectangle of ``aspect`` centred in ``region``."""
    x, y, w, h = region
    if w / h > aspect:
        nw, nh = h * aspect, h
    else:
        nw, nh = w, w / aspect
    return (x + (w - nw) / 2, y + (h - nh) / 2, nw, nh)


def view_of(s: Sensor, mode: SensorMode, stream: tuple[int, int]) -> ModeChoice:
    """What ``stream`` sees through ``mode``: the ISP crops the mode's picture to the stream's
    aspect about its centre."""
    aspect = stream[0] / stream[1]
    seen = _within(tuple(float(v) for v in mode.crop), aspect)  # type: ignore[arg-type]
    widest = _within((0.0, 0.0, float(s.pixels[0]), float(s.pixels[1])), aspect)
    crop = round(min(seen[2] / widest[2], seen[3] / widest[3]), 4)
    hfov, vfov = (math.radians(v) for v in s.fov_deg)
    fov = (math.degrees(2 * math.atan(math.tan(hfov / 2) * seen[2] / s.pixels[0])),
           math.degrees(2 * math.atan(math.tan(vfov / 2) * seen[3] / s.pixels[1])))
    return ModeChoice(s, mode, stream, seen, crop, fov)


def choose_mode(s: Sensor, stream: tuple[int, int], fps: float = 30.0,
                modes: Sequence[SensorMode] | None = None) -> ModeChoice:
    """The mode the box asks for (the rule of the module docstring); ``modes``: the camera's
    own list (default: the table's)."""
    views = [view_of(s, m, stream) for m in (modes if modes is not None else s.modes)]
    if not views:
        raise ValueError(f"{s.name}: no sensor modes")
    best = max(v.crop for v in views)
    views = [v for v in views if v.crop >= best - 0.005]
    fast = [v for v in views if v.mode.fps >= fps - 0.5]
    views = fast or [max(views, key=lambda v: v.mode.fps)]
    big = [v for v in views if v.mode.size[0] >= stream[0] and v.mode.size[1] >= stream[1]]
    if big:
        return min(big, key=lambda v: (v.mode.size[0] * v.mode.size[1], -v.mode.bit_depth))
    return max(views, key=lambda v: (v.mode.size[0] * v.mode.size[1], v.mode.bit_depth))


def modes_from_picamera2(sensor_modes: Iterable[Mapping[str, Any]]) -> tuple[SensorMode, ...]:
    """picamera2's ``sensor_modes`` (size, bit_depth, crop_limits, fps, format) as modes;
    entries without those keys are left out."""
    out = []
    for m in sensor_modes:
        try:
            w, h = (int(v) for v in m["size"])
            x, y, cw, ch = (int(v) for v in m["crop_limits"])
            out.append(SensorMode((w, h), int(m["bit_depth"]), (x, y, cw, ch),
                                  float(m.get("fps") or 0.0), str(m.get("format", ""))))
        except (KeyError, TypeError, ValueError):
            continue
    return tuple(out)


def sensor_from_picamera2(model: str, pixels: Sequence[int] | None,
                          sensor_modes: Iterable[Mapping[str, Any]]) -> Sensor:
    """A camera the table does not know, from what picamera2 reports (its field of view is
    unknown: 0 x 0 degrees)."""
    px = (int(pixels[0]), int(pixels[1])) if pixels else (0, 0)
    modes = modes_from_picamera2(sensor_modes)
    if px == (0, 0) and modes:
        px = (max(m.crop[0] + m.crop[2] for m in modes), max(m.crop[1] + m.crop[3] for m in modes))
    return Sensor(model, model, (model,), px, (0.0, 0.0), modes)


# ------------------------------------------------------------------------------ the plan

#: The decks' floors (``tablekeeper bench pixels``, hardware.md section 3: the smallest card
#: width in the searched frame from which >= 95 % are named right and none wrong) and what to
#: plan for; card widths of the demo decks' real counterparts (56 x 87 mm cards, 45 mm tiles).
@dataclass(frozen=True)
class DeckNeed:
    name: str
    card_mm: float
    floor_px: int
    plan_px: int


DECK_NEEDS: tuple[DeckNeed, ...] = (
    DeckNeed("The Game", 56.0, 42, 48),
    DeckNeed("Wink", 56.0, 56, 64),
    DeckNeed("Eselsbrücke (tiles)", 45.0, 56, 64),
    DeckNeed("什麼不見啦 items", 56.0, 56, 64),
    DeckNeed("什麼不見啦 scenes", 56.0, 64, 72),
)


def covered_cm(choice: ModeChoice, height_cm: float) -> tuple[float, float]:
    """The table area the stream covers from ``height_cm`` straight above (pinhole: the wide
    lens's barrel distortion makes its edges a little wider than this)."""
    return tuple(2 * height_cm * math.tan(math.radians(a) / 2)  # type: ignore[return-value]
                 for a in choice.fov_deg)


def card_px(choice: ModeChoice, height_cm: float, card_mm: float, search_width: int) -> float:
    """A card's short side in px of the frame searched at ``search_width`` (at most the
    stream's width)."""
    width = min(search_width, choice.stream[0])
    return width * card_mm / 10 / covered_cm(choice, height_cm)[0]


@dataclass(frozen=True)
class Mount:
    """A row of hardware.md's mount table: a game's area and the mount for it."""

    what: str
    area_cm: tuple[float, float]
    sensor: str
    height_cm: int
    search_width: int
    search_note: str
    card_mm: float
    floor_px: int
    plan_px: int
    card_note: str = ""


MOUNTS: tuple[Mount, ...] = (
    Mount("The Game: the four rows (piles side by side)", (40, 15), "cm3", 50, 640, "640",
          56.0, 42, 48),
    Mount("Wink: the 6×6 grid, long sides of the cards across the frame", (63, 45), "cm3", 68,
          1280, "1280 (the game's own)", 56.0, 56, 64),
    Mount("Wink, from a low arm (the grid in the middle two thirds of the frame, away from "
          "the wide lens's bent edges)", (63, 45), "cm3-wide", 54, 1280, "1280", 56.0, 56, 64),
    Mount("Eselsbrücke: the centre (tiles of ~45 mm)", (40, 30), "cm3", 45, 640, "640",
          45.0, 56, 64, " (tile)"),
    Mount("什麼不見啦: the centre pile", (40, 30), "cm3", 45, 640, "640", 56.0, 64, 72),
    Mount("**one mount for every game**", (63, 45), "cm3", 68, 1280,
          "**1280** (`[vision.find] work_width = 1280`)", 56.0, 64, 72),
)


def fits(mount: Mount, choice: ModeChoice, height_cm: float) -> bool:
    """The area fits in the frame (in the middle two thirds with the wide lens) and a card
    stays at the size planned for."""
    w, h = covered_cm(choice, height_cm)
    if choice.sensor.key == "cm3-wide":
        w, h = w * 2 / 3, h * 2 / 3
    return (w >= mount.area_cm[0] and h >= mount.area_cm[1]
            and card_px(choice, height_cm, mount.card_mm, mount.search_width) >= mount.plan_px)


def height_range(mount: Mount, choice: ModeChoice) -> tuple[int, int] | None:
    ok = [h for h in range(20, 201) if fits(mount, choice, h)]
    return (ok[0], ok[-1]) if ok else None


DEFAULT_STREAM = (1280, 960)


def mount_table(stream: tuple[int, int] = DEFAULT_STREAM) -> str:
    """hardware.md section 3's mount table (Markdown), from :func:`choose_mode`."""
    lens = {"cm3": "standard", "cm3-wide": "wide"}
    rows = ["| game | area the cards are laid in | lens | camera height | frame covers | "
            "searched at | a card is | floor |",
            "|---|---|---|---|---|---|---|---|"]
    for m in MOUNTS:
        choice = choose_mode(SENSORS[m.sensor], stream)
        w, h = covered_cm(choice, m.height_cm)
        span = height_range(m, choice)
        within = f" ({span[0]}–{span[1]})" if span else " (no height fits)"
        px = card_px(choice, m.height_cm, m.card_mm, m.search_width)
        rows.append(f"| {m.what} | {m.area_cm[0]:g} × {m.area_cm[1]:g} cm | "
                    f"{lens.get(m.sensor, m.sensor)} | **{m.height_cm} cm**{within} | "
                    f"{w:.0f} × {h:.0f} cm | {m.search_note} | {px:.0f} px{m.card_note} | "
                    f"{m.floor_px} px |")
    return "\n".join(rows)


def cameras_table(stream: tuple[int, int] = DEFAULT_STREAM, height_cm: int = 68) -> str:
    """Every camera at ``stream``: the mode chosen, crop, field of view, the table covered
    from ``height_cm`` and a 56 mm card's width searched at 1280 px (Markdown)."""
    rows = ["| camera | mode chosen | crop | field of view | covers from "
            f"{height_cm} cm | a card at 1280 |", "|---|---|---|---|---|---|"]
    for s in SENSORS.values():
        c = choose_mode(s, stream)
        w, h = covered_cm(c, height_cm)
        rows.append(f"| {s.name} | {c.mode.size[0]}×{c.mode.size[1]}, {c.mode.bit_depth}-bit |"
                    f" {c.crop:.2f} | {c.fov_deg[0]:.0f}° × {c.fov_deg[1]:.0f}° | "
                    f"{w:.0f} × {h:.0f} cm | {card_px(c, height_cm, 56.0, 1280):.0f} px |")
    return "\n".join(rows)


def plan(s: Sensor, stream: tuple[int, int] = DEFAULT_STREAM, height_cm: float | None = None,
         fps: float = 30.0) -> dict[str, Any]:
    """``tablekeeper vision camera-plan``'s figures (JSON-ready)."""
    c = choose_mode(s, stream, fps)
    share = c.sensor_share
    out: dict[str, Any] = {
        "camera": s.name, "key": s.key, "stream": list(stream),
        "mode": {"size": list(c.mode.size), "bit_depth": c.mode.bit_depth,
                 "crop_of_sensor": list(c.mode.crop), "fps": c.mode.fps,
                 "format": c.mode.format},
        "crop": c.crop,
        "sensor_share": [round(share[0], 4), round(share[1], 4)],
        "fov_deg": [round(c.fov_deg[0], 1), round(c.fov_deg[1], 1)],
        "picamera2_sensor": {"output_size": list(c.mode.size), "bit_depth": c.mode.bit_depth},
    }
    if height_cm is not None:
        w, h = covered_cm(c, height_cm)
        out["height_cm"] = height_cm
        out["covers_cm"] = [round(w, 1), round(h, 1)]
        out["decks"] = [{"deck": d.name, "card_mm": d.card_mm,
                         "px_in_frame": round(card_px(c, height_cm, d.card_mm, stream[0]), 1),
                         "px_at_640": round(card_px(c, height_cm, d.card_mm, 640), 1),
                         "px_at_1280": round(card_px(c, height_cm, d.card_mm, 1280), 1),
                         "floor_px": d.floor_px, "plan_px": d.plan_px}
                        for d in DECK_NEEDS]
    return out


def plan_text(p: Mapping[str, Any]) -> str:
    m = p["mode"]
    x, y, w, h = m["crop_of_sensor"]
    lines = [
        f"camera: {p['camera']}  stream {p['stream'][0]}x{p['stream'][1]}",
        f"mode: {m['size'][0]}x{m['size'][1]} {m['bit_depth']}-bit, {m['fps']:.2f} fps max, "
        f"({x}, {y})/{w}x{h} of the sensor",
        f"crop: {p['crop']:.2f} of the widest view at the stream's aspect (sees "
        f"{p['sensor_share'][0]:.0%} of the sensor's width, {p['sensor_share'][1]:.0%} of its "
        "height)",
        f"field of view: {p['fov_deg'][0]:.1f} x {p['fov_deg'][1]:.1f} degrees",
        f"asks picamera2 for: sensor={{'output_size': ({m['size'][0]}, {m['size'][1]}), "
        f"'bit_depth': {m['bit_depth']}}}",
    ]
    if "decks" in p:
        cw, ch = p["covers_cm"]
        lines.append(f"from {p['height_cm']:g} cm: the frame covers {cw:.0f} x {ch:.0f} cm")
        lines.append("pixels per card (short side): in the frame / searched at 640 / at 1280 "
                     "(floor, plan for)")
        for d in p["decks"]:
            lines.append(f"  {d['deck']:<22} {d['px_in_frame']:>5.0f} / {d['px_at_640']:>4.0f}"
                         f" / {d['px_at_1280']:>4.0f} px  (floor {d['floor_px']}, plan "
                         f"{d['plan_px']})")
    return "\n".join(lines)
