"""Pure rules engines, one module per game, plus what they share.

No I/O, no clock, no randomness inside: ``apply(state, event) -> state`` or a rejection.
This package imports nothing from tablekeeper, display, firmware or vision, and no pygame,
cv2, gpiozero or picamera2.
"""
