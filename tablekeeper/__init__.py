"""tablekeeper: the composition root (CLI, config, journal, the main loop).

Dependency direction: ``tablekeeper -> display, firmware, vision -> engine``.
"""

__version__ = "0.1.0"
