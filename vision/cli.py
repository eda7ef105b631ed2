"""``tablekeeper vision ...``: the vision sub-commands, and ``tablekeeper bench sim``.

``register`` creates the ``vision`` parser and its sub-parser collection, then adds each
group of sub-commands to it (``add_deck_commands`` here: decks and the simulated table).
Heavy imports (cv2, numpy) happen inside the command functions.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

from ground.files import read_text

Subcommands = "argparse._SubParsersAction[argparse.ArgumentParser]"


def register(commands: Any, benches: Any) -> None:
    vision = commands.add_parser("vision", help="camera, decks and card recognition")
    sub = vision.add_subparsers(dest="vision_command", required=True, metavar="COMMAND")
    add_deck_commands(sub)
    b = benches.add_parser("sim", help="simulated table: frames per second of rendering")
    b.add_argument("--frames", type=int, default=60, help="frames per measurement")
    b.add_argument("--seed", type=int, default=0)
    b.set_defaults(func=_bench_sim)
    add_recognition_commands(sub)
    add_camera_plan(sub)
    add_vision_bench(benches)
    px = benches.add_parser(
        "pixels", help="recognition against card size in px: the floor per deck (hardware.md "
                       "section 3's mount heights follow from it)")
    px.add_argument("--deck", action="append", default=None, metavar="NAME",
                    help="only this demo deck (repeatable); default all")
    px.add_argument("--frames", type=int, default=20,
                    help="simulated frames per deck and width (3 cards each; default 20)")
    px.add_argument("--seed", type=int, default=5)
    px.add_argument("--no-real", action="store_true",
                    help="leave out the real photos (set-crops)")
    px.set_defaults(func=_bench_pixels)
    ring = benches.add_parser("ring", help="什麼不見啦's ring: tokens and scenes read by the "
                                           "camera on the simulated table, per colour cast")
    ring.add_argument("--trials", type=int, default=2, help="rings per surface, size and cast")
    ring.add_argument("--seed", type=int, default=1)
    ring.set_defaults(func=_bench_ring)


def _bench_ring(args: argparse.Namespace) -> int:
    from vision.ringbench import run_and_print  # OpenCV and the simulator: only when run

    return run_and_print(args.trials, args.seed)


def add_camera_plan(sub: Any) -> None:
    from vision.sensors import SENSORS

    p = sub.add_parser(
        "camera-plan", help="the sensor mode the box asks a Pi camera for, what it sees, and "
                            "the pixels per card from a height",
        description="The sensor mode the kiosk asks picamera2 for (the one that sees the whole "
                    "field at the stream's aspect), its crop and field of view, and from "
                    "--height-cm the table covered and each deck's pixels per card. Cameras: "
                    + ", ".join(f"{k} ({s.name})" for k, s in SENSORS.items()) + ".")
    p.add_argument("--sensor", required=True, metavar="NAME",
                   help=f"{', '.join(SENSORS)}, or a libcamera model (imx708_wide ...)")
    p.add_argument("--height-cm", type=float, default=None, metavar="H",
                   help="the camera's height above the table (cm)")
    p.add_argument("--size", default=None, metavar="WxH",
                   help="the stream size (default: [camera] size of --config, else 1280x960)")
    p.add_argument("--config", type=Path, default=None, help="read [camera] size and fps here")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=_camera_plan)


def _camera_plan(args: argparse.Namespace) -> int:
    import json

    from vision.camera import CameraConfig
    from vision.sensors import UnknownSensor, plan, plan_text, sensor

    try:
        cam = sensor(args.sensor)
        config = CameraConfig()
        if args.config is not None:
            import tomllib

            from ground.files import read_text

            try:  # (bounded and never blocking, as every config read)
                config = CameraConfig.from_dict(
                    tomllib.loads(read_text(args.config)).get("camera", {}))
            except (OSError, ValueError) as exc:
                raise ValueError(f"{args.config}: {exc}") from exc
        size = config.size
        if args.size:
            w, _, h = args.size.lower().partition("x")
            size = (int(w), int(h))
            if not (16 <= size[0] <= 8192 and 16 <= size[1] <= 8192):
                raise ValueError(f"--size {args.size}: width and height 16-8192 px")
        if args.height_cm is not None and not 5 <= args.height_cm <= 500:
            raise ValueError(f"--height-cm {args.height_cm:g}: 5-500 cm")
    except (UnknownSensor, ValueError, OSError) as exc:
        print(f"tablekeeper vision camera-plan: {exc}", file=sys.stderr)
        return 2
    p = plan(cam, size, args.height_cm, config.fps)
    print(json.dumps(p, ensure_ascii=False) if args.json else plan_text(p))
    return 0


def add_deck_commands(sub: Any) -> None:
    p = sub.add_parser("make-demo-decks",
                       help="write the synthetic demo decks of all four games to a folder")
    p.add_argument("out", type=Path, metavar="OUT", help="folder to write the decks into")
    p.add_argument("--deck", action="append", default=None, metavar="NAME",
                   help="only this demo deck (repeatable); default all")
    p.set_defaults(func=_make_demo_decks)

    p = sub.add_parser("sim-frames",
                       help="render frames of a simulated table to PNG, with truth.json")
    p.add_argument("out", type=Path, metavar="OUT", help="folder for the frames")
    p.add_argument("--deck", default="the-game", metavar="NAME",
                   help="demo deck to deal from (default the-game)")
    p.add_argument("--frames", type=int, default=8, help="how many frames (default 8)")
    p.add_argument("--cards", type=int, default=6, help="cards on the table (default 6)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--surface", choices=("wood", "cloth", "dark", "light"), default=None,
                   help="table surface (default: drawn from the seed)")
    p.add_argument("--cache", type=Path, default=None,
                   help="demo deck cache folder (default ~/.cache/tablekeeper/decks)")
    p.set_defaults(func=_sim_frames)


def _make_demo_decks(args: argparse.Namespace) -> int:
    from vision import demo_decks

    names = args.deck or list(demo_decks.DEMO_DECKS)
    unknown = [n for n in names if n not in demo_decks.DEMO_DECKS]
    if unknown:
        print(f"unknown demo deck(s): {', '.join(unknown)}; known: "
              f"{', '.join(demo_decks.DEMO_DECKS)}", file=sys.stderr)
        return 2
    for name in names:
        deck = demo_decks.write_demo_deck(name, args.out / name)
        print(f"{deck.root}: {deck.title_en} / {deck.title_zh}: {len(deck.cards)} cards "
              f"{deck.size[0]}x{deck.size[1]}")
    return 0


def _sim_frames(args: argparse.Namespace) -> int:
    import json
    import random

    import cv2

    from vision import demo_decks
    from vision.deck import load_deck
    from vision.simtable import ZONES, SimulatedTable

    if args.deck not in demo_decks.DEMO_DECKS:
        print(f"unknown demo deck: {args.deck}; known: {', '.join(demo_decks.DEMO_DECKS)}",
              file=sys.stderr)
        return 2
    if not 1 <= args.frames <= 10_000 or not 0 <= args.cards <= 200:
        print("--frames must be 1-10000 and --cards 0-200", file=sys.stderr)
        return 2
    deck = load_deck(demo_decks.demo_deck(args.deck, args.cache))
    table = SimulatedTable(deck, seed=args.seed, surface=args.surface)
    rng = random.Random(args.seed)
    zones = list(ZONES)
    for _ in range(args.cards):
        table.place(rng.choice(deck.ids), rng.choice(zones))
    args.out.mkdir(parents=True, exist_ok=True)
    truth = []
    for i in range(args.frames):
        if i == args.frames // 2 and args.frames >= 4:
            table.hand_pass(max(2, args.frames // 4))
        frame = table.capture()
        name = f"frame-{i:04d}.png"
        cv2.imwrite(str(args.out / name), frame.image)
        truth.append({"file": name, "t_ns": frame.t_ns, "cards": [
            {"id": t.card_id, "in_deck": t.in_deck, "visible": round(t.visible, 3),
             "covered_by_hand": t.covered_by_hand,
             "corners": [[round(float(x), 2), round(float(y), 2)] for x, y in t.corners]}
            for t in table.truth()]})
    (args.out / "truth.json").write_text(json.dumps(
        {"deck": deck.id, "seed": args.seed, "conditions": repr(table.conditions),
         "frames": truth}, indent=1), encoding="utf-8")
    print(f"{args.out}: {args.frames} frames of {args.cards} {deck.title_en} cards on "
          f"{table.conditions.surface} ({table.conditions.cast} light), truth.json")
    return 0


def _bench_sim(args: argparse.Namespace) -> int:
    import random
    import time

    from vision import demo_decks
    from vision.simtable import SimulatedTable

    if args.frames < 1:
        print("--frames must be at least 1", file=sys.stderr)
        return 2
    t0 = time.perf_counter()
    deck = demo_decks.build_demo_deck("the-game")
    print(f"draw the-game demo deck ({len(deck.cards)} faces): "
          f"{(time.perf_counter() - t0) * 1000:.0f} ms")
    rng = random.Random(args.seed)

    def measure(label: str, setup: Callable[[SimulatedTable], None]) -> None:
        table = SimulatedTable(deck, seed=args.seed)
        setup(table)
        table.capture()  # the first frame builds the cached table
        t = time.perf_counter()
        for _ in range(args.frames):
            table.capture()
        ms = (time.perf_counter() - t) * 1000 / args.frames
        print(f"{label}: {ms:.1f} ms/frame ({1000 / ms:.0f} fps), 640x480")

    def cards(n: int) -> Callable[[SimulatedTable], None]:
        def setup(table: SimulatedTable) -> None:
            for _ in range(n):
                table.place(rng.choice(deck.ids), rng.choice(["centre", "north", "south"]))
        return setup

    def hand(table: SimulatedTable) -> None:
        cards(8)(table)
        table.hand_pass(args.frames + 2)

    def changing(table: SimulatedTable) -> None:
        cards(8)(table)
        real = table.capture

        def capture() -> Any:
            table.place(rng.choice(deck.ids), "centre")  # a card is played every frame
            return real()

        table.capture = capture  # type: ignore[method-assign]

    measure("empty table", cards(0))
    measure("8 cards, static", cards(8))
    measure("8 cards, hand passing", hand)
    measure("a card played every frame", changing)
    return 0


# --------------------------------------------------------------------------- recognition
# recognize, enroll, calibrate and `bench vision` (card finding, matching, enrolment).


def add_recognition_commands(sub: Any) -> None:
    p = sub.add_parser("recognize", help="find and recognise the cards in image files (JSON lines)")
    p.add_argument("--deck", required=True, metavar="DIR",
                   help="the deck folder, or a demo deck's name (the-game, wink, ...)")
    p.add_argument("--config", type=Path, metavar="TOML",
                   help="a config file whose [vision] section sets thresholds and parameters")
    p.add_argument("--explain", action="store_true",
                   help="per card, each gate's value and threshold and the gate that rejected "
                        "it (\"why\"), its best 3 cards (\"candidates\": id, score, best "
                        "first), and a gate histogram per image")
    p.add_argument("images", nargs="+", type=Path, metavar="IMAGE")
    p.set_defaults(func=_recognize)

    p = sub.add_parser("enroll", help="make a deck's templates from photos/scans or the camera")
    p.add_argument("--deck", required=True, type=Path, metavar="DIR", help="the deck folder")
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("--from-images", type=Path, metavar="SRC",
                     help="a folder with one image per card, named <card-id>.<ext>; more "
                          "photos of a card (recognised by the best): <card-id>@2.<ext>, "
                          "<card-id>@3.<ext> ... or a sub-folder <card-id>/ of its photos "
                          "(at most 8 a card)")
    src.add_argument("--camera", metavar="SPEC",
                     help="enrol live: picamera2, opencv:INDEX or folder:PATH")
    src.add_argument("--from-layout", type=Path, metavar="PHOTO",
                     help="one photo of several cards laid in a known order (--layout, --ids)")
    p.add_argument("--layout", metavar="grid:RxC|row:N",
                   help="with --from-layout: how the cards lie (rows x columns, or one row)")
    p.add_argument("--ids", metavar="ID,ID,...",
                   help="with --from-layout: the cards' ids in reading order (row by row "
                        "from the top left; - for a place left out)")
    p.add_argument("--add", action="store_true",
                   help="add images whose id is not in the manifest as new cards")
    p.add_argument("--id", help="new deck: its id (default: the folder's name)")
    p.add_argument("--game", help="new deck: something-missing, the-game, wink or eselsbruecke")
    p.add_argument("--shape", choices=("card", "square"), default="card")
    p.add_argument("--size", default=None, metavar="WxH",
                   help="new deck: template size in px (default 200x300, square 200x200)")
    p.add_argument("--grey", action="store_true",
                   help="new deck: the cards do not differ by colour (match on grey)")
    p.add_argument("--min-sharpness", type=float, default=None,
                   help="live: variance of the Laplacian a shot needs (default from config)")
    p.add_argument("--shots", type=int, default=3,
                   help="live: shots per card, each a template (lift the card and lay it "
                        "again between them; default 3, as the set-up screen takes)")
    p.add_argument("--progress", type=Path, default=None, metavar="DIR",
                   help="live: where the shots are kept as they are taken, so a stopped "
                        "enrolment resumes (default: DIR.progress beside the deck)")
    p.set_defaults(func=_enroll)

    p = sub.add_parser("calibrate", help="define the table's zones from cards laid on them")
    p.add_argument("--deck", required=True, type=Path, metavar="DIR",
                   help="a deck of the cards laid down (for their size)")
    where = p.add_mutually_exclusive_group(required=True)
    where.add_argument("--image", type=Path, help="a camera frame saved to a file")
    where.add_argument("--camera", metavar="SPEC", help="picamera2, opencv:INDEX or folder:PATH")
    p.add_argument("--layout", required=True,
                   help="pile | cards | rows:N | grid:RxC (all cells or the 4 corner cards) "
                        "| ring:N "
                        "(什麼不見啦: N scenes and their memory cards) | area (one zone "
                        "round all the cards laid: Eselsbrücke's tiles, --names centre)")
    p.add_argument("--names", default="", help="comma-separated zone names (pile, cards, rows)")
    p.add_argument("--grow", type=float, default=1.5,
                   help="a zone is the card grown by this factor about its centre (default 1.5)")
    p.add_argument("--out", type=Path, help="also write the [[vision.zones]] TOML to this file")
    p.add_argument("--config", type=Path, default=None,
                   help="the box's config: a frame (--image) must be its [camera] size, and a "
                        "live camera is read at that size (default: the [camera] defaults, "
                        "1280x960)")
    p.add_argument("--save-frame", type=Path, default=None, metavar="FILE",
                   help="with --camera: also save the frame used (for calibrate-markers "
                        "--images, or to calibrate again)")
    p.set_defaults(func=_calibrate)
    add_marker_calibration(sub)


def _vision_config(path: Path | None) -> Any:
    import tomllib

    from vision.config import VisionConfig

    if path is None:
        return VisionConfig()
    try:
        raw = tomllib.loads(read_text(path))
    except OSError as e:
        raise ValueError(f"{path}: cannot read ({e.strerror or e})") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
        raise ValueError(f"{path}: not valid TOML ({e})") from None
    return VisionConfig.from_dict(raw.get("vision", {}))


def _recognize(args: argparse.Namespace) -> int:
    import json

    from vision.deck import DeckError, load_deck
    from vision.demo_decks import deck_folder
    from vision.enroll import EnrolError, read_image
    from vision.explain import explain, gate_of, histogram
    from vision.find import FrameError
    from vision.tracker import CardWatcher, candidates_of

    try:
        deck = load_deck(deck_folder(args.deck))
        config = _vision_config(args.config)
    except (DeckError, ValueError) as e:
        print(f"tablekeeper vision recognize: {e}", file=sys.stderr)
        return 2
    watcher = CardWatcher(deck, config)
    failed = 0
    for path in args.images:
        line: dict[str, Any] = {"image": str(path)}
        try:
            image = read_image(path)
            obs = watcher.observe(image)
        except (EnrolError, FrameError) as e:
            failed += 1
            print(f"tablekeeper vision recognize: {path}: {e}", file=sys.stderr)
            line["error"] = str(e)
        else:
            # (A "region": something is there that is no card found: its box, no id.)
            line["cards"] = [{"id": o.card_id, **({"region": True} if o.match.gate == "region"
                                                  else {}),
                              "score": round(o.match.score, 4),
                              "margin": round(o.match.margin, 4),
                              "corners": [[round(float(x), 1), round(float(y), 1)]
                                          for x, y in o.corners]} for o in obs]
            if getattr(args, "explain", False):
                params = watcher.matcher.params
                for card, o in zip(line["cards"], obs, strict=True):
                    card["candidates"] = [{"id": c, "score": round(float(v), 4)}
                                          for c, v in candidates_of(watcher.matcher, image, o)]
                    card["why"] = explain(o.match, params, straight=o.straight,
                                          corner=None if watcher.corners is None
                                          else watcher.corners.params)
                line["gates"] = histogram(gate_of(o.match) for o in obs)
        print(json.dumps(line, ensure_ascii=False), flush=True)
    return 1 if failed else 0


def camera_from_spec(spec: str) -> Any:
    """A camera source from a spec: picamera2, opencv:INDEX|PATH or folder:PATH."""
    from vision import camera

    kind, _, arg = spec.partition(":")
    if kind == "picamera2":
        return camera.Picamera2Source()
    if kind == "opencv":
        return camera.OpenCVSource(int(arg) if arg.isdigit() else (arg or 0))
    if kind == "folder" and arg:
        return camera.FolderSource(arg)
    raise ValueError(f"camera {spec!r}: use picamera2, opencv:INDEX or folder:PATH")


def _camera_frames(cam: Any) -> Iterator[Any]:
    from vision.camera import CameraError, EndOfFrames

    cam.start()
    try:
        while True:
            try:
                yield cam.capture().image
            except EndOfFrames:
                return
            except CameraError as e:
                print(f"camera: {e}", file=sys.stderr)
                return
    finally:
        cam.close()


def _may_write(folder: Path, tool: str) -> bool:
    """Say (and refuse) when ``folder`` cannot be written by this user, or (a warning) when
    the kiosk could not read it; see :func:`vision.deck.write_problem`."""
    from vision.deck import write_problem

    refusal, warning = write_problem(folder, ["tablekeeper", *sys.argv[1:]])
    if warning:
        print(warning, file=sys.stderr)
    if refusal:
        print(f"tablekeeper vision {tool}: {refusal}", file=sys.stderr)
        return False
    return True


def _enroll(args: argparse.Namespace) -> int:
    from vision.deck import DeckError, load_deck
    from vision.enroll import (
        EnrolProgress,
        LiveEnroller,
        NewDeck,
        deck_id_from_folder,
        enroll_from_images,
    )

    new = None
    if args.game:
        if args.size:
            try:
                w_s, h_s = args.size.lower().split("x")
                size = (int(w_s), int(h_s))
            except ValueError:
                print(f"--size {args.size!r}: expected WxH, e.g. 200x300", file=sys.stderr)
                return 2
        else:
            size = (200, 200) if args.shape == "square" else (200, 300)
        new = NewDeck(id=args.id or deck_id_from_folder(args.deck), game=args.game,
                      shape=args.shape, size=size, use_colour=not args.grey)
    if not _may_write(Path(args.deck), "enroll"):
        return 2
    if getattr(args, "from_layout", None) is not None:
        from vision.enroll import enroll_from_layout
        from vision.layout import LayoutError, parse_layout

        if not args.layout or not args.ids:
            print("tablekeeper vision enroll: --from-layout needs --layout (grid:RxC or "
                  "row:N) and --ids (the cards in reading order)", file=sys.stderr)
            return 2
        try:
            rows, cols = parse_layout(args.layout)
            ids = [x.strip() for x in args.ids.split(",")]
            report = enroll_from_layout(args.deck, args.from_layout, rows, cols, ids,
                                        new=new, add_new=args.add)
        except (LayoutError, DeckError, OSError, ValueError) as e:
            print(f"tablekeeper vision enroll: {e}", file=sys.stderr)
            return 2
        print(report.text())
        return 0 if report.complete else 1
    if args.from_images is not None:
        try:
            report = enroll_from_images(args.deck, args.from_images, new=new, add_new=args.add)
        except (DeckError, OSError) as e:
            print(f"tablekeeper vision enroll: {e}", file=sys.stderr)
            return 2
        print(report.text())
        # 0 only if every card was enrolled (the cards enrolled are saved either way).
        return 0 if report.complete else 1
    try:
        deck = load_deck(args.deck)
        cam = camera_from_spec(args.camera)
    except (DeckError, ValueError) as e:
        print(f"tablekeeper vision enroll: {e}", file=sys.stderr)
        return 2
    config = _vision_config(None)
    sharp = args.min_sharpness if args.min_sharpness is not None else config.min_sharpness

    def show(p: EnrolProgress) -> None:
        print(f"{p.message_zh}  {p.message_en}", flush=True)

    from vision.deck import replace_deck
    from vision.enroll import EnrolStore, with_measured_fit

    # the same enrolment as the set-up screen's "Teach the box the cards" step
    # (tablekeeper.tablesetup.cards): shots kept as taken, the deck written whole at the end
    progress = args.progress or args.deck.with_name(args.deck.name + ".progress")
    store = EnrolStore(progress)
    try:
        enroller = LiveEnroller(list(deck.cards), deck.size, min_sharpness=sharp,
                                progress=show, shots=args.shots, store=store,
                                square=deck.shape == "square", use_colour=deck.use_colour)
    except ValueError as e:
        print(f"tablekeeper vision enroll: {e}", file=sys.stderr)
        return 2
    if enroller.shots:
        print(f"resuming: {len(enroller.taught)} cards taught already (kept in {progress})",
              file=sys.stderr)
    try:
        enroller.run(_camera_frames(cam))
    except KeyboardInterrupt:
        print(f"interrupted: the shots so far are kept in {progress}; run the same command "
              "to go on", file=sys.stderr)
    if enroller.store_error is not None:
        print(f"warning: the shots cannot be kept in {progress}: {enroller.store_error}",
              file=sys.stderr)
    if enroller.done and not enroller.skipped:
        try:
            # (with its foreign-card gate measured, as every enrolment saves a deck)
            replace_deck(with_measured_fit(enroller.deck_with_shots(deck))[0], args.deck)
        except (OSError, DeckError) as e:
            print(f"tablekeeper vision enroll: the deck is not written ({e}); the old one "
                  f"is kept, the shots are in {progress}", file=sys.stderr)
            return 1
        store.clear()
    elif enroller.templates:
        enroller.save(deck)
    print(f"{args.deck}: captured {len(enroller.templates)} of {len(deck.cards)} cards")
    return 0 if enroller.done else 1


def _calibrate(args: argparse.Namespace) -> int:
    from vision.config import zones_in_frame, zones_toml
    from vision.deck import DeckError, atomic_write, load_deck
    from vision.enroll import EnrolError, read_image
    from vision.find import FrameError

    try:
        deck = load_deck(args.deck)
        _table, _vision, camera = _marker_configs(args.config)
        size = tuple(camera.size)
        image: Any = None
        if args.image is not None:
            image = read_image(args.image)
            got = (int(image.shape[1]), int(image.shape[0]))
            if got != size:
                raise ValueError(
                    f"{args.image} is {got[0]}x{got[1]}, but the camera ([camera] size) gives "
                    f"{size[0]}x{size[1]}: zones are frame pixels, so calibrate on a frame "
                    f"as the kiosk sees the table. Take one with the kiosk stopped: "
                    f"tablekeeper vision calibrate --camera picamera2 --config CONFIG "
                    f"--save-frame frame.png ... (a phone photo or rpicam-still's "
                    f"4608x2592 will not do)")
        else:
            cam = camera_from_spec(args.camera)
            if not args.camera.startswith("folder:"):
                cam.configure(size)  # the frames the kiosk reads: [camera] size
            image = next(iter(_camera_frames(cam)), None)
            if image is None:
                raise ValueError("the camera gave no frame")
            if args.save_frame is not None:
                import cv2

                ok, buf = cv2.imencode(args.save_frame.suffix or ".png", image)
                if not ok:
                    raise ValueError(f"{args.save_frame}: cannot encode a frame as "
                                     f"{args.save_frame.suffix!r}")
                atomic_write(args.save_frame, buf.tobytes())
                print(f"frame saved to {args.save_frame}", file=sys.stderr)
        names = [n.strip() for n in args.names.split(",") if n.strip()]
        # the one implementation the set-up screen's "Show the box the table" runs too
        found = zones_in_frame(image, deck.size, args.layout, names, args.grow)
        zones = found.zones
    except (DeckError, EnrolError, FrameError, ValueError, _Refused) as e:
        print(f"tablekeeper vision calibrate: {e}", file=sys.stderr)
        return 2
    text = zones_toml(zones)
    print(text, end="")
    print(f"{len(zones)} zone(s) from {len(found.cards)} card(s): "
          + ", ".join(z.name for z in zones), file=sys.stderr)
    if args.out is not None:
        if not _may_write(Path(args.out).parent, "calibrate"):
            return 2
        atomic_write(args.out, text.encode("utf-8"))
        print(f"written to {args.out}", file=sys.stderr)
    return 0


def _bench_pixels(args: argparse.Namespace) -> int:
    from vision.pixelbench import main

    return main(args.deck, args.frames, args.seed, real=not args.no_real)


def add_vision_bench(benches: Any) -> None:
    p = benches.add_parser("vision", help="card recognition: accuracy, false accepts, speed")
    p.add_argument("--frames", type=int, default=None,
                   help="generated frames in total, shared by the decks (default 1000; "
                        "--quick 100, --styles 200)")
    p.add_argument("--seed", type=int, default=7, help="seed of the held-out frames")
    p.add_argument("--deck", action="append", default=None, metavar="NAME",
                   help="only this demo deck (repeatable); default all five")
    p.add_argument("--threads", type=int, default=1,
                   help="OpenCV threads (default 1, as the app runs vision: the other cores "
                        "draw the screen; 0 = OpenCV's default)")
    p.add_argument("--quick", action="store_true",
                   help="a short run (100 frames unless --frames is given): the accuracy table "
                        "and the camera stream's budget (CPU share at 30 fps, placed -> event)")
    p.add_argument("--styles", action="store_true",
                   help="instead: the card styles of vision.styles (near-twins), tuning seed "
                        "1000 and the held-out --seed")
    p.add_argument("--real", action="store_true",
                   help="instead: real labelled card photos (../shared/data/set-crops or "
                        "$TABLEKEEPER_REAL_SETS; skipped where absent)")
    p.add_argument("--tables", action="store_true",
                   help="instead: real photos of several cards on a table (tomwhite/set-game's "
                        "labelled boards, from a git mirror; skipped where absent), tuning and "
                        "test splits, with the gate histogram")
    p.add_argument("--foreign-numbers", action="store_true",
                   help="instead: decks of numbers, every other card enrolled: how many cards "
                        "not enrolled are accepted (issue 30 item 5; default 120 frames)")
    p.add_argument("--overlap", action="store_true",
                   help="instead: cards half under another on the simulated table, the "
                        "corner-index search off and on (issue 37; default 30 scenes a seed)")
    p.add_argument("--photos", metavar="DIR", default=None,
                   help="instead: the real-photo check on OpenCV's sample photos in DIR "
                        "(Debian opencv-doc: /usr/share/doc/opencv-doc/examples/data)")
    p.set_defaults(func=_bench_vision)


def _bench_vision(args: argparse.Namespace) -> int:
    from vision import bench

    if args.photos:
        return bench.photo_check(args.photos)
    if args.real:
        return bench.real_main()
    if args.tables:
        return bench.tables_main(limit=args.frames)
    if args.overlap:
        from vision.overlapbench import overlap_main

        return overlap_main(n=args.frames or 30, seed=args.seed)
    if args.foreign_numbers:
        return bench.foreign_numbers_main(frames=args.frames or 120, seed=args.seed)
    if args.styles:
        return bench.styles_main(frames=args.frames or 200, seed=args.seed)
    frames = args.frames or (100 if args.quick else 1000)
    return bench.main(frames=frames, seed=args.seed, decks=args.deck, threads=args.threads,
                      quick=args.quick)


# --------------------------------------------------------------------------- markers
# `vision calibrate-markers`: 眨眨眼's marker colours under this table's light.


def add_marker_calibration(sub: Any) -> None:
    """(cv2 is imported by the command, not here: ``tablekeeper --version`` builds the
    parsers on a machine without OpenCV.)"""
    p = sub.add_parser(
        "calibrate-markers",
        help="measure the Wink markers' colours under this table's light (after the grid's "
             "zones)",
        description="Two frames of the 6x6 grid (calibrated before with vision calibrate "
                    "--layout grid:6x6): first the 36 cards face up and no marker; then each "
                    "marker on its cell in the colour order (red on r1c1, yellow on r1c2, "
                    "blue on r1c3, green on r1c4, brown on r1c5, purple on r1c6, black on "
                    "r2c1, white on r2c2) and the card of r6c6 turned face down. The colours "
                    "are written as JSON to [table] markers (default markers.json next to "
                    "the config file).")
    p.add_argument("--config", type=Path, metavar="TOML",
                   help="the box's config: its [[vision.zones]] (the grid), [camera] and "
                        "[table] markers")
    where = p.add_mutually_exclusive_group(required=True)
    where.add_argument("--images", type=Path, nargs=2, metavar=("BEFORE", "AFTER"),
                       help="two camera frames saved to files: the grid alone, then with the "
                            "markers")
    where.add_argument("--camera", metavar="SPEC",
                       help="picamera2, opencv:INDEX or folder:PATH (the host is told what "
                            "to lay, and presses Enter)")
    where.add_argument("--simulate", action="store_true",
                       help="the simulated table of [camera] sim_seed/sim_surface lays the "
                            "grid and the markers itself")
    p.add_argument("--cast", default=None,
                   help="--simulate: the light's colour cast (neutral, warm, cool, green ...)")
    p.add_argument("--colours", default=None,
                   help="the box's markers, in the order they are laid (default all eight: "
                        "red,yellow,blue,green,brown,purple,black,white)")
    p.add_argument("--back", default="r6c6", metavar="CELL",
                   help="the cell whose card is turned face down in the second frame "
                        "(default r6c6; '' for none)")
    p.add_argument("--out", type=Path, metavar="JSON",
                   help="write here instead of the config's [table] markers")
    p.add_argument("--ring", action="store_true",
                   help="什麼不見啦's seven square tokens instead, on the ring's memory cards "
                        "(calibrated before with vision calibrate --layout ring:N): first the "
                        "ring laid, no token; then red, yellow, blue, green, orange, brown in "
                        "the slots of memory card 1 and purple in slot 1 of memory card 2; "
                        "written to tokens.json next to the config")
    p.set_defaults(func=_calibrate_markers)


class _Refused(Exception):
    """The calibration cannot be made: the message says why and what to do."""


def _measured(before: Any, after: Any, zones: Any, placed: dict[str, str],
              back: str | None, size: tuple[int, int], *, tokens: bool) -> Any:
    """:func:`vision.markers.measure_palette` (the set-up screen's too), its refusals said
    for the terminal."""
    from vision.markers import MIN_SEPARATION, ColoursTooClose, MarkerNotFound, measure_palette

    try:
        return measure_palette(before, after, zones, placed, back_zone=back, size=size)
    except MarkerNotFound as exc:
        if tokens:
            raise _Refused(f"not found: {', '.join(exc.missing)} -- is each token in its "
                           "slot, in view and not under a hand? / 找不到代表物") from None
        raise _Refused(f"not found: {', '.join(exc.missing)} -- is each marker on the card "
                       "of its cell, in view and not under a hand, and the second frame "
                       "taken after they were laid? / 找不到指示物") from None
    except ColoursTooClose as exc:
        pairs = "; ".join(f"{a} and {b}: {d:.1f}" for a, b, d in exc.pairs)
        hint = "" if tokens else ", or leave one of them out with --colours"
        raise _Refused(f"too close to tell apart under this light: {pairs} (at least "
                       f"{MIN_SEPARATION:.0f} needed) -- more or whiter light{hint}; nothing "
                       "written / 顏色太接近") from None
    except ValueError as exc:
        raise _Refused(str(exc)) from None


def _calibrate_markers(args: argparse.Namespace) -> int:
    from vision.markers import (
        MARKER_COLOURS,
        grid_zones,
        marker_places,
        markers_path,
        save_markers,
    )

    name = "tablekeeper vision calibrate-markers"
    if getattr(args, "ring", False):
        return _calibrate_tokens(args, name)
    try:
        given = args.colours if args.colours is not None else ",".join(MARKER_COLOURS)
        colours = [c.strip() for c in given.split(",") if c.strip()]
        back = args.back.strip() or None
        try:
            placed = marker_places(colours, back)
        except ValueError as exc:
            raise _Refused(f"--{exc}") from None
        table, vision, camera = _marker_configs(args.config)
        zones = grid_zones(vision.zones)
        out = args.out if args.out is not None else markers_path(
            str(table.get("markers", "")), args.config,
            str(table.get("state_dir", "~/.local/state/tablekeeper")))
        if not _may_write(Path(out).parent, "calibrate-markers"):
            return 2
        layout = ", ".join(f"{c} on {z}" for c, z in placed.items())
        first = ("1/2 Lay the 36 cards face up on the grid, no marker on them / "
                 "將 36 張牌正面朝上排成方格，不放指示物")
        second = (f"2/2 Now lay {layout}"
                  + (f"; turn the card of {back} face down" if back else "")
                  + " / 依顏色順序放上指示物" + ("並將一張牌翻面" if back else ""))
        if args.simulate:
            before, after, zones = _simulated_frames(camera, zones, placed, back, args.cast,
                                                     (first, second))
        elif not zones:
            raise _Refused("no grid calibration yet: lay the grid's cards, save a frame and "
                           "run `tablekeeper vision calibrate --layout grid:6x6`, then put "
                           "its [[vision.zones]] into the config (--config) / 尚未校正方格")
        elif args.images is not None:
            print(first)
            print(second)
            before, after = (_read_frame(path) for path in args.images)
        else:
            before, after = _camera_pair(args.camera, (first, second), tuple(camera.size))
        size = (int(after.shape[1]), int(after.shape[0]))
        palette = _measured(before, after, zones, placed, back, tuple(camera.size),
                            tokens=False)
    except _Refused as exc:
        print(f"{name}: {exc}", file=sys.stderr)
        return 2
    save_markers(out, palette, size, zones)
    _print_palette(palette, placed, out, at="on", what="marker", unit="cell")
    return 0


def _calibrate_tokens(args: argparse.Namespace, name: str) -> int:
    """``calibrate-markers --ring``: the same measurement (:func:`vision.markers.
    measure_palette`) with the memory cards' slots as the cells and 什麼不見啦's seven tokens
    as the colours."""
    from vision.markers import markers_path, save_markers
    from vision.ring import TOKEN_COLOURS, ring_of, ring_slots, token_places

    try:
        given = args.colours if args.colours is not None else ",".join(TOKEN_COLOURS)
        colours = [c.strip() for c in given.split(",") if c.strip()]
        try:
            placed = token_places(colours)
        except ValueError as exc:
            raise _Refused(f"--{exc}") from None
        table, vision, camera = _marker_configs(args.config)
        ring = ring_of(vision.zones)
        out = args.out if args.out is not None else markers_path(
            "tokens.json", args.config, str(table.get("state_dir", "~/.local/state/tablekeeper")))
        first = ("1/2 Lay the ring (scenes face down, memory cards), no token on it / "
                 "排好場景環與回憶卡，不放代表物")
        second = ("2/2 Now lay " + ", ".join(f"{c} in {z}" for c, z in placed.items())
                  + " / 依顏色順序把代表物放進回憶卡的格子")
        if args.simulate:
            before, after, ring = _simulated_ring(camera, ring, placed, args.cast,
                                                  (first, second))
        elif len(ring) < 2:
            raise _Refused("no ring calibration yet: lay the scenes and their memory cards, "
                           "save a frame and run `tablekeeper vision calibrate --layout "
                           "ring:N`, then put its [[vision.zones]] into the config (--config) "
                           "/ 尚未校正場景環")
        elif args.images is not None:
            print(first)
            print(second)
            before, after = (_read_frame(path) for path in args.images)
        else:
            before, after = _camera_pair(args.camera, (first, second), tuple(camera.size))
        size = (int(after.shape[1]), int(after.shape[0]))
        slots = ring_slots(ring)
        palette = _measured(before, after, slots, placed, None, tuple(camera.size),
                            tokens=True)
    except _Refused as exc:
        print(f"{name}: {exc}", file=sys.stderr)
        return 2
    save_markers(out, palette, size, slots)
    _print_palette(palette, placed, out, at="in", what="token", unit="slot")
    return 0


def _print_palette(palette: Any, placed: Mapping[str, str], out: Path, *, at: str, what: str,
                   unit: str) -> None:
    """Each colour measured (Lab, and its nearest other colour), then the total written."""
    from vision.markers import nearest_other

    for colour, zone in placed.items():
        lab = ", ".join(f"{v:.1f}" for v in palette.colours[colour])
        near = nearest_other(palette, colour)
        tail = f"; nearest {near[0]} at {near[1]:.1f}" if near else ""
        print(f"  {colour:<7} {at} {zone}: Lab {lab}{tail}")
    print(f"{len(placed)} {what} colours, {what} size {palette.marker_size:.2f} of a {unit}; "
          f"written to {out}")


def _simulated_ring(camera: Any, ring: Any, placed: dict[str, str], cast: str | None,
                    prompts: tuple[str, str]) -> tuple[Any, Any, Any]:
    from vision.deck import load_deck
    from vision.demo_decks import demo_deck
    from vision.ring import ring_of
    from vision.simmarkers import sim_table
    from vision.simring import SimRing
    from vision.simtable import CASTS

    if cast is not None and cast not in CASTS:
        raise _Refused(f"--cast {cast!r}: one of {', '.join(CASTS)}")
    deck = load_deck(demo_deck("something-missing-items"))
    table = sim_table(deck, camera, cast)
    laid = SimRing.lay(table, max(len(ring), 5), seed=camera.sim_seed)
    if not ring:
        ring = ring_of(laid.zones())
        print("(the config has no ring: the simulated table's own ring)")
    print(prompts[0])
    before = table.capture().image
    print(prompts[1])
    for colour, zone in placed.items():
        pos, _, slot = zone[len("memory"):].partition(".")
        laid.put_token(colour, int(pos) - 1, slot=int(slot))
    return before, table.capture().image, ring


def _marker_configs(path: Path | None) -> tuple[dict[str, Any], Any, Any]:
    """The config's ``[table]`` (raw), ``[vision]`` and ``[camera]`` (parsed)."""
    import tomllib

    from vision.camera import CameraConfig
    from vision.config import VisionConfig

    if path is None:
        return {}, VisionConfig(), CameraConfig.from_dict({})
    try:
        raw = tomllib.loads(read_text(path))
    except FileNotFoundError:
        raise _Refused(f"{path}: no such config file") from None
    except OSError as exc:
        raise _Refused(f"{path}: cannot be read ({exc.strerror or exc})") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise _Refused(f"{path}: not valid TOML ({exc})") from None
    try:
        table = raw.get("table", {})
        if not isinstance(table, dict) or not isinstance(table.get("markers", ""), str):
            raise ValueError("table.markers: expected the path of a .json file")
        vision = VisionConfig.from_dict(raw.get("vision", {}))
        camera = CameraConfig.from_dict(raw.get("camera", {}))
    except ValueError as exc:
        raise _Refused(f"{path}: {exc}") from None
    return table, vision, camera


def _read_frame(path: Path) -> Any:
    from vision.enroll import EnrolError, read_image

    try:
        return read_image(path)
    except EnrolError as exc:
        text = str(exc)
        raise _Refused(text if str(path) in text else f"{path}: {text}") from None


def _wait(prompt: str) -> None:
    print(prompt, flush=True)
    if sys.stdin.isatty():
        input("   Enter when ready / 準備好請按 Enter ")


def _camera_pair(spec: str, prompts: tuple[str, str],
                 size: tuple[int, int]) -> tuple[Any, Any]:
    try:
        cam = camera_from_spec(spec)
        if not spec.startswith("folder:"):
            cam.configure(size)  # the frames the kiosk reads: [camera] size
    except ValueError as exc:
        raise _Refused(str(exc)) from None
    frames = _camera_frames(cam)
    skip = 0 if spec.startswith("folder:") else 4  # a live camera: fresh frames after Enter
    pair = []
    try:
        for prompt in prompts:
            _wait(prompt)
            image = None
            for _ in range(skip + 1):
                image = next(frames, None)
            if image is None:
                raise _Refused(f"the camera {spec} gave no frame")
            pair.append(image)
    finally:
        stop = getattr(frames, "close", None)  # the generator closes the camera
        if stop is not None:
            stop()
    return pair[0], pair[1]


def _simulated_frames(camera: Any, zones: tuple[Any, ...], placed: dict[str, str],
                      back: str | None, cast: str | None,
                      prompts: tuple[str, str]) -> tuple[Any, Any, tuple[Any, ...]]:
    import random

    from vision.deck import load_deck
    from vision.demo_decks import demo_deck
    from vision.markers import GRID_ZONES
    from vision.simmarkers import place_marker, sim_grid_zones, sim_table
    from vision.simtable import CASTS

    if cast is not None and cast not in CASTS:
        raise _Refused(f"--cast {cast!r}: one of {', '.join(CASTS)}")
    deck = load_deck(demo_deck("wink"))
    if not zones:
        zones = sim_grid_zones(deck, camera)
        print("(the config has no grid: the simulated table's own grid)")
    table = sim_table(deck, camera, cast)
    numbers = random.Random(camera.sim_seed).sample(range(1, 37), 36)
    poses = {}
    cards = {}
    for i, zone in enumerate(GRID_ZONES):
        poses[zone] = table.grid_pose(i // 6, i % 6)
        cards[zone] = table.place(f"w{numbers[i]:02d}", poses[zone])
    print(prompts[0])
    before = table.capture().image
    print(prompts[1])
    for colour, zone in placed.items():
        place_marker(table, colour, poses[zone])
    if back is not None:
        table.remove(cards[back])
        table.place_back(poses[back])
    after = table.capture().image
    return before, after, zones
