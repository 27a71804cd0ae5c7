"""`kiebitz demo`: a whole game of cribbage between two automatic players."""

from __future__ import annotations

import sys
from typing import TextIO


def run(*, seed: int = 2026, game_to: int = 121, variant: str = "six-card",
        out: TextIO = sys.stdout) -> int:
    raise NotImplementedError("the demo game arrives with the cribbage game engine")
