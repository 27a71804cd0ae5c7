"""The private Mosquitto: config, port, errors that say how to fix them."""

import os
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


def _alive(pid: int) -> bool:
    """The process is there and not a zombie (where nobody reaps orphans, a container's
    pid 1 that is not an init, a dead broker lingers as one)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def test_a_broker_goes_with_the_process_that_started_it(tmp_path: Path) -> None:
    """A SIGKILLed `kiebitz run` left its private Mosquitto running, listening and
    logging for good (the broker is in its own session, so that a Ctrl-C reaches the
    run first). The kernel now sends it SIGTERM when its starter dies."""
    import signal
    import subprocess
    import sys
    import time

    starter = subprocess.Popen(
        [sys.executable, "-c",
         "import sys, time\n"
         "from pathlib import Path\n"
         "from controller.bus.broker import Mosquitto\n"
         "broker = Mosquitto(workdir=Path(sys.argv[1])).start()\n"
         "print(broker._proc.pid, broker.port, flush=True)\n"
         "time.sleep(300)\n",
         str(tmp_path)],
        stdout=subprocess.PIPE, cwd=Path(__file__).resolve().parents[1],
    )  # fmt: skip
    pid = 0
    try:
        assert starter.stdout is not None
        pid, port = map(int, starter.stdout.readline().split())
        assert _alive(pid)
        socket.create_connection(("127.0.0.1", port), timeout=5).close()
        starter.send_signal(signal.SIGKILL)
        starter.wait(timeout=20)
        deadline = time.monotonic() + 20
        while _alive(pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not _alive(pid), "the broker outlived the process that started it"
        with pytest.raises(OSError):
            socket.create_connection(("127.0.0.1", port), timeout=5).close()
    finally:
        starter.kill()
        starter.wait()
        if pid and _alive(pid):
            os.kill(pid, signal.SIGKILL)
