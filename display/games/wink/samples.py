"""Sample snapshots of every screen of 眨眨眼 in each of its states (for the tests and
``tablekeeper display shots``), built from real engine states."""

from __future__ import annotations

import random
from dataclasses import replace

from display.games import GameDisplay
from display.games.wink.view import TableView, WinkView, game_view
from display.model import BuzzView, PlayerInfo, Snapshot
from engine import wink
from engine.core import Rejection

T0 = 1_000_000
NAMES = ("小明", "阿美", "Alice", "志明", "春嬌", "大雄", "大衛", "靜香")


def _players(n: int) -> tuple[PlayerInfo, ...]:
    return tuple(PlayerInfo(NAMES[i], c) for i, c in enumerate(tuple(wink.COLOURS)[:n]))


def _ok(result: wink.State | Rejection) -> wink.State:
    assert not isinstance(result, Rejection), result
    return result


def states(n: int = 5, seed: int = 3) -> dict[str, wink.State]:
    """A game played a while: layout, place, name, accusation, over."""
    rng = random.Random(seed)
    info = _players(n)
    s = _ok(wink.apply(wink.initial_state(), wink.NewGame(
        at_ms=0, names=tuple(p.name for p in info), colours=tuple(p.colour for p in info))))
    out = {"layout": s}
    grid = tuple(rng.sample(range(1, 37), 36))
    s = _ok(wink.apply(s, wink.GridSeen(at_ms=1, numbers=grid)))
    t = 2
    # every player places once; some naming, one card turned down, one taken
    for _ in range(n):
        free = s.free_cells()
        r, c = s.row_col(rng.choice(free))
        s = _ok(wink.apply(s, wink.MarkerPlacedByHand(at_ms=t, seat=s.active or 0, row=r,
                                                      col=c)))
        t += 1
    out["name"] = s
    s = _ok(wink.apply(s, wink.PartnerNamed(at_ms=t, seat=(s.active or 0) + 1, right=False)))
    out["place"] = s
    s = _ok(wink.apply(s, wink.AccusationWon(at_ms=t + 1, seat=2, margin_us=50)))
    out["accusation"] = s
    out["accusation_by_hand"] = _ok(wink.apply(out["place"], wink.AccusationByHand(
        at_ms=t + 1, seat=1)))
    accused, number = wink.accusation_targets(s, 2)[-1]
    s = _ok(wink.apply(s, wink.AccusationEntered(at_ms=t + 2, accused=accused, number=number,
                                                 right=True)))
    out["after_accusation"] = s
    out["over"] = _ok(wink.apply(s, wink.EndGame(at_ms=t + 3)))
    return out


def _entry_samples(base: Snapshot, st: dict[str, wink.State]) -> list[tuple[str, Snapshot]]:
    """LAYOUT: the camera partly read, the grid by hand (half and all entered); PLACE: the
    camera's warnings on their cells; an accusation entered by hand."""
    layout = game_view(st["layout"])
    place = game_view(st["place"])
    by_hand = game_view(st["accusation_by_hand"])
    assert layout is not None and place is not None and by_hand is not None
    numbers = [c.number for c in place.cells]
    half: tuple[int | None, ...] = tuple(numbers[:17]) + (None,) * 19
    marked = [i for i, c in enumerate(place.cells) if c.marker is not None]
    free = list(place.free_cells)
    return [
        ("wink5-layout-camera", replace(base, state=layout, table=TableView(camera_cells=20))),
        ("wink5-layout-camera-down", replace(base, state=layout,
                                             camera_status="camera_disconnected")),
        ("wink5-grid-entry", replace(base, state=layout, table=TableView(
            grid_entry=half, grid_cursor=17, camera_cells=20))),
        ("wink5-grid-entry-full", replace(base, state=layout, table=TableView(
            grid_entry=tuple(numbers), grid_cursor=35))),
        ("wink5-warnings", replace(base, state=replace(place, mismatches=1), table=TableView(
            problems=((free[0], "unknown_marker"), (marked[0], "missing_marker"))))),
        ("wink5-accusation-by-hand", replace(base, state=by_hand)),
    ]


def snapshots(lang: str, game: GameDisplay) -> list[tuple[str, Snapshot]]:
    """(name, snapshot) for each screen state, in game order; ``game``: the game's display
    part (its package passes it: the samples do not import their package back)."""
    out: list[tuple[str, Snapshot]] = []
    for n in (5, 8, 3):
        st = states(n)
        base = Snapshot(state=None, now_ms=T0, lang=lang, players=_players(n), game=game)

        def view(key: str, st: dict[str, wink.State] = st) -> WinkView:
            v = game_view(st[key])
            assert v is not None
            return v

        tag = f"wink{n}-"
        if n == 5:
            out.append((tag + "layout", replace(base, state=view("layout"))))
        out.append((tag + "place", replace(base, state=view("place"))))
        out.append((tag + "name", replace(base, state=view("name"))))
        out.append((tag + "race", replace(base, state=view("accusation"), buzz=BuzzView(
            winner=2, at_ms=T0 - 200, margin_us=50))))
        out.append((tag + "accusation", replace(base, state=view("accusation"))))
        acc = view("accusation")
        number, _seeker, seats = acc.targets[-1]
        out.append((tag + "accusation-number", replace(base, state=acc, table=TableView(
            pick_number=number))))
        out.append((tag + "accusation-picked", replace(base, state=acc, table=TableView(
            pick_number=number, pick_seat=seats[-1]))))
        out.append((tag + "accuse-by-hand", replace(base, state=view("place"),
                                                    table=TableView(accusing=True))))
        if n == 5:
            out.extend(_entry_samples(base, st))
        if n == 8:
            name = view("name")
            marked = [i for i, c in enumerate(name.cells) if c.marker is not None]
            free = [i for i, c in enumerate(name.cells) if c.marker is None and c.face == "up"]
            out.append((tag + "name-warnings", replace(base, state=replace(name, mismatches=1),
                                                       table=TableView(problems=(
                (free[0], "unknown_marker"), (marked[0], "missing_marker"),
                (marked[1], "missing_marker"))))))
        out.append((tag + "after-accusation", replace(base, state=view("after_accusation"))))
        out.append((tag + "end", replace(base, state=view("over"))))
    v = view("over")
    mism = replace(v, phase="place", cells=tuple(
        replace(c, mismatch=i in (3, 17)) for i, c in enumerate(v.cells)), mismatches=2,
        winners=(), end_reason="", decided_by="")
    out.append(("wink3-mismatch", replace(base, state=mism)))
    return out
