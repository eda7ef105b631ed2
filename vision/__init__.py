"""Camera sources, card finding, template matching, decks and enrolment."""
