"""Frog (seed 002, "FROG."): three to five at the table, three active, 36 cards,
the widow, Frog < Chico < Grand, must trump when void, counters per point over or
under 60. :mod:`~rules.frog.game` is the event-sourced referee."""
