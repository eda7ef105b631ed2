"""Sample snapshots of every screen of 驢橋 in each of its states.

Used by the tests and by ``tablekeeper display shots`` (which renders them all to PNG files for
a person to look at). Times are on a fake clock.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from display.games import GameDisplay
from display.games.eselsbruecke.view import (
    GameView,
    PenaltyView,
    RecallView,
    SeatView,
    StoryView,
    TileView,
    ViewPhase,
)
from display.model import PlayerInfo, Snapshot

PLAYERS: tuple[PlayerInfo, ...] = (
    PlayerInfo("小明", "red"),
    PlayerInfo("阿美", "yellow"),
    PlayerInfo("Alice", "blue"),
    PlayerInfo("志明", "green"),
)
SIX: tuple[PlayerInfo, ...] = (
    *PLAYERS, PlayerInfo("春嬌", "orange"), PlayerInfo("Bartholomew", "purple"),
)
T0 = 1_000_000

WORDS: tuple[tuple[str, str], ...] = (
    ("貓", "cat"), ("雨傘", "umbrella"), ("火車", "train"), ("月亮", "moon"),
    ("腳踏車", "bicycle"), ("蘋果", "apple"), ("城堡", "castle"), ("鋼琴", "piano"),
    ("燈塔", "lighthouse"), ("眼鏡", "glasses"), ("鯨魚", "whale"), ("雪人", "snowman"),
    ("蛋糕", "cake"), ("火箭", "rocket"), ("帽子", "hat"), ("大象", "elephant"),
    ("鑰匙", "key"), ("吉他", "guitar"), ("風箏", "kite"), ("時鐘", "clock"),
    ("企鵝", "penguin"), ("橋", "bridge"), ("星星", "star"), ("書", "book"),
    ("船", "ship"), ("花", "flower"), ("麵包", "bread"), ("樹", "tree"),
    ("老虎", "tiger"), ("杯子", "cup"), ("太陽", "sun"), ("熊", "bear"),
    ("雲", "cloud"), ("魚", "fish"), ("鞋子", "shoe"), ("蝸牛", "snail"),
    ("長頸鹿", "giraffe"), ("椅子", "chair"), ("山", "mountain"), ("飛機", "aeroplane"),
    ("鉛筆", "pencil"), ("獅子", "lion"), ("香蕉", "banana"), ("電話", "telephone"),
    ("燈泡", "light bulb"), ("烏龜", "turtle"), ("西瓜", "watermelon"), ("猴子", "monkey"),
    ("房子", "house"), ("螃蟹", "crab"),
)


def tile_image(index: int, size: int = 200) -> np.ndarray:
    """A stand-in tile picture (RGB array): a pale square, a frame and a coloured disc."""
    y, x = np.mgrid[0:size, 0:size]
    img = np.full((size, size, 3), (246, 240, 226), np.uint8)
    hue = [(200, 60, 60), (60, 140, 200), (70, 170, 90), (220, 160, 40), (150, 80, 190)]
    disc = (y - size * 0.42) ** 2 + (x - size / 2) ** 2 < (size * 0.28) ** 2
    img[disc] = hue[index % len(hue)]
    img[:5], img[-5:], img[:, :5], img[:, -5:] = 90, 90, 90, 90
    return img


def tile(i: int) -> TileView:
    zh, en = WORDS[i % len(WORDS)]
    return TileView(f"k{i + 1:03d}", zh, en, tile_image(i))


def _recap(n: int, draws: tuple[int, ...] = (3, 3, 4, 5)) -> tuple[StoryView, ...]:
    out, k = [], 0
    for slot, d in enumerate(draws):
        for seat in range(n):
            out.append(StoryView(seat, slot, tuple(tile(k + j) for j in range(d))))
            k += d
    return tuple(out)


SEATS = (SeatView(pile=4, stops=1, stories=2), SeatView(pile=6, stories=2),
         SeatView(pile=3, stories=2), SeatView(pile=5, stops=1, stories=1))
BASE = GameView(phase=ViewPhase.STORY, scores=(4, 6, 3, 5), round_no=2, rounds=6,
                teller=3, start_seat=0, to_draw=3, story_slot=1, seats=SEATS,
                history=((1, 1, 1, 1),))


def snapshots(lang: str, game: GameDisplay) -> list[tuple[str, Snapshot]]:
    """(name, snapshot) for each screen state, in game order; ``game``: the game's display
    part (its package passes it: the samples do not import their package back)."""
    s = Snapshot(state=None, now_ms=T0, lang=lang, players=PLAYERS, game=game)
    out: list[tuple[str, Snapshot]] = []

    def add(name: str, snap: Snapshot) -> None:
        out.append((f"eb-{name}", snap))

    first = replace(BASE, round_no=1, scores=(1, 1, 1, 1), teller=0, story_slot=0,
                    seats=tuple(SeatView() for _ in range(4)), history=())
    add("story-empty", replace(s, state=first))
    add("story-two", replace(s, state=replace(first, laid=(tile(0), tile(1)))))
    add("story-told", replace(s, state=replace(first, laid=(tile(0), tile(1), tile(2)))))
    five = replace(BASE, round_no=4, to_draw=5, story_slot=3,
                   laid=(tile(3), tile(4), TileView("?", "?", "?"), tile(6), tile(7)))
    add("story-five-by-hand", replace(s, state=five))
    add("story-no-pictures", replace(s, state=replace(
        five, laid=tuple(replace(t, image=None) for t in five.laid[:4]))))
    recall = replace(BASE, round_no=3, phase=ViewPhase.DEAL, teller=1, recall_slot=0,
                     recall_round=1, recall_tiles=3, to_draw=0)
    add("deal", replace(s, state=recall))
    guess_seats = (SeatView(pile=4, stops=1, held=1), SeatView(pile=6, stories=2),
                   SeatView(pile=3, held=1, out=True), SeatView(pile=5, stops=1, held=0,
                                                                face_up=1))
    guess = replace(recall, phase=ViewPhase.GUESS, actor=0, named=1, seats=guess_seats,
                    deadline_ms=T0 + 11_000)
    add("guess-running", replace(s, state=guess))
    add("guess-low", replace(s, state=replace(guess, deadline_ms=T0 + 3_500)))
    add("guess-timeup", replace(s, state=replace(guess, deadline_ms=T0 - 10)))
    add("guess-answered", replace(s, state=replace(guess, answered=True, deadline_ms=None)))
    six_seats = (SeatView(pile=9, stops=2), SeatView(pile=7, held=1),
                 SeatView(pile=3, out=True), SeatView(pile=5, held=1, face_up=2),
                 SeatView(pile=6, listening=True), SeatView(pile=8, stops=1, held=1))
    six = replace(guess, scores=tuple(x.pile for x in six_seats), seats=six_seats, actor=3,
                  teller=0, recall_slot=2, recall_round=3, recall_tiles=4, named=2, round_no=5,
                  deadline_ms=T0 + 8_000)
    add("guess-six", replace(s, players=SIX, state=six))
    pen = RecallView(teller=1, slot=0, round_no=3, failed=(2, 3),
                     penalties=(PenaltyView(2, 1, 1, False, 0),
                                PenaltyView(3, 1, 0, True, 0)),
                     named=2, tiles=3)
    after = replace(BASE, round_no=3, teller=2, to_draw=4, story_slot=2,
                    scores=(5, 6, 2, 5), history=((4, 6, 3, 5), (5, 6, 2, 5)),
                    last_recall=pen, penalties=True)
    add("penalties", replace(s, state=after))
    stop = RecallView(teller=2, slot=1, round_no=4, stop_tile=True, named=3, tiles=3)
    add("penalties-stop-tile", replace(s, state=replace(
        after, last_recall=stop, history=((5, 6, 2, 5), (6, 7, 3, 6)), scores=(6, 7, 3, 6))))
    rnd = replace(BASE, phase=ViewPhase.ROUND_OVER, round_no=2, teller=None, to_draw=0)
    add("round-end", replace(s, state=rnd))
    end_seats = (SeatView(pile=14, stops=2, stories=4), SeatView(pile=14, stops=1, stories=4),
                 SeatView(pile=9, stories=4), SeatView(pile=11, stops=1, stories=4))
    over = replace(BASE, phase=ViewPhase.OVER, round_no=6, teller=None, to_draw=0,
                   scores=tuple(x.pile for x in end_seats), seats=end_seats, winners=(0,),
                   end_reason="last_round", recap=_recap(4))
    add("end", replace(s, state=over))
    shared_seats = (SeatView(pile=12, stops=1, stories=4), SeatView(pile=12, stops=1,
                                                                     stories=4),
                    SeatView(pile=9, stories=4), SeatView(pile=11, stories=4))
    add("end-shared", replace(s, state=replace(
        over, seats=shared_seats, scores=tuple(x.pile for x in shared_seats), winners=(0, 1))))
    six_end = tuple(SeatView(pile=10 - i, stops=i % 2, stories=4) for i in range(6))
    add("end-six", replace(s, players=SIX, state=replace(
        over, seats=six_end, scores=tuple(x.pile for x in six_end), winners=(0,),
        recap=_recap(6, (3, 3, 4, 4)))))
    return out
