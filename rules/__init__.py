"""The Kiebitz rules engine: cards, games, scoring and validation.

Pure Python, standard library only: no I/O, no threads, no clock. The same
engine runs on the Pi, on a club server and in the tests.
"""

__version__ = "0.1.0"
