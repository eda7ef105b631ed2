"""How many presses of the three host buttons an entry by hand costs (issue 41, item 4).

Each test drives the real screen objects (``PygameScreen``, the game's kit and its screen
part, the renderer's buttons of the frame drawn) with the three host events only: *next* and
*confirm* as the GPIO backend reports them (``gpio_button``), *back* as its short press
(``PygameScreen.back``). A breadth-first search over (the entry's state, the focus) finds the
fewest presses to each target (every card on every row, every cell, every number), ending with
the *confirm* that takes it; the worst over the targets is checked and printed (docs/host-
buttons.md quotes these figures: ``pytest -s tests/app/test_entry_presses.py``).
"""

from __future__ import annotations

import os
import random
from collections import deque
from collections.abc import Callable, Hashable, Iterator
from pathlib import Path
from typing import Any

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from display.input import Button, HostAction, focus_order
from firmware.box import Firmware, build
from firmware.config import FirmwareConfig
from firmware.devices import HostButton
from firmware.mock import mock_factory
from tablekeeper import games
from tablekeeper.app import Loop
from tablekeeper.clock import FakeClock
from tablekeeper.journal import JournaledGame
from tablekeeper.referee import Referee
from tablekeeper.screen import PygameScreen

PRESSES = (HostButton.NEXT, HostButton.CONFIRM, HostButton.BACK)


class Box:
    """One game's kit on the real screen and loop (mock pins, a fake clock)."""

    def __init__(self, folder: Path, game: str) -> None:
        self.clock = FakeClock()
        config = FirmwareConfig.from_dict({"backend": "gpio", "sound": {"kind": "none"}})
        self.firmware: Firmware = build(config, mock_factory(), rng=random.Random(5),
                                        clock=self.clock.now_ns)
        kit = games.load(game)
        referee = Referee(JournaledGame.create(folder / "game.jsonl", game=kit.engine.name),
                          self.firmware, self.clock.now_ns(), kit=kit,
                          **kit.table_options(kit.deck(None)))
        self.screen = PygameScreen(size=(800, 480), rng=random.Random(1))
        self.loop = Loop(referee, self.clock, screen=self.screen)

    @property
    def now(self) -> int:
        return self.clock.now_ns()

    def act(self, name: str, arg: Any = None) -> None:
        self.screen.host_action(self.loop, HostAction(name, arg), self.now)
        self.render()

    def render(self) -> None:
        """Draw a frame (twice: where the screen moves the highlight once a frame is drawn,
        the second shows it)."""
        for _ in range(2):
            self.screen.renderer.invalidate()
            self.screen.render(self.loop, self.now)

    def start(self) -> None:
        self.screen.setup = self.screen.new_form(self.loop)
        self.act("confirm")
        assert self.loop.referee.engine.started(self.loop.referee.state)

    def press(self, button: HostButton) -> None:
        if button is HostButton.BACK:
            self.screen.back(self.loop, self.now)
        else:
            self.screen.gpio_button(self.loop, button, self.now)

    def focused(self) -> Button | None:
        return self.screen.renderer.focused

    def close(self) -> None:
        self.screen.close()
        self.firmware.close()


@pytest.fixture
def box_of(tmp_path: Path) -> Iterator[Callable[[str], Box]]:
    made: list[Box] = []

    def make(game: str) -> Box:
        folder = tmp_path / f"{game}-{len(made)}"
        folder.mkdir()
        made.append(Box(folder, game))
        return made[-1]

    yield make
    for box in made:
        box.close()


def fewest_presses(box: Box, get: Callable[[], Hashable], put: Callable[[Hashable], None],
                   target: Callable[[Hashable, HostAction], Hashable | None],
                   steps: tuple[str, ...], back: Callable[[Hashable], bool],
                   layout: Callable[[Hashable], Hashable] = lambda s: s,
                   limit: int = 40) -> dict[Hashable, int]:
    """Breadth-first over (entry state, focus): for each target, the fewest presses that put
    the focus on the button that takes it, plus the *confirm* that takes it. ``target(state,
    focused action)`` names the target that *confirm* would take there (None: none).
    The search confirms only the entry's own steps (``steps``: never cancel, a play, the
    menu) and presses *back* only where the entry takes it (``back(state)``: else it would
    undo a play of the game)."""
    box.render()
    start = (get(), box.screen.focus)
    seen = {start}
    queue = deque([(start, 0)])
    best: dict[Hashable, int] = {}
    frames: dict[Hashable, list[Button]] = {}

    def show(state: Hashable, focus: int) -> Button | None:
        """The frame of ``state`` drawn (once per layout: its buttons, in their order, are
        the same whatever the digits), the focus put back."""
        put(state)
        box.screen.focus = focus
        key = layout(state)
        if key not in frames:
            box.render()
            frames[key] = list(box.screen.renderer.buttons)
            box.screen.focus = focus  # (as it was: the frame drawn for its buttons only)
        box.screen.renderer.buttons = tuple(frames[key])
        order = focus_order(frames[key])
        return order[focus % len(order)] if order else None

    while queue:
        (state, focus), depth = queue.popleft()
        focused = show(state, focus)
        if focused is not None:
            hit = target(state, focused.action)
            if hit is not None and hit not in best:
                best[hit] = depth + 1
        if depth >= limit:
            continue
        for button in PRESSES:
            show(state, focus)
            if button is HostButton.CONFIRM and (
                    focused is None or focused.action.name not in steps):
                continue  # a target (taking it ends the entry: counted above), or leaving
            if button is HostButton.BACK and not back(state):
                continue
            box.press(button)
            after = (get(), box.screen.focus)
            if after not in seen:
                seen.add(after)
                queue.append((after, depth + 1))
    return best


def report(title: str, best: dict[Hashable, int], targets: int) -> int:
    worst = max(best.values())
    mean = sum(best.values()) / len(best)
    print(f"\n{title}: {len(best)}/{targets} targets, worst {worst} presses, mean {mean:.1f}")
    return worst


#: The Game's pile states the card picker is measured over: each row direction with each top
#: it can have, nothing played but the top (the most cards the row can take then)
def _piles() -> Iterator[tuple[str, int]]:
    for top in range(1, 99):  # an ascending row's top 1 (its row card) .. 98
        yield "up", top
    for top in range(100, 2, -1):  # a descending row's top 100 .. 3
        yield "down", top


def _on_pile(state: Any, direction: str, top: int) -> Any:
    """``state`` with its first row at ``top`` (the row card, or ``top`` just played on it)
    and nothing else played: the row's direction as given."""
    from dataclasses import replace

    from engine.the_game import Direction, Row

    start = 1 if direction == "up" else 100
    row = Row(Direction(direction), start, () if top == start else (top,))
    played = frozenset() if top == start else frozenset({top})
    return replace(state, rows=(row, *state.rows[1:]), played=played)


#: the issue's target for a card once its row is picked, the final *confirm* included
CARD_TARGET = 6


def test_the_game_card_by_hand(box_of: Callable[[str], Box]) -> None:
    """Every card every pile state can take, by the three host buttons on the real screen:
    the fewest presses match the picker's own count (``Line.cost``), which then gives the
    worst and mean over every (pile state, card)."""
    from tablekeeper.games.the_game import host

    box = box_of("the_game")
    box.start()
    box.act("tg.enter")
    part = box.screen.part(box.loop)
    game = box.loop.referee.game
    started = game.state

    def get() -> Hashable:
        entry: Hashable = part.entry
        return entry

    def put(state: Hashable) -> None:
        part.entry = state

    def target(state: Hashable, action: HostAction) -> Hashable | None:
        assert isinstance(state, host.Entry)
        if action.name == "tg.entry.pick" and state.row == 0:
            return action.arg
        return None

    steps = ("tg.entry.row", "tg.entry.open")

    def walk(direction: str, top: int) -> dict[Hashable, int]:
        game.state = _on_pile(started, direction, top)
        part.entry = host.Entry()
        box.screen.focus = 0
        box.render()
        return fewest_presses(box, get, put, target, steps,
                              lambda s: isinstance(s, host.Entry) and s.row is not None)

    # the real screen, from the panel opened (the row picked first: 1 press), on piles
    # spread over the rows' range; the picker's count agrees to the press
    for direction, top in (("up", 1), ("up", 2), ("up", 12), ("up", 23), ("up", 58),
                           ("up", 90), ("up", 98), ("down", 100), ("down", 77),
                           ("down", 35), ("down", 11), ("down", 3)):
        best = walk(direction, top)
        line = host.choices(game.state, 0).line()
        wanted = host.choices(game.state, 0).cards
        assert set(best) == wanted, (direction, top)
        assert best == {c: 1 + _cost(line, c) for c in wanted}, (direction, top)
    # every pile state, by the picker's count
    costs: dict[tuple[str, int, int], int] = {}
    for direction, top in _piles():
        game.state = _on_pile(started, direction, top)
        choices = host.choices(game.state, 0)
        line = choices.line()
        for card in choices.cards:
            costs[(direction, top, card)] = _cost(line, card)
    game.state = started
    worst = report("The Game: a card once its row is picked, every (pile state, card)",
                   {k: v for k, v in costs.items()}, len(costs))
    def away(d: str, top: int, card: int) -> int:  # how far along the row's direction
        return card - top if d == "up" else top - card

    likely = [v for (d, t, c), v in costs.items() if 1 <= away(d, t, c) <= 3]
    near = [v for (d, t, c), v in costs.items() if 1 <= away(d, t, c) <= 10]
    back10 = [v for (d, t, c), v in costs.items() if away(d, t, c) == -10]
    fresh = [v for (d, t, c), v in costs.items() if (d, t) == ("up", 1)]
    print(f"  the three cards next to the top: worst {max(likely)}; the ten next to it: worst "
          f"{max(near)}, mean {sum(near) / len(near):.1f}; the 10-back: worst {max(back10)}; "
          f"a fresh row (98 cards): worst {max(fresh)}, mean {sum(fresh) / len(fresh):.1f}")
    by_count: dict[int, int] = {}
    for direction, top in _piles():
        n = len(host.choices(_on_pile(started, direction, top), 0).cards)
        w = max(v for (d, t, c), v in costs.items() if (d, t) == (direction, top))
        by_count[n] = max(by_count.get(n, 0), w)
    most = max((n for n, w in by_count.items() if w <= CARD_TARGET), default=0)
    print(f"  at most {CARD_TARGET} presses wherever the row can take {most} cards or fewer; "
          f"share of (pile, card) within {CARD_TARGET}: "
          f"{sum(v <= CARD_TARGET for v in costs.values()) / len(costs):.0%}")
    # The target (6 for any card) holds wherever the row can take at most 29 cards; above
    # that it cannot with these three buttons while the likeliest card is one press away (see
    # docs/host-buttons.md: 59 cards at most in 6 presses, 98 would put it at 5 presses).
    # The floor measured: 8 at worst (a fresh row, 98 cards), the likeliest cards 1-3.
    assert worst <= 8
    assert most >= 20
    assert max(likely) <= 3 and max(back10) <= 2
    assert sum(costs.values()) / len(costs) <= 7.0


def _cost(line: Any, card: int) -> int:
    cost = line.cost(card)
    assert cost is not None, card
    return int(cost)


def test_the_game_picker_starts_from_the_table_as_it_is(box_of: Callable[[str], Box]) -> None:
    """Seen in the kiosk: the entry kept its start number after the pile moved. Now its line
    is the table's: after a card is played on the row, the next entry starts above it, and a
    card played elsewhere is not offered."""
    from engine.the_game import CardPlayed
    from tablekeeper.games.the_game import host

    box = box_of("the_game")
    box.start()
    referee = box.loop.referee

    def first_card() -> int | None:
        box.act("tg.enter")
        box.act("tg.entry.row", 0)
        focused = box.focused()
        assert focused is not None and focused.action.name == "tg.entry.pick"
        card = focused.action.arg
        return card if isinstance(card, int) else None

    assert first_card() == 2
    box.press(HostButton.CONFIRM)  # taken: 2 on row 1
    box.render()
    assert referee.state.rows[0].cards == (2,)
    # the panel opens again: it starts from the row's new top
    assert first_card() == 3
    box.act("tg.entry.cancel")
    # a card the camera saw played on another row is not offered
    referee.submit(CardPlayed(at_ms=referee.at_ms(box.now), row=1, card=3))
    assert first_card() == 4
    part = box.screen.part(box.loop)
    assert part.entry is not None and 3 not in host.choices(referee.state, 0).cards
    # a card played while the panel is open: the line on screen follows
    referee.submit(CardPlayed(at_ms=referee.at_ms(box.now), row=0, card=4))
    box.render()
    focused = box.focused()
    assert focused is not None and focused.action == HostAction("tg.entry.pick", 5)


def test_the_game_picker_keeps_the_highlight_when_the_table_moves(
        box_of: Callable[[str], Box]) -> None:
    """Seen in a host's drive: the players played on while the host walked the line, the line
    was laid anew and the highlight jumped back to the likeliest card, so the host confirmed a
    card they had not chosen. The highlight stays on the card it was on."""
    from engine.the_game import CardPlayed

    box = box_of("the_game")
    box.start()
    referee = box.loop.referee
    box.act("tg.enter")
    box.act("tg.entry.row", 0)
    for _ in range(2):
        box.press(HostButton.NEXT)
        box.render()
    focused = box.focused()
    assert focused is not None and focused.action.name == "tg.entry.pick"
    walked_to = focused.action.arg
    assert walked_to != 2  # two presses away from the likeliest
    # a card is played on another row: row 1's line loses it, and is laid anew
    referee.submit(CardPlayed(at_ms=referee.at_ms(box.now), row=1, card=40))
    box.render()
    focused = box.focused()
    assert focused is not None and focused.action == HostAction("tg.entry.pick", walked_to)
    # the card under the highlight played elsewhere: the highlight goes to the likeliest
    assert isinstance(walked_to, int)
    referee.submit(CardPlayed(at_ms=referee.at_ms(box.now), row=2, card=walked_to))
    assert walked_to in referee.state.rows[2].cards
    box.render()
    focused = box.focused()
    assert focused is not None and focused.action == HostAction("tg.entry.pick", 2)


def _wink_placing(box: Box) -> None:
    box.start()
    box.act("grid.in_order")  # the grid laid 1..36 row by row: the first player places
    assert box.loop.referee.state.phase.value == "place"


def test_wink_cell_by_hand(box_of: Callable[[str], Box]) -> None:
    box = box_of("wink")
    _wink_placing(box)
    part = box.screen.part(box.loop)

    def get() -> Hashable:
        row: Hashable = part.place_row
        return row

    def put(state: Hashable) -> None:
        part.place_row = state

    def target(state: Hashable, action: HostAction) -> Hashable | None:
        return action.arg if action.name == "place" else None

    best = fewest_presses(box, get, put, target, ("place.row",), lambda s: s is not None)
    state = box.loop.referee.state
    best = {state.cell_of(*rc): n for rc, n in best.items() if isinstance(rc, tuple)}
    cells = set(box.loop.referee.state.free_cells())
    assert len(best) == len(cells) == 36
    worst = report("Wink: a free cell of the grid (placing a marker)", best, len(cells))
    assert worst <= 12


def test_wink_grid_number_by_hand(box_of: Callable[[str], Box]) -> None:
    box = box_of("wink")
    box.start()
    box.act("grid.open")
    part = box.screen.part(box.loop)

    def get() -> Hashable:
        row: Hashable = part.pad_row
        return row

    def put(state: Hashable) -> None:
        part.pad_row = state

    def target(state: Hashable, action: HostAction) -> Hashable | None:
        return action.arg if action.name == "grid.pick" else None

    best = fewest_presses(box, get, put, target, ("grid.pad_row",), lambda s: s is not None)
    assert set(best) == set(range(1, 37))
    worst = report("Wink: a number of the pad (the grid by hand)", best, 36)
    assert worst <= 12


# --- a name in 注音 -------------------------------------------------------------------------

#: two-character names as Taiwan writes them, and their 注音 (tones as the keyboard types them)
NAMES: tuple[tuple[str, tuple[str, str]], ...] = (
    ("美玲", ("ㄇㄟˇ", "ㄌㄧㄥˊ")),
    ("志明", ("ㄓˋ", "ㄇㄧㄥˊ")),
    ("家豪", ("ㄐㄧㄚˉ", "ㄏㄠˊ")),
    ("雅婷", ("ㄧㄚˇ", "ㄊㄧㄥˊ")),
    ("宗翰", ("ㄗㄨㄥˉ", "ㄏㄢˋ")),
    ("淑芬", ("ㄕㄨˊ", "ㄈㄣˉ")),
    ("怡君", ("ㄧˊ", "ㄐㄩㄣˉ")),
    ("俊傑", ("ㄐㄩㄣˋ", "ㄐㄧㄝˊ")),
    ("佩珊", ("ㄆㄟˋ", "ㄕㄢˉ")),
    ("冠宇", ("ㄍㄨㄢˋ", "ㄩˇ")),
)


#: More given names common in Taiwan, from the Ministry of the Interior's 全國姓名統計分析
#: (national name statistics; its 2014, 2016 and 2018 editions' ten commonest names of men
#: and of women, as ETtoday 2014-10-29, Mirror Media 2018-11-05 and CNA reported them), the
#: names it names as the new generation's (born 2001 on, and 2011 on), and the National
#: Health Insurance's commonest names of 2013's newborn (as the Global Times reported it)
MORE_NAMES: tuple[tuple[str, tuple[str, str]], ...] = (
    ("建宏", ("ㄐㄧㄢˋ", "ㄏㄨㄥˊ")), ("俊宏", ("ㄐㄩㄣˋ", "ㄏㄨㄥˊ")), ("志豪", ("ㄓˋ", "ㄏㄠˊ")),
    ("志偉", ("ㄓˋ", "ㄨㄟˇ")), ("文雄", ("ㄨㄣˊ", "ㄒㄩㄥˊ")), ("承翰", ("ㄔㄥˊ", "ㄏㄢˋ")),
    ("金龍", ("ㄐㄧㄣˉ", "ㄌㄨㄥˊ")), ("志強", ("ㄓˋ", "ㄑㄧㄤˊ")), ("正雄", ("ㄓㄥˋ", "ㄒㄩㄥˊ")),
    ("淑惠", ("ㄕㄨˊ", "ㄏㄨㄟˋ")), ("美惠", ("ㄇㄟˇ", "ㄏㄨㄟˋ")), ("麗華", ("ㄌㄧˋ", "ㄏㄨㄚˊ")),
    ("淑娟", ("ㄕㄨˊ", "ㄐㄩㄢˉ")), ("淑貞", ("ㄕㄨˊ", "ㄓㄣˉ")), ("淑華", ("ㄕㄨˊ", "ㄏㄨㄚˊ")),
    ("秀英", ("ㄒㄧㄡˋ", "ㄧㄥˉ")), ("書豪", ("ㄕㄨˉ", "ㄏㄠˊ")), ("承恩", ("ㄔㄥˊ", "ㄣˉ")),
    ("宥廷", ("ㄧㄡˋ", "ㄊㄧㄥˊ")), ("品睿", ("ㄆㄧㄣˇ", "ㄖㄨㄟˋ")), ("宜蓁", ("ㄧˊ", "ㄓㄣˉ")),
    ("欣妤", ("ㄒㄧㄣˉ", "ㄩˊ")), ("詩涵", ("ㄕˉ", "ㄏㄢˊ")), ("詠晴", ("ㄩㄥˇ", "ㄑㄧㄥˊ")),
    ("子晴", ("ㄗˇ", "ㄑㄧㄥˊ")), ("品妍", ("ㄆㄧㄣˇ", "ㄧㄢˊ")), ("宥翔", ("ㄧㄡˋ", "ㄒㄧㄤˊ")),
    ("宇恩", ("ㄩˇ", "ㄣˉ")), ("宇翔", ("ㄩˇ", "ㄒㄧㄤˊ")), ("語彤", ("ㄩˇ", "ㄊㄨㄥˊ")),
    ("羽彤", ("ㄩˇ", "ㄊㄨㄥˊ")), ("柏宇", ("ㄅㄛˊ", "ㄩˇ")), ("品妤", ("ㄆㄧㄣˇ", "ㄩˊ")),
)


def _char_presses(box: Box, form: Any, char: str, syllable: str) -> tuple[int, Any]:
    """The fewest presses that add ``char`` (spelt ``syllable``) to the name, from the name
    screen as it is (the highlight where the screen put it); and the form after."""

    screen = box.screen
    start = (form, screen.focus)
    name = form.players[form.focus].name
    frames: dict[Any, tuple[Button, ...]] = {}
    seen = {start}
    queue = deque([(start, 0)])

    def frame(form: Any) -> tuple[Button, ...]:
        """The buttons of the name screen drawn for ``form`` (drawn once per form)."""
        if form not in frames:
            screen.setup = form
            box.render()
            frames[form] = screen.renderer.buttons
        return frames[form]

    def show(state: tuple[Any, int]) -> Button | None:
        buttons = frame(state[0])
        screen.setup, screen.focus = state
        screen.renderer.buttons = buttons
        order = focus_order(buttons)
        return order[screen.focus % len(order)] if order else None

    def settle() -> None:
        """Where the screen puts the highlight once the next frame is drawn
        (``PygameScreen.render``: the button it waits for, in that frame)."""
        assert screen.setup is not None
        wanted, screen._focus_on = screen._focus_on, None
        if wanted is not None:
            order = focus_order(frame(screen.setup))
            screen.focus = next((i for i, b in enumerate(order) if b.action == wanted),
                                screen.focus)

    while queue:
        state, depth = queue.popleft()
        focused = show(state)
        if focused is not None and focused.action == HostAction("setup.cand", char):
            screen.gpio_button(box.loop, HostButton.CONFIRM, box.now)
            settle()
            return depth + 1, screen.setup
        for button in PRESSES:
            show(state)
            if button is HostButton.CONFIRM and focused is not None and (
                    focused.action.name not in ("setup.group", "setup.zhuyin", "setup.page",
                                                "setup.next")
                    or (focused.action.name == "setup.zhuyin"
                        and str(focused.action.arg) not in syllable)):
                continue
            box.press(button)
            settle()
            after = screen.setup
            assert after is not None
            if after.focus is None or after.players[after.focus].name != name \
                    or not syllable.startswith(after.syllable):
                continue  # left the screen, or spelt something else: never the fewest
            key = (after, screen.focus)
            if key not in seen and depth < 60:
                seen.add(key)
                queue.append((key, depth + 1))
    raise AssertionError(f"{char} ({syllable}) cannot be typed")


@pytest.mark.skipif("not __import__('display.zhuyin').zhuyin.available()",
                    reason="libchewing is not installed: apt-get install libchewing3")
def test_a_two_character_name_in_zhuyin(box_of: Callable[[str], Box]) -> None:
    box = box_of("something_missing")
    screen = box.screen
    costs: dict[Hashable, int] = {}
    for name, syllables in NAMES + MORE_NAMES:
        screen.setup = None
        box.screen.home = None
        box.act("setup.focus", 0)
        assert screen.setup is not None and screen.setup.focus == 0
        total = 0
        for char, syllable in zip(name, syllables, strict=True):
            n, _ = _char_presses(box, screen.setup, char, syllable)
            total += n
        assert screen.setup.players[0].name == name
        costs[name] = total + 1  # and *confirm* on "done" (the highlight waits there)
    first: dict[Hashable, int] = {k: v for k, v in costs.items() if k in dict(NAMES)}
    print("\n注音 names, presses (each with its done):",
          ", ".join(f"{k} {v}" for k, v in costs.items()))
    worst = report("注音: a two-character name, the ten", first, len(NAMES))
    report(f"注音: a two-character name, all {len(costs)}", costs, len(costs))
    # Names the name list (display/name_chars.txt) was not made from at all: the new
    # generation's, not among the 200 commonest of every age (the measured names are left out
    # of its derivation too, so all are measured held out; these are outside its source).
    outside = {k: v for k, v in costs.items() if str(k) not in _name_list_source()}
    report(f"注音: a two-character name outside the name list's source, {len(outside)}",
           outside, len(outside))
    # The issue asked for 30 at most: not reached (docs/host-buttons.md says what limits it);
    # the ten cost 53 before the keys were grouped, 49 before the keys that cannot follow
    # what is typed were skipped and the rest of a syllable offered commonest first, 43
    # (mean 33.6; all 43: 59, 33.7; the 13 outside: 59, 38.4) before names' characters and
    # syllables came first.
    assert worst <= 37 and sum(first.values()) / len(first) <= 25.5
    assert max(costs.values()) <= 57 and sum(costs.values()) / len(costs) <= 27.5
    assert len(outside) == 13 and sum(outside.values()) / len(outside) <= 36


def _name_list_source() -> frozenset[str]:
    """The 200 names tools/name_chars.py derives the name list from."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "name_chars", Path(__file__).resolve().parents[2] / "tools" / "name_chars.py")
    assert spec is not None and spec.loader is not None
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    return frozenset(tool.MEN) | frozenset(tool.WOMEN)


def test_adding_a_player_and_back_to_start(box_of: Callable[[str], Box]) -> None:
    """Add a player (from the setup screen opened: start has the highlight), name them from
    the regulars, and start: the add is one *next* away, the new seat's name has the
    highlight after it, and once the name is done the highlight is on start again."""
    box = box_of("something_missing")
    screen = box.screen
    screen.roster = ("阿德", "小芳")
    screen.setup = screen.new_form(box.loop)
    box.render()
    players = len(screen.setup.players)

    def focused() -> HostAction | None:
        button = box.focused()
        return button.action if button is not None else None

    presses = 0

    def press(button: HostButton) -> None:
        nonlocal presses
        box.press(button)
        box.render()
        presses += 1

    assert focused() == HostAction("confirm")  # start
    press(HostButton.NEXT)
    assert focused() == HostAction("setup.add")
    press(HostButton.CONFIRM)
    assert screen.setup is not None and len(screen.setup.players) == players + 1
    added = presses
    assert focused() == HostAction("setup.focus", players)  # the new seat's name
    press(HostButton.CONFIRM)  # the name screen, the highlight on "done"
    assert screen.setup.focus == players
    assert focused() == HostAction("setup.done")
    press(HostButton.NEXT)  # the regulars: one choice, right after "done"
    assert focused() == HostAction("setup.group", -1)
    press(HostButton.CONFIRM)
    assert focused() == HostAction("setup.roster", 0)
    press(HostButton.CONFIRM)  # a regular's name: the name is done
    assert screen.setup.focus is None and screen.setup.players[players].name == "阿德"
    assert focused() == HostAction("confirm")  # start: one press away
    print(f"\nsetup: a player added in {added} presses, named from the regulars in "
          f"{presses - added}, then start in 1")
    assert added == 2 and presses - added == 4


def test_after_a_card_by_hand_the_focus_is_on_the_play_screens_first_choice(
        box_of: Callable[[str], Box]) -> None:
    """Seen in the kiosk: after OK the focus kept OK's place, which on the play screen was the
    menu (a reflex confirm opened it). Now it is back on 「手動輸入」."""
    box = box_of("the_game")
    box.start()
    box.act("tg.enter")
    box.press(HostButton.CONFIRM)  # row 1: its likeliest card highlighted
    box.render()
    focused = box.focused()
    assert focused is not None and focused.action == HostAction("tg.entry.pick", 2)
    box.press(HostButton.CONFIRM)
    box.render()
    assert box.loop.referee.state.rows[0].cards == (2,)  # the card the row takes next
    focused = box.focused()
    assert focused is not None and focused.action.name == "tg.enter"
