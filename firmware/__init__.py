"""GPIO: seat buttons, seat lamps, host buttons, sounds, and the fair first-press arbiter."""
