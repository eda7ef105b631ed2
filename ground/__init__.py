"""The ground layer: what every package of the box (engine aside) may import, importing
nothing of the box itself. :mod:`ground.files`: the one bounded, non-blocking reader of files."""
