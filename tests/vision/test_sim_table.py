"""The simulated table: ground truth matches the pixels, piles cover, hands pass, clocks tick."""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np
import pytest

from vision.camera import CameraError, Frame
from vision.deck import Deck
from vision.simtable import SURFACES, Conditions, Pose, SimulatedTable, TruthCard

DemoDecks = Callable[[str], Deck]


@pytest.fixture
def wink(demo_decks: DemoDecks) -> Deck:
    return demo_decks("wink")


def _unwarp(image: np.ndarray, corners: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    w, h = size
    dst = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    m = cv2.getPerspectiveTransform(corners.astype(np.float32), dst)
    return cv2.warpPerspective(image, m, (w, h))


def _zncc(a: np.ndarray, b: np.ndarray) -> float:
    """Normalised correlation of two images' grey levels, ignoring a 6 % margin (corners)."""
    def prep(x: np.ndarray) -> np.ndarray:
        g = cv2.cvtColor(x, cv2.COLOR_BGR2GRAY).astype(np.float64)
        mh, mw = round(g.shape[0] * 0.06), round(g.shape[1] * 0.06)
        g = g[mh:-mh, mw:-mw].ravel()
        centred: np.ndarray = g - float(g.mean())
        return centred / (float(np.linalg.norm(centred)) + 1e-9)
    return float(prep(a) @ prep(b))


def _by_id(truth: list[TruthCard]) -> dict[str, TruthCard]:
    return {t.card_id: t for t in truth}


def test_truth_corners_are_where_the_card_is(wink: Deck) -> None:
    table = SimulatedTable(wink, seed=3, conditions=Conditions.clean("wood"))
    table.place("w17", Pose(320, 240, angle=33, width=120))
    table.place("w05", Pose(130, 120, angle=-70, width=100))
    frame = table.capture()
    for t in table.truth():
        seen = _unwarp(frame.image, t.corners, wink.size)
        own = _zncc(seen, wink.template(t.card_id))
        others = max(_zncc(seen, wink.template(o)) for o in wink.ids if o != t.card_id)
        assert own > 0.9, t.card_id
        assert own > others + 0.1
        assert t.visible == pytest.approx(1.0, abs=0.02)


def test_first_corner_is_the_printed_top_left(wink: Deck) -> None:
    table = SimulatedTable(wink, seed=1, conditions=Conditions.clean())
    table.place("w09", Pose(320, 240, angle=180, width=120))
    (t,) = table.truth()
    c = t.corners
    assert c[0][0] > c[2][0] and c[0][1] > c[2][1]  # upside down: TL is at the bottom right
    seen = _unwarp(table.capture().image, c, wink.size)
    assert _zncc(seen, wink.template("w09")) > 0.9
    assert _zncc(seen, np.ascontiguousarray(wink.template("w09")[::-1, ::-1])) < 0.6
    # corners go clockwise on screen (y down): positive shoelace sum
    x, y = c[:, 0], c[:, 1]
    assert float(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1))) > 0


def test_recognisable_under_random_conditions(wink: Deck) -> None:
    for seed, surface in enumerate(SURFACES):
        table = SimulatedTable(wink, seed=seed, surface=surface)
        table.place("w28", "centre")
        frame = table.capture()
        (t,) = table.truth()
        assert _zncc(_unwarp(frame.image, t.corners, wink.size), wink.template("w28")) > 0.75


def test_pile_covers_the_card_underneath(wink: Deck) -> None:
    table = SimulatedTable(wink, seed=2, conditions=Conditions.clean())
    table.place("w01", Pose(320, 240, angle=10, width=120))
    table.place("w02", Pose(320, 240, angle=10, width=120))
    frame = table.capture()
    truth = _by_id(table.truth())
    assert truth["w01"].visible < 0.01
    assert truth["w02"].visible > 0.98
    assert [t.card_id for t in table.truth(min_visible=0.05)] == ["w02"]
    seen = _unwarp(frame.image, truth["w02"].corners, wink.size)
    assert _zncc(seen, wink.template("w02")) > 0.9
    assert _zncc(seen, wink.template("w01")) < 0.75


def test_partly_covered_and_partly_outside(wink: Deck) -> None:
    table = SimulatedTable(wink, seed=2, conditions=Conditions.clean())
    table.place("w03", Pose(300, 240, angle=0, width=120))
    table.place("w04", Pose(360, 240, angle=0, width=120))  # covers half of w03
    table.place("w05", Pose(640, 240, angle=0, width=120))  # half outside the frame
    truth = _by_id(table.truth())
    assert truth["w03"].visible == pytest.approx(0.5, abs=0.05)
    assert truth["w04"].visible == pytest.approx(1.0, abs=0.02)
    assert truth["w05"].visible == pytest.approx(0.5, abs=0.05)


def test_centre_pile_by_zone(wink: Deck) -> None:
    table = SimulatedTable(wink, seed=5)
    for cid in ("w10", "w11", "w12", "w13"):
        table.place(cid, "centre")
    table.capture()
    truth = table.truth()
    assert [t.card_id for t in truth] == ["w10", "w11", "w12", "w13"]
    assert truth[-1].visible > 0.98
    assert all(t.visible < 0.9 for t in truth[:-1])


def test_hand_pass(wink: Deck) -> None:
    table = SimulatedTable(wink, seed=4, conditions=Conditions.clean("cloth"))
    table.place("w20", "centre")
    empty = table.capture().image.astype(int)
    table.hand_pass(frames=5, target="centre", side="south")
    assert table.hand_active
    changed = []
    covered = []
    for _ in range(5):
        img = table.capture().image.astype(int)
        changed.append(int((np.abs(img - empty).sum(axis=2) > 60).sum()))
        covered.append(table.truth()[0].covered_by_hand)
    assert not table.hand_active
    assert all(n > 500 for n in changed)
    assert changed[2] == max(changed)  # reaches furthest in the middle of the pass
    assert covered[2] and table.truth()[0].visible < 1.0
    after = table.capture().image.astype(int)
    assert int((np.abs(after - empty).sum(axis=2) > 60).sum()) == 0
    assert table.truth()[0].visible > 0.98 and not table.truth()[0].covered_by_hand


def test_foreign_card(wink: Deck, demo_decks: DemoDecks) -> None:
    table = SimulatedTable(wink, seed=6, conditions=Conditions.clean())
    h = table.place_foreign(Pose(320, 240, angle=90, width=120))
    other = demo_decks("something-missing-scenes")
    table.place_foreign(Pose(120, 120, angle=0, width=100), image=other.template("s03"),
                        label="scene-s03")
    frame = table.capture()
    truth = table.truth()
    assert (truth[0].handle, truth[0].in_deck) == (h, False)
    assert truth[1].card_id == "scene-s03" and not truth[1].in_deck
    for t in truth:
        seen = _unwarp(frame.image, t.corners, wink.size)
        assert max(_zncc(seen, wink.template(c)) for c in wink.ids) < 0.8
    assert _zncc(_unwarp(frame.image, truth[1].corners, other.size), other.template("s03")) > 0.9


def test_remove_and_clear(wink: Deck) -> None:
    table = SimulatedTable(wink, seed=0)
    a = table.place("w01", "north")
    table.place("w02", "south")
    table.place("w01", "east")
    table.remove("w01")  # the topmost w01
    assert [t.handle for t in table.truth()] == [a, 2]
    table.remove(a)
    assert [t.card_id for t in table.truth()] == ["w02"]
    with pytest.raises(KeyError, match="no card 'w01' on the table"):
        table.remove("w01")
    table.clear()
    assert table.truth() == []


def test_bad_script_input(wink: Deck) -> None:
    table = SimulatedTable(wink, seed=0)
    with pytest.raises(KeyError, match="no card 'x99'"):
        table.place("x99")
    with pytest.raises(ValueError, match="unknown zone 'middle'"):
        table.place("w01", "middle")
    with pytest.raises(ValueError, match="side 'up' is not one of"):
        table.hand_pass(3, side="up")
    with pytest.raises(ValueError, match="at least one frame"):
        table.hand_pass(0)
    with pytest.raises(ValueError, match="surface 'glass'"):
        SimulatedTable(wink, surface="glass")
    with pytest.raises(ValueError, match="cast 'blue'"):
        Conditions(cast="blue")
    with pytest.raises(ValueError, match="BGR uint8"):
        table.place_foreign(image=np.zeros((30, 20), np.uint8))


def test_camera_interface_and_injected_clock(wink: Deck) -> None:
    ticks = iter([1_000, 5_000, 9_000])
    table = SimulatedTable(wink, seed=0, clock=lambda: next(ticks))
    table.configure(size=(320, 240))
    table.start()
    frames = [table.capture() for _ in range(3)]
    assert [f.seq for f in frames] == [0, 1, 2]
    assert [f.t_ns for f in frames] == [1_000, 5_000, 9_000]
    assert frames[0].image.shape == (240, 320, 3) and frames[0].image.dtype == np.uint8
    assert frames[0].grey is not None and frames[0].grey.shape == (240, 320)
    table.close()
    with pytest.raises(CameraError, match="closed"):
        table.capture()
    default = SimulatedTable(wink, seed=0)
    assert [default.capture().t_ns for _ in range(3)] == [0, 33_333_333, 66_666_666]


def test_deterministic_per_seed(wink: Deck) -> None:
    def frames(seed: int) -> list[np.ndarray]:
        table = SimulatedTable(wink, seed=seed)
        table.place("w07", "centre")
        table.place("w08", "west")
        table.hand_pass(2)
        return [table.capture().image for _ in range(3)]

    a, b, c = frames(11), frames(11), frames(12)
    assert all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))
    assert not np.array_equal(a[0], c[0])
    assert not np.array_equal(a[2][:, :, 0], frames(11)[1][:, :, 0])  # sensor noise per frame


def test_surfaces_differ(wink: Deck) -> None:
    means = {}
    for s in SURFACES:
        img = SimulatedTable(wink, seed=0, conditions=Conditions.clean(s)).capture().image
        means[s] = float(img.mean())
        assert img.std() > 1.0  # textured, not flat
    assert means["dark"] < means["cloth"] < means["light"]
    assert means["dark"] < means["wood"] < means["light"]


def test_configure_resizes_and_keeps_cards(wink: Deck) -> None:
    table = SimulatedTable(wink, seed=0)
    table.place("w01", Pose(100, 100, 0, 80))
    table.configure(size=(800, 600))
    frame = table.capture()
    assert frame.image.shape == (600, 800, 3)
    assert table.truth()[0].visible > 0.98


def test_lores_grey_like_the_pi(wink: Deck) -> None:
    table = SimulatedTable(wink, seed=0, lores=(320, 240))
    frame = table.capture()
    assert frame.image.shape == (480, 640, 3)
    assert frame.grey is not None and frame.grey.shape == (240, 320)


def test_face_down_cards_are_not_deck_cards(wink: Deck) -> None:
    table = SimulatedTable(wink, seed=8, conditions=Conditions.clean())
    table.place_back(Pose(200, 240, angle=20, width=120))
    table.place_back(Pose(450, 240, angle=-5, width=120), style=1)
    frame = table.capture()
    backs = table.truth()
    assert [(t.card_id, t.in_deck) for t in backs] == [("back", False), ("back", False)]
    seen = [_unwarp(frame.image, t.corners, wink.size) for t in backs]
    blue_minus_red = [float(x[..., 0].mean() - x[..., 2].mean()) for x in seen]
    assert blue_minus_red[0] > 30 > -30 > blue_minus_red[1]  # style 0 blue, style 1 red
    for s in seen:
        assert max(_zncc(s, wink.template(c)) for c in wink.ids) < 0.6
    table.remove("back")
    assert len(table.truth()) == 1


def test_glare_brightens_cards_not_the_table(wink: Deck) -> None:
    def frame(glare: float) -> np.ndarray:
        c = Conditions(surface="dark", glare=glare, glare_at=(0.5, 0.5))
        table = SimulatedTable(wink, seed=0, conditions=c)
        table.place("w33", Pose(320, 240, angle=0, width=150))
        return table.capture().image.astype(int)

    plain, glared = frame(0.0), frame(0.6)
    card = (slice(200, 280), slice(280, 360))
    assert glared[card].mean() > plain[card].mean() + 15
    assert np.array_equal(glared[:, :150], plain[:, :150])  # the dark table does not shine
    with pytest.raises(ValueError, match="glare"):
        Conditions(glare=1.5)


def test_cached_picture_follows_the_layout(wink: Deck) -> None:
    """Cards laid on top are added to the cached picture; removals redraw it. Either way the
    frame is the one a fresh table with the same cards renders."""
    poses = [Pose(200 + 60 * i, 240, angle=15 * i, width=110) for i in range(4)]

    def fresh(n: int) -> np.ndarray:
        table = SimulatedTable(wink, seed=1, conditions=Conditions.clean("wood"))
        for i in range(n):
            table.place(f"w{i + 1:02d}", poses[i])
        return table.capture().image

    table = SimulatedTable(wink, seed=1, conditions=Conditions.clean("wood"))
    for i in range(3):
        table.place(f"w{i + 1:02d}", poses[i])
    table.capture()
    table.place("w04", poses[3])
    assert np.array_equal(table.capture().image, fresh(4))
    table.remove("w04")
    assert np.array_equal(table.capture().image, fresh(3))


def test_grid_of_cards(wink: Deck) -> None:
    table = SimulatedTable(wink, seed=4)
    for i, cid in enumerate(wink.ids):
        table.place(cid, table.grid_pose(i // 6, i % 6))
    truth = table.truth()
    assert len(truth) == 36 and all(t.visible > 0.97 for t in truth)  # no overlaps, in frame
    centres = np.array([t.corners.mean(axis=0) for t in truth]).reshape(6, 6, 2)
    assert (np.diff(centres[:, :, 0], axis=1) > 0).all()  # columns left to right
    assert (np.diff(centres[:, :, 1], axis=0) > 0).all()  # rows top to bottom
    with pytest.raises(ValueError, match=r"cell \(6, 0\) is outside a 6x6 grid"):
        table.grid_pose(6, 0)


def test_cards_in_front_of_seats_face_their_players(wink: Deck) -> None:
    table = SimulatedTable(wink, seed=2)
    for seat in range(4):
        table.place(wink.ids[seat], table.seat_pose(seat, 4))
    truth = table.truth()
    assert all(t.visible > 0.97 for t in truth)
    bottom, left, top, right = (t.corners for t in truth)  # seat 0 bottom, then clockwise
    assert bottom.mean(axis=0)[1] > 300 and top.mean(axis=0)[1] < 180
    assert left.mean(axis=0)[0] < 200 and right.mean(axis=0)[0] > 440
    # the printed top-left corner: near the table's middle for the player at the bottom...
    assert bottom[0][1] < bottom[2][1]
    # ... and upside down (seen from the camera) for the player opposite
    assert top[0][1] > top[2][1]
    with pytest.raises(ValueError, match="seat 4 is not one of 0-3"):
        table.seat_pose(4, 4)


def test_hand_is_smeared_while_moving_and_sharp_at_the_turn(wink: Deck) -> None:
    table = SimulatedTable(wink, seed=4, conditions=Conditions.clean("cloth"))
    table.hand_pass(frames=5, target="centre", side="south")
    kernels = []
    for _ in range(5):
        assert table._hand is not None
        kernels.append(table._hand_motion_kernel(table._hand))
        table.capture()
    assert kernels[2] is None  # the hand stops and turns back: no motion blur
    for k in (kernels[0], kernels[4]):
        assert k is not None and k.shape[0] >= 3 and abs(float(k.sum()) - 1) < 1e-5
    assert kernels[1] is not None and kernels[0] is not None
    assert kernels[1].shape[0] < kernels[0].shape[0]  # slower on the way in


def _busy_table(wink: Deck) -> SimulatedTable:
    """Blur, noise, flicker, glare and a hand crossing band edges; no JPEG (it would amplify a
    grey level of difference into a block of them)."""
    c = Conditions(surface="wood", blur_sigma=1.1, noise_sigma=4.0, flicker=0.02, glare=0.4,
                   gradient=0.3, vignette=0.2, cast="warm")
    table = SimulatedTable(wink, seed=9, conditions=c)
    for i, zone in enumerate(("centre", "north", "south-west")):
        table.place(wink.ids[i], zone)
    table.hand_pass(frames=3, target="centre", side="west")
    return table


def test_frame_rendered_in_bands_is_the_whole_frame_rendered_at_once(
        wink: Deck, monkeypatch: pytest.MonkeyPatch) -> None:
    """Rows are rendered a band at a time; blur, noise and the hand must not show the seams."""
    import vision.simtable as simtable

    banded = [f.image for f in _frames(_busy_table(wink), 4)]  # a hand in 3, then none
    monkeypatch.setattr(simtable, "BAND_ROWS", 10_000)
    whole = [f.image for f in _frames(_busy_table(wink), 4)]
    for a, b in zip(banded, whole, strict=True):
        assert a.shape == b.shape == (480, 640, 3) and a.dtype == b.dtype == np.uint8
        assert int(np.abs(a.astype(int) - b.astype(int)).max()) <= 1


def _frames(table: SimulatedTable, n: int) -> list[Frame]:
    return [table.capture() for _ in range(n)]


def test_no_frame_sized_float32_pictures_are_kept(wink: Deck) -> None:
    """Memory: the table keeps its pictures in float16, its noise in int8 and card layers'
    colour in uint8; a frame-sized float32 BGR array costs 3.7 MB at 640x480 and several of
    them were most of the demo's peak memory."""
    table = _busy_table(wink)
    for _ in range(4):
        table.capture()
    frame_px = 480 * 640 * 3
    kept = [(name, v) for name, v in vars(table).items() if isinstance(v, np.ndarray)]
    kept += [(f"_noise[{i}]", v) for i, v in enumerate(table._noise)]
    small = (np.float16, np.int8, np.uint8)
    big = [(name, v.dtype) for name, v in kept if v.size >= frame_px and v.dtype not in small]
    assert kept and not big
    layers = [ly for ly in table._layers.values() if ly is not None]
    assert layers and all(ly.colour.dtype == np.uint8 for ly in layers)


def test_a_tilted_camera_sees_the_far_cards_smaller_and_foreshortened(wink: Deck) -> None:
    """``Conditions.tilt``: a camera leaning back from straight down (issue 37 item 3)."""
    from vision.simtable import tilt_view

    straight = tilt_view(640, 480, 0.0)
    assert np.allclose(straight, [[0, 0], [640, 0], [640, 480], [0, 480]], atol=1e-3)
    q = tilt_view(640, 480, 35.0)
    assert np.allclose(q[2:], [[640, 480], [0, 480]], atol=1e-3)  # the near edge as it was
    assert 0.55 < (q[1, 0] - q[0, 0]) / 640 < 0.75  # the far edge narrower
    with pytest.raises(ValueError, match="tilt"):
        Conditions(tilt=80.0)
    sides = {}
    for tilt in (0.0, 35.0):
        table = SimulatedTable(wink, seed=2, conditions=Conditions(tilt=tilt))
        far = table.place("w05", Pose(320, 90, angle=0, width=80))
        near = table.place("w06", Pose(320, 390, angle=0, width=80))
        table.capture()
        got = {t.handle: t.corners for t in table.truth()}
        w_far = float(np.linalg.norm(got[far][1] - got[far][0]))
        h_far = float(np.linalg.norm(got[far][3] - got[far][0]))
        w_near = float(np.linalg.norm(got[near][1] - got[near][0]))
        sides[tilt] = (w_far, h_far / w_far, w_near)
    assert sides[35.0][0] < 0.8 * sides[0.0][0]  # far: smaller ...
    assert sides[35.0][1] < 0.85 * sides[0.0][1]  # ... and foreshortened
    assert sides[35.0][2] > 0.8 * sides[0.0][2]  # near: about as it was
