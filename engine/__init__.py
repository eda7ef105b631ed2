"""Pure rules engines, one module per game, plus what they share.

No I/O, no clock, no randomness inside: ``apply(state, event) -> state`` or a rejection.
This package imports nothing from tablekeeper, display, firmware or vision, and no pygame,
cv2, gpiozero or picamera2.

Modules:

- :mod:`engine.core` -- the seam every game is seen through and its shared vocabulary:
  ``Engine`` (name, player range, events, rules to and from JSON, ``initial_state``,
  ``apply``, ``legal_actions``, ``outcome``, ``deadline`` -> ``Deadline(at_ms, time-up
  event)``, ``summary``), ``Reducer`` (the checks every ``apply`` shares), ``Rejection(code,
  reason)``, ``Outcome(reason, winners, scores)``, ``Source`` (HOST/BUZZER/CAMERA/CLOCK), the
  ``Event`` base and ``EventRegistry`` (versioned JSON), ``rules_to_dict``/``rules_from_dict``,
  seat helpers.
- :mod:`engine.something_missing` -- 什麼不見啦 (3-7 players, the buzzer game).
- :mod:`engine.the_game` -- 致命遊戲 The Game (1-5, cooperative, four rows).
- :mod:`engine.wink` -- 眨眨眼 Wink (3-8, the 6x6 grid, accusations).
- :mod:`engine.eselsbruecke` -- 驢橋 Eselsbrücke (3-6 seats, stories and recall).

Each module ends with ``ENGINE``; its docstring says the game in a paragraph and lists its
events. The app keeps a state; for every event from the host buttons, the buzzer arbiter, the
camera or the clock it calls ``ENGINE.apply``; on a ``Rejection`` it shows the reason and keeps
the old state; otherwise it journals the event and renders the new state. Whenever
``ENGINE.deadline(state)`` is not None, it sends that deadline's event once the game clock
reaches it.
"""
