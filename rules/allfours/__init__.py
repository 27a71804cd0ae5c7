"""All Fours (seed 004 §91; the rest from the standard laws): six cards each, a
turned-up trump, begging, High, Low, Jack and Game. :mod:`~rules.allfours.game`
is the event-sourced referee."""
