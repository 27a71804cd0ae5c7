"""Suite-wide settings.

Hypothesis's per-example deadline is off: tests assert behaviour, never wall
time, and a loaded CI machine must not turn a slow example into a failure.
"""

from hypothesis import settings

settings.register_profile("kiebitz", deadline=None)
settings.load_profile("kiebitz")
