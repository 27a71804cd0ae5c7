"""A private Mosquitto for the tests that need a real broker (imported by the
suite's conftest and by tests that start a second broker of their own)."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.bus.broker import Mosquitto, find_mosquitto

__all__ = ["start_private_mosquitto"]


def start_private_mosquitto(workdir: Path, extra_config: str = "") -> Mosquitto:
    """A private Mosquitto on a free port; a missing binary FAILS the test, never skips it."""
    if find_mosquitto() is None:
        pytest.fail(
            "mosquitto is not installed: the bus tests need a real broker. "
            "Install it with `apt-get install mosquitto` (or `make system-deps` as root).",
            pytrace=False,
        )
    return Mosquitto(workdir=workdir, extra_config=extra_config).start()
