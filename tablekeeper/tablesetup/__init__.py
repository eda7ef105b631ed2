"""Setting a table up from the box itself (issue 28): the set-up area and its steps.

The host reaches the set-up area from the home screen (or the host menu). It lists, per game,
the steps that game needs (:mod:`tablekeeper.tablesetup.area`) and whether each is done; each
step is a controller (:class:`tablekeeper.tablesetup.step.Step`) the screen owns while the step
is shown, fed host actions, seat-button edges and camera frames, and drawn from its ``view()``
by the function :mod:`display.tablesetup` registers for its key. The step protocol is in
:mod:`tablekeeper.tablesetup.step`.
"""
