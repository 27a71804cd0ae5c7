"""The private Mosquitto: config, port, errors that say how to fix them."""

import socket
from pathlib import Path

import pytest

from controller.bus.broker import BrokerError, Mosquitto, find_mosquitto, free_port


def test_private_broker_on_its_own_port(mosquitto: Mosquitto) -> None:
    assert mosquitto.running and mosquitto.port != 1883
    assert mosquitto.url == f"mqtt://127.0.0.1:{mosquitto.port}"
    config = mosquitto.config_path.read_text()
    assert f"listener {mosquitto.port} 127.0.0.1" in config
    assert "allow_anonymous true" in config and "persistence false" in config
    socket.create_connection(("127.0.0.1", mosquitto.port), timeout=5).close()
    mosquitto.stop()
    assert not mosquitto.running
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", mosquitto.port), timeout=5).close()


def test_restart_keeps_the_port(mosquitto: Mosquitto) -> None:
    port = mosquitto.port
    mosquitto.restart()
    assert mosquitto.running and mosquitto.port == port


def test_missing_binary_says_how_to_install(tmp_path: Path) -> None:
    broker = Mosquitto(workdir=tmp_path, binary=str(tmp_path / "no-mosquitto"))
    with pytest.raises(BrokerError, match="apt-get install mosquitto"):
        broker.start()


def test_a_broker_that_dies_shows_its_log(tmp_path: Path) -> None:
    assert find_mosquitto() is not None, "mosquitto is not installed: apt-get install mosquitto"
    broker = Mosquitto(workdir=tmp_path, extra_config="no_such_option 1")
    with pytest.raises(BrokerError, match="no_such_option"):
        broker.start()
    assert not broker.running


def test_a_taken_port_is_an_error(tmp_path: Path) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        first = Mosquitto(port, workdir=tmp_path / "a")
        with pytest.raises(BrokerError, match=f"port {port} on 127.0.0.1 is in use"):
            first.start()


def test_free_port_is_free() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", free_port()))
