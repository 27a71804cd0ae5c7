"""Suite-wide settings.

Hypothesis's per-example deadline is off: tests assert behaviour, never wall
time, and a loaded CI machine must not turn a slow example into a failure.
"""

import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from broker_helpers import start_private_mosquitto
from hypothesis import settings

from controller.bus.broker import Mosquitto

settings.register_profile("kiebitz", deadline=None)
settings.load_profile("kiebitz")


# --------------------------------------------------------------------------- the bus


@pytest.fixture
def mosquitto(tmp_path: Path) -> Iterator[Mosquitto]:
    """A private Mosquitto (never the system one on 1883) for one test."""
    broker = start_private_mosquitto(tmp_path / "mosquitto")
    try:
        yield broker
    finally:
        broker.stop()


@pytest.fixture
def wait_until() -> Callable[..., None]:
    """``wait_until(condition, what)``: poll until true; fail naming ``what`` after 15 s.

    The limit only stops a hung test: nothing asserts how fast anything was.
    """

    def wait(condition: Callable[[], object], what: str, timeout: float = 15.0) -> None:
        deadline = time.monotonic() + timeout
        while not condition():
            if time.monotonic() > deadline:
                pytest.fail(f"timed out waiting for {what}")
            time.sleep(0.01)

    return wait


# --------------------------------------------------------------------------- PostgreSQL


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[object]:
    """A private PostgreSQL server for the session (one a worker)."""
    from postgres_helpers import Postgres

    server = Postgres()
    try:
        yield server
    finally:
        server.close()


@pytest.fixture
def postgres_url(postgres_server) -> str:  # type: ignore[no-untyped-def]
    """A fresh database on the private server, as a ``postgresql://`` URL."""
    return postgres_server.database()  # type: ignore[no-any-return]


# --------------------------------------------------------------------------- GPIO


@pytest.fixture
def factory() -> Iterator[object]:
    """gpiozero's mock pin factory (with PWM pins), also as gpiozero's default while
    the test runs; closed and restored afterwards."""
    from gpiozero import Device

    from controller.gpio.factory import make_pin_factory

    saved = Device.pin_factory
    mock = make_pin_factory("mock")
    Device.pin_factory = mock
    try:
        yield mock
    finally:
        mock.close()
        mock.reset()
        Device.pin_factory = saved
