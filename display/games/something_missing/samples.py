"""Sample snapshots of every screen of 什麼不見啦 in each of its states.

Used by the tests, by ``tablekeeper bench display`` and by ``tablekeeper display shots`` (which
renders them all to PNG files for a person to look at; :mod:`display.samples` adds the shared
screens). Times are on a fake clock.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from display.games import GameDisplay
from display.games.something_missing.view import GameView, RingLine, ViewPhase
from display.model import BuzzView, CardView, Notice, PlayerInfo, Snapshot

PLAYERS: tuple[PlayerInfo, ...] = (
    PlayerInfo("小明", "red"),
    PlayerInfo("阿美", "yellow"),
    PlayerInfo("Alice", "blue"),
    PlayerInfo("志明", "green"),
    PlayerInfo("春嬌", "orange"),
)
SEVEN: tuple[PlayerInfo, ...] = (
    *PLAYERS, PlayerInfo("大雄", "brown"), PlayerInfo("Bartholomew", "purple"),
)
T0 = 1_000_000


def card_image(h: int = 300, w: int = 200) -> np.ndarray:
    """A stand-in card picture (RGB array): a framed gradient with a disc."""
    y, x = np.mgrid[0:h, 0:w]
    img = np.zeros((h, w, 3), np.uint8)
    img[..., 0] = 200 - (y * 80 // h)
    img[..., 1] = 170 + (x * 60 // w)
    img[..., 2] = 120
    disc = (y - h // 2) ** 2 + (x - w // 2) ** 2 < (min(h, w) // 3) ** 2
    img[disc] = (200, 40, 40)
    img[:6], img[-6:], img[:, :6], img[:, -6:] = 40, 40, 40, 40
    return img


CARD = CardView("item-17", "腳踏車", "Bicycle", card_image())

BASE = GameView(
    phase=ViewPhase.REVEAL,
    scores=(12, 7, 15, 3, 9),
    round_no=6,
    scene_count=5,
    cards_left=(8, 8, 7, 0, 8),
    history=((0, 0, 5, 0, 0), (5, 0, 5, 0, 4), (5, 3, 10, 0, 4), (9, 3, 10, 1, 6),
             (12, 7, 15, 3, 9)),
    target=35,
)


def snapshots(lang: str, game: GameDisplay) -> list[tuple[str, Snapshot]]:
    """(name, snapshot) for each screen state, in game order; ``game``: the game's display
    part (its package passes it: the samples do not import their package back)."""
    s = Snapshot(state=None, now_ms=T0, lang=lang, players=PLAYERS, game=game)
    out: list[tuple[str, Snapshot]] = []

    def add(name: str, snap: Snapshot) -> None:
        out.append((name, snap))

    view = replace(BASE, phase=ViewPhase.VIEWING, scores=(0,) * 5, cards_left=(14, 13, 13, 13, 13),
                   round_no=1, viewing_pass=1, viewing_passes=5, history=())
    add("viewing-ready", replace(s, state=view))
    add("viewing-running", replace(s, state=replace(view, deadline_ms=T0 + 3200, timer_ms=5000)))
    add("viewing-done", replace(s, state=replace(view, deadline_ms=T0 - 10, timer_ms=5000)))
    rep = replace(BASE, phase=ViewPhase.REPLACE, scene_count=6, actor=3)
    add("replace-choose", replace(s, state=rep))
    add("replace-viewing", replace(s, state=replace(rep, deadline_ms=T0 + 14_000,
                                                    timer_ms=20_000, replaced_scene=2)))
    reveal = replace(BASE, actor=2)
    add("reveal-waiting", replace(s, state=reveal, last_card=CARD))
    reveal = replace(BASE, actor=3, revealer=2, awaiting_buzz=True)
    add("reveal-card", replace(s, state=reveal, last_card=CARD))
    add("reveal-camera-problem", replace(s, state=reveal, last_card=CARD,
                                         camera_status="camera_disconnected",
                                         notices=(Notice("status.button_stuck", seat=1),)))
    add("reveal-by-hand", replace(s, state=reveal, last_card=CardView.unnamed(),
                                  camera_status="vision_error"))
    add("reveal-no-camera", replace(s, state=replace(BASE, actor=2),
                                    camera_status="camera_disconnected"))
    add("reveal-held", replace(s, state=reveal, last_card=CardView.unnamed(), held_card=CARD))
    add("buzz", replace(s, state=reveal, last_card=CARD,
                        buzz=BuzzView(winner=1, at_ms=T0 - 200, margin_us=3200)))
    add("buzz-alone", replace(s, state=reveal, buzz=BuzzView(winner=3, at_ms=T0 - 200)))
    add("buzz-tie", replace(s, state=reveal, buzz=BuzzView(
        winner=4, at_ms=T0 - 200, margin_us=0, tie=True, tied=(4, 0))))
    bet = replace(BASE, phase=ViewPhase.BETTING, hourglass=1, actor=1, bets=((), (), (), (), ()))
    add("betting-must", replace(s, state=bet))
    bet2 = replace(bet, actor=3, bets=((), (1, 4), (), (2,), ()), passed=(0,))
    add("betting-decide", replace(s, state=bet2))
    chk = replace(BASE, phase=ViewPhase.CHECKING, hourglass=1, bets=((), (1, 4, 0), (), (2,), ()),
                  passed=(3,), checking_scene=1, results=(None,) * 5, timer_ms=30_000)
    add("checking-idle", replace(s, state=chk))
    # the camera reads the ring: the hints, and a reading the host must settle
    add("betting-camera", replace(s, state=bet2, table=RingLine(reads=True)))
    add("betting-camera-conflict", replace(s, state=bet2, table=RingLine(
        reads=True, note_zh="春嬌 的代表物未輪到：等 志明 決定",
        note_en="春嬌's token is out of turn: 志明 decides first")))
    add("checking-camera", replace(s, state=chk, table=RingLine(reads=True)))
    add("checking-camera-out-of-order", replace(s, state=chk, table=RingLine(
        reads=True, note_zh="場景 D 翻錯順序：先檢視場景 B",
        note_en="scene D turned out of order: check B now")))
    add("checking-one-bettor", replace(s, state=replace(chk, checking_scene=3)))
    add("checking-running", replace(s, state=replace(chk, deadline_ms=T0 + 21_500)))
    add("checking-low", replace(s, state=replace(chk, deadline_ms=T0 + 4_200)))
    add("checking-expired", replace(s, state=replace(
        chk, checking_scene=3, results=(None, True, None, None, None), deadline_ms=T0 - 1)))
    sc = replace(BASE, phase=ViewPhase.SCORING, scores=(17, 13, 15, 3, 14))
    add("scoring", replace(s, state=sc))
    swp = replace(BASE, phase=ViewPhase.SWAP, actor=3, swap_scenes=(1, 3),
                  bets=((), (1, 4, 0), (), (2,), ()), results=(None, True, None, False, None))
    add("swap", replace(s, state=swp))
    swp3 = replace(swp, swap_scenes=(0, 1, 3), bets=((2,), (1, 4, 0), (), (3,), ()),
                   results=(True, True, None, False, None))
    add("swap-three", replace(s, state=swp3))
    swp6 = replace(swp, swap_scenes=(0, 1, 2, 3, 4), swaps_made=1, bets=((2,), (1, 4, 0), (3,),
                   (), ()), results=(True, True, False, None, True))
    add("swap-five-after-one", replace(s, state=swp6))
    six = replace(swp, scene_count=6, swap_scenes=tuple(range(6)), bets=((2,), (1, 4, 0), (3,),
                  (), (), ()), results=(True, True, False, None, True, None))
    add("swap-six", replace(s, state=six))
    hist = (*BASE.history, (17, 13, 15, 3, 14), (23, 13, 21, 3, 18), (28, 19, 21, 3, 22),
            (35, 19, 27, 5, 22))
    over = replace(BASE, phase=ViewPhase.OVER, scores=hist[-1], history=hist, winners=(0,),
                   end_reason="score", end_count=35)
    add("over", replace(s, state=over))
    add("over-shared", replace(s, state=replace(over, scores=(35, 19, 35, 5, 22), winners=(0, 2),
                                                history=(*hist[:-1], (35, 19, 35, 5, 22)))))
    # the host ended it before anyone scored: seven lines end on one point (the chart's
    # names must not pile up there), and nobody won
    add("over-host-nobody-scored", replace(s, players=SEVEN, state=replace(
        BASE, phase=ViewPhase.OVER, scores=(0,) * 7, history=((0,) * 7,),
        winners=tuple(range(7)), end_reason="host", cards_left=(6,) * 7)))
    seven = replace(BASE, phase=ViewPhase.BETTING, scores=(3, 12, 9, 0, 6, 18, 2), actor=6,
                    hourglass=5, cards_left=(6, 6, 5, 5, 5, 5, 0), scene_count=6,
                    bets=((5, 1, 0, 2, 4, 3), (), (), (), (), ()), passed=())
    add("betting-seven-full", replace(s, players=SEVEN, state=seven))
    add("reveal-seven", replace(s, players=SEVEN, last_card=CARD, state=replace(
        seven, phase=ViewPhase.REVEAL, actor=5, revealer=4, awaiting_buzz=True, bets=())))
    return out
