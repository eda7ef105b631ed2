"""pygame-ce kiosk screens and widgets, fonts and translations.

The display draws snapshots and translates input; it decides nothing about the game.

Public API (what the app codes against)
---------------------------------------

Drawing — :mod:`display.renderer`, :mod:`display.model`::

    from display.renderer import Renderer
    from display.model import Snapshot, PlayerInfo, CardView, BuzzView, Notice

    renderer = Renderer(pygame.display.set_mode((0, 0), pygame.FULLSCREEN), present=True)
    # each tick of the app's loop:
    result = renderer.render(Snapshot(
        state=engine_state,            # the engine's state of the game played, or None before one
        game=game_display,             # that game's display part (display.games.GameDisplay)
        now_ms=clock_ms,               # the app's monotonic clock, same as engine deadlines
        lang="zh-TW",                  # or "en"; flip with display.i18n.next_lang on "lang"
        players=(PlayerInfo("小明", "red"), ...),   # seat order; colours from display.colours
        last_card=CardView(card_id, name_zh, name_en, image),  # image: Surface or RGB ndarray
        buzz=BuzzView(winner, at_ms, margin_us, tie, tied),    # shown for ``buzz_ms`` after at_ms
        camera_status=None,            # e.g. "camera_disconnected" -> the status banner
        notices=(Notice("status.button_stuck", seat=2),),
        setup=setup_form,              # display.setup.SetupForm on the setup screen
    ))
    result.drawn, result.screen        # False while nothing visible changed (idle costs ~0)
    renderer.save_png("frame.png")     # headless runs

``Renderer(surface, *, fonts=None, present=False, fps=30, buzz_ms=2500, score_anim_ms=1200,
delta_hold_ms=2500, score_show_ms=4000, game=None, adapter=None, strict=False)``.
After each scored round (the engine's ``score_history`` grew) the ``scoring`` screen shows the
round's changes for ``score_show_ms``, then the phase's own screen (swap, reveal).
The snapshot's equality ignores ``now_ms`` and images; the renderer redraws when the snapshot
changes, and while a timer runs or scores animate (at most ``fps`` frames a second, positions
computed from ``now_ms``). The static part of each screen is cached as a layer, so a timer
tick only blits it and draws the ring. ``state`` may also be a game's prepared view (tests,
benchmark).

Shared screens (:mod:`display.screens`): ``home`` (``Snapshot.home``, a
:class:`display.home.HomeMenu`: ``home.pick`` (arg: index) / ``confirm``), ``title``, ``setup``,
``buzz``. 什麼不見啦's own (:mod:`display.games.something_missing`): ``viewing`` (5 s passes),
``replace`` (advanced: choose a scene to replace, then 20 s to look at the new one), ``reveal``
(engine REVEAL and BUZZ), ``buzz``, ``betting``, ``checking`` (30 s hourglass), ``scoring``,
``swap``, ``over``; plus the status banner over any of them.
:mod:`display.games.something_missing.view` is the one place that reads the engine's fields.
Buttons' actions per screen: setup ``setup.*``/``confirm``; viewing none; replace ``replace``
(arg: scene position)/``no_replace``; reveal ``next`` (nobody buzzed, only while a card waits
for a buzz); betting ``bet`` (arg: position)/``pass``; checking ``found``/``not_found``; swap
``swap`` (arg: (a, b))/``keep``; over ``confirm`` (new game); every screen ``lang`` and, in a
game, ``undo``.

Input — :mod:`display.input`::

    for event in pygame.event.get():
        match renderer.translate(event):           # this frame's buttons, focus and size
            case SeatInput(seat, pressed): keyboard_backend.feed(seat, pressed)  # keys 1-8
            case HostAction("undo"): ...            # Ctrl+Z or U, from any screen
            case HostAction(name, arg): ...         # confirm/back/next/lang/bet/pass/found/...
            case TextInput(text): form = form.apply(TextInput(text))
    renderer.hit_test(pos) -> HostAction | None    # a touch or click on the last frame

Setup — :class:`display.setup.SetupForm`: a value; ``form.apply(action)`` for ``setup.*``,
``erase`` and text; on ``confirm`` with ``form.ready`` start the game with
``form.players_for(lang)``, ``form.variant`` (``easy``/``standard``/``advanced``), ``form.scenes``.

Sound — :class:`display.sound.Sounds`: ``hourglass_end()``, ``buzz()``; generated tones, silent
(no error) without an audio device.

Fonts — :class:`display.fonts.FontBook`: the system's Noto Sans CJK TC face (found by name in
the .ttc; ``TABLEKEEPER_SYSTEM_FONTS=0`` skips it, as the tests do), else the bundled subset in
``display/fonts/`` (every string of the code, Big5 level 1, Latin-1, common name characters),
else pygame's Latin font with one log line. Translations — :func:`display.i18n.tr` over the
table :data:`display.i18n.STRINGS`.

CLI: ``tablekeeper bench display``, ``tablekeeper display shots DIR``.
"""
