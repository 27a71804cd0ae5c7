"""Skat: the International Skat Order and the Laws of Skat of 1906 (seeds 000, 002).

:mod:`~rules.skat.rulesets` holds the options, :mod:`~rules.skat.declaration` the
games, :mod:`~rules.skat.values` what they are worth, :mod:`~rules.skat.bidding`
the auction, :mod:`~rules.skat.game` the event-sourced deal with its verdicts and
:mod:`~rules.skat.iss` the International Skat Server's game records.
"""
