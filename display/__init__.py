"""pygame-ce kiosk screens and widgets, fonts and translations."""
