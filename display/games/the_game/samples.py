"""Sample snapshots of every screen of 致命遊戲 The Game in each of its states (the tests,
``tablekeeper display shots``)."""

from __future__ import annotations

from dataclasses import replace

from display.games import GameDisplay
from display.games.the_game.picker import line_of
from display.games.the_game.view import GameView, PickView, PlayView, RowView, TableView
from display.model import PlayerInfo, Snapshot

PLAYERS: tuple[PlayerInfo, ...] = (
    PlayerInfo("小明", "red"),
    PlayerInfo("阿美", "yellow"),
    PlayerInfo("Alice", "blue"),
    PlayerInfo("志明", "green"),
    PlayerInfo("Bartholomew", "orange"),
)
T0 = 1_000_000


def _plays(seq: tuple[tuple[int, int], ...], backward: frozenset[int] = frozenset(),
           house: frozenset[int] = frozenset()) -> tuple[PlayView, ...]:
    return tuple(PlayView(row, card, 1 + k // 2, k in backward, k in house)
                 for k, (row, card) in enumerate(seq))


SEQ: tuple[tuple[int, int], ...] = (
    (0, 4), (2, 97), (1, 12), (3, 91), (0, 9), (2, 88), (1, 19), (3, 81), (0, 15), (2, 78),
    (1, 9), (3, 74), (0, 23), (2, 70), (1, 26), (3, 64), (0, 31), (2, 66), (1, 33), (3, 57),
    (0, 38), (2, 59), (1, 45),
)
BACK = frozenset({10, 17})


def _rows(seq: tuple[tuple[int, int], ...]) -> tuple[RowView, ...]:
    cards: list[list[int]] = [[], [], [], []]
    for row, card in seq:
        cards[row].append(card)
    return tuple(RowView("up" if i < 2 else "down", 1 if i < 2 else 100, tuple(c))
                 for i, c in enumerate(cards))


BASE = GameView(
    phase="play", rows=_rows(SEQ), hand_counts=(6, 6, 4, 6, 6), to_act=2, turn=12,
    played_this_turn=1, min_to_play=2, draw_count=42, cards_left=70,
    plays=_plays(SEQ, BACK), names=PLAYERS,
)


def _picks(view: GameView, row: int, opened: int | None = None) -> tuple[PickView, ...]:
    """The by-hand entry's line for ``row`` of ``view`` (every card on the rows played; the
    ``opened``-th choice opened), as the kit lays it (``tablekeeper.games.the_game.host``)."""
    played = {c for r in view.rows for c in r.cards}
    pile = view.rows[row]
    pool = [c for c in range(2, 100) if c not in played]
    ahead = sorted((c for c in pool if (c > pile.top if pile.up else c < pile.top)),
                   reverse=not pile.up)
    back = pile.top - 10 if pile.up else pile.top + 10
    line = line_of(ahead, likely=2, backward=back if back in pool else None)
    if opened is not None:
        pick = line.picks[opened]
        line = line_of(pick.cards, dense=pick.dense)
    return tuple(PickView(p.cards[0], p.cards[-1], len(p.cards), p.backward, i == line.focus)
                 for i, p in enumerate(line.picks))


def snapshots(lang: str, game: GameDisplay) -> list[tuple[str, Snapshot]]:
    """(name, snapshot) for each screen state, in game order; ``game``: the game's display
    part (its package passes it: the samples do not import their package back)."""
    s = Snapshot(state=None, now_ms=T0, lang=lang, players=PLAYERS, game=game)
    out: list[tuple[str, Snapshot]] = []

    def add(name: str, snap: Snapshot) -> None:
        out.append((name, snap))

    start = GameView(phase="play", rows=_rows(()), hand_counts=(6,) * 5, to_act=0, turn=1,
                     draw_count=68, cards_left=98, names=PLAYERS)
    add("play-start", replace(s, state=start))
    add("play-mid", replace(s, state=BASE))
    met = replace(BASE, played_this_turn=3, hand_counts=(6, 6, 3, 6, 6))
    add("play-minimum-met", replace(s, state=met))
    add("play-refused", replace(s, state=BASE, table=TableView(
        refused_row=1, refused_card=37, refused_label="↑45", refused_code="illegal_play")))
    add("play-refused-not-in-hand", replace(s, state=BASE, table=TableView(
        refused_row=3, refused_card=60, refused_label="↓57", refused_code="not_in_hand")))
    add("play-said-below-minimum", replace(s, state=BASE, table=TableView(
        said_seat=2, said_code="below_minimum", said_reason="1 of the 2 cards")))
    add("play-claim", replace(s, state=replace(BASE, played_this_turn=0),
                              table=TableView(claim_seat=2)))
    add("play-entry-rows", replace(s, state=BASE, table=TableView(entry_open=True)))
    add("play-entry", replace(s, state=BASE, table=TableView(
        entry_open=True, entry_row=2, entry_picks=_picks(BASE, 2))))
    add("play-entry-range", replace(s, state=BASE, table=TableView(
        entry_open=True, entry_row=2, entry_picks=_picks(BASE, 2, opened=0), entry_depth=1)))
    fresh = GameView(phase="play", rows=_rows(()), hand_counts=(6,) * 5, to_act=0, turn=1,
                     draw_count=68, cards_left=98, names=PLAYERS)
    add("play-entry-fresh-row", replace(s, state=fresh, table=TableView(
        entry_open=True, entry_row=0, entry_picks=_picks(fresh, 0), entry_digits="5")))
    add("play-camera-down", replace(s, state=BASE, camera_status="camera_disconnected"))
    empty = replace(BASE, draw_count=0, min_to_play=1, cards_left=11,
                    hand_counts=(2, 0, 4, 3, 2), to_act=3, variant="expert")
    add("play-pile-empty-expert", replace(s, state=empty))
    solo = GameView(phase="play", rows=_rows(SEQ[:5]), hand_counts=(8,), to_act=0, turn=3,
                    played_this_turn=1, draw_count=85, cards_left=90,
                    names=PLAYERS[:1], plays=_plays(SEQ[:5]))
    add("play-solo", replace(s, players=PLAYERS[:1], state=solo))
    over = replace(BASE, phase="over", to_act=None, verdict="loss", end_reason="cannot_play",
                   plays=_plays(SEQ, BACK, frozenset({20})))
    add("end-loss", replace(s, state=over))
    win = replace(over, verdict="win", cards_left=7, draw_count=0, hand_counts=(2, 0, 3, 1, 1))
    add("end-win", replace(s, state=win))
    sup = replace(over, verdict="super_win", end_reason="all_played", cards_left=0,
                  draw_count=0, hand_counts=(0,) * 5, suggest_expert=True)
    add("end-super", replace(s, state=sup))
    host = replace(over, verdict="not_judged", end_reason="host_ended")
    add("end-host", replace(s, state=host))
    # stopped by the host after three plays: the rows' ends bunch at the chart's edges
    early = replace(host, rows=_rows(SEQ[:3]), plays=_plays(SEQ[:3]), turn=2, cards_left=95,
                    draw_count=65, hand_counts=(6, 6, 6, 6, 6))
    add("end-host-early", replace(s, state=early))
    stopped = replace(early, rows=_rows(()), plays=(), turn=1, cards_left=98, draw_count=68)
    add("end-host-nothing-played", replace(s, state=stopped))
    return out
