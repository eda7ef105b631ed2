"""Pure rules engines, one module per game, plus what they share.

No I/O, no clock, no randomness inside: ``apply(state, event) -> state`` or a rejection.
This package imports nothing from tablekeeper, display, firmware or vision, and no pygame,
cv2, gpiozero or picamera2.

Modules:

- :mod:`engine.core` -- shared vocabulary: ``Rejection(code, reason)``, ``Outcome(reason,
  winners, scores)``, ``Source`` (HOST/BUZZER/CAMERA/CLOCK), the ``Event`` base (``at_ms``,
  ``type_name``, ``source``, ``to_dict``), ``EventRegistry`` (``from_dict``), seat helpers.
- :mod:`engine.something_missing` -- 什麼不見啦. ``Rules`` (static facts, timings, the scoring
  table, ``Interpretations``), ``initial_state(rules)``, ``apply(state, event)``,
  ``legal_actions``, ``next_deadline``, ``next_revealer``, ``is_over``, ``outcome``,
  ``summary``; events ``NewGame``, ``ViewingTimeUp``, ``CardRevealed``,
  ``CardTurnedByHand``, ``BuzzWon``, ``NoBuzz``, ``Bet``, ``Pass``, ``CheckResult``,
  ``CheckTimeUp``, ``SwapScenes``, ``DeclineSwap``, ``ReplaceScene``, ``DeclineReplacement``,
  ``EndGame`` (all in ``EVENTS``).

The app loop: keep a ``State``; for every event from the host buttons, the buzzer arbiter, the
camera or the clock, call ``apply``; on a ``Rejection`` show its reason and keep the old state;
otherwise journal the event (``tablekeeper.journal``) and render the new state. Whenever
``next_deadline(state)`` is not None, send the phase's time-up event (``ViewingTimeUp`` or
``CheckTimeUp``) once the game clock reaches it.
"""
