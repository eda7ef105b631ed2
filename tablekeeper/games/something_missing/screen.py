"""什麼不見啦's part of the kiosk screen: the host's choices in play, and the cards it shows.

The generic :class:`tablekeeper.screen.PygameScreen` handles what every game shares (language,
undo, the setup form, the three-button highlight, the banner, headless PNGs) and asks this part
for the rest.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, cast

from display.games.something_missing.view import RingLine
from display.model import BuzzView, CardView, PlayerInfo
from engine.core import Event
from engine.something_missing import Phase, State
from tablekeeper.games.something_missing import host
from tablekeeper.games.something_missing.table import Table

if TYPE_CHECKING:
    from tablekeeper.app import Loop
    from tablekeeper.screen import PygameScreen


class SomethingMissingScreen:
    """The screen's 什麼不見啦 side (see :class:`tablekeeper.games.ScreenPart`)."""

    def asking(self, screen: PygameScreen, loop: Loop) -> bool:
        """The camera named a card after one was turned by hand: the screen asks which it
        is (the game pauses until the host answers)."""
        return cast(Table, loop.referee.table).held is not None

    def host_action(self, screen: PygameScreen, loop: Loop, name: str, arg: Any,
                    now_ns: int) -> bool:
        referee = loop.referee
        table = cast(Table, referee.table)
        state: State = referee.state
        if name == "by_hand":
            if state.phase is Phase.REVEAL:
                screen.show_result(table.reveal_by_hand(now_ns), now_ns)
                screen.focus = 0
            return True
        if name == "held_new":  # the card the camera saw is the next one
            if table.held is not None:
                screen.show_result(table.take_held(), now_ns)
                screen.focus = 0
            return True
        if name == "held_same":  # ... it is the one turned over by hand
            table.drop_held()
            screen.focus = 0
            return True
        event = host.event_for(state, name, arg, referee.at_ms(now_ns), screen.rng)
        if event is None:
            return False
        screen.show_result(referee.submit(event), now_ns)
        screen.focus = 0
        return True

    def start(self, screen: PygameScreen, loop: Loop, form: Any, now_ns: int,
              rng: random.Random) -> Event:
        """The NewGame of a ready setup form: the box draws the scenes for the table."""
        players = form.players_for(screen.lang)
        return host.new_game([p.name for p in players], [p.colour for p in players],
                             form.variant, start_seat=form.start,
                             at_ms=loop.referee.at_ms(now_ns), rng=rng)

    def moment(self, screen: PygameScreen, loop: Loop) -> tuple[Any, ...]:
        """A message's moment: the round's step and whose turn or decision it is."""
        state: State = loop.referee.state
        return (state.phase, state.round, state.to_act)

    def snapshot_parts(self, screen: PygameScreen, loop: Loop) -> dict[str, Any]:
        referee = loop.referee
        table = cast(Table, referee.table)
        state: State = referee.state
        last_card = None
        if state.top_card is not None:
            last_card = screen.card_view(table.deck_ids.get(state.top_card,
                                                            f"#{state.top_card + 1}"))
        elif state.pile:  # turned over by hand: nobody named it
            last_card = CardView.unnamed()
        buzz = None
        if referee.last_buzz is not None and state.buzz is not None:
            info = referee.last_buzz
            d = info.decision
            buzz = BuzzView(winner=d.winner - 1, at_ms=info.at_ms, margin_us=info.margin_us,
                            tie=d.tie, tied=tuple(s - 1 for s in d.tied))
        held = table.held
        note = table.note
        ring = RingLine(reads=table.ring, note_zh=None if note is None else note.zh,
                        note_en=None if note is None else note.en)
        return {"players": tuple(PlayerInfo(p.name, p.colour) for p in state.players),
                "last_card": last_card, "buzz": buzz,
                "held_card": None if held is None else screen.card_view(held.card_id),
                "table": ring}

    def shot_key(self, state: State, screen_name: str) -> tuple[Any, ...]:
        """A headless PNG per screen, per round, and per card on the reveal screen."""
        return (state.round, len(state.pile) if screen_name == "reveal" else 0)
