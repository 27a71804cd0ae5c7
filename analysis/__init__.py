"""Bulk analysis over the rules engine, vectorised with NumPy.

Kept apart from :mod:`rules`, which must stay standard-library only.
"""
