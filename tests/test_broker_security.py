"""The shipped Mosquitto configuration, tested on a real Mosquitto (issue 12).

``config/mosquitto/kiebitz.conf`` and ``kiebitz.acl`` are run as shipped, only
their paths and ports made private: the password file is made with
``mosquitto_passwd`` and the server certificate by ``openssl`` from a CA made for
the test. Refusals are seen as the broker sends them: a CONNACK or a PUBACK with
an MQTT 5 reason code.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import threading
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from controller.bus.broker import Mosquitto, find_mosquitto, free_port

SHIPPED = Path(__file__).resolve().parent.parent / "config" / "mosquitto"
PASSWORDS = {
    "t1": "pw-t1",
    "t2": "pw-t2",
    "kiebitz.referee": "pw-referee",
    "kiebitz.web": "pw-web",
    "kiebitz.watch": "pw-watch",
}
NOT_AUTHORIZED = 0x87
BAD_NAME_OR_PASSWORD = 0x86


def _tool(name: str) -> str:
    found = shutil.which(name) or (
        f"/usr/bin/{name}" if Path(f"/usr/bin/{name}").exists() else None
    )
    if found is None:
        pytest.fail(f"{name} is not installed (make test installs mosquitto and openssl)")
    return found


def _certificates(folder: Path) -> tuple[Path, Path, Path]:
    """A CA, and a server certificate for localhost and 127.0.0.1 signed by it."""
    openssl = _tool("openssl")
    ca_key, ca, key, csr, crt = (
        folder / n for n in ("ca.key", "ca.crt", "kiebitz.key", "kiebitz.csr", "kiebitz.crt")
    )

    def run(*args: str) -> None:
        subprocess.run([openssl, *args], check=True, capture_output=True, timeout=60)

    run(
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-days",
        "2",
        "-subj",
        "/CN=Kiebitz test CA",
        "-keyout",
        str(ca_key),
        "-out",
        str(ca),
    )
    run(
        "req",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-subj",
        "/CN=localhost",
        "-keyout",
        str(key),
        "-out",
        str(csr),
    )
    ext = folder / "san.ext"
    ext.write_text("subjectAltName=DNS:localhost,IP:127.0.0.1\n")
    run("x509", "-req", "-in", str(csr), "-CA", str(ca), "-CAkey", str(ca_key), "-CAcreateserial",
        "-days", "2", "-extfile", str(ext), "-out", str(crt))  # fmt: skip
    return ca, crt, key


@pytest.fixture(scope="module")
def broker(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    if find_mosquitto() is None:
        pytest.fail("mosquitto is not installed (make test installs it)")
    work = tmp_path_factory.mktemp("secure")
    ca, _crt, _key = _certificates(work)  # named kiebitz.crt and .key, as the config says
    passwd = work / "kiebitz.passwd"
    passwd_tool = _tool("mosquitto_passwd")
    for i, (user, password) in enumerate(PASSWORDS.items()):
        flags = ["-c"] if i == 0 else []
        subprocess.run(
            [passwd_tool, *flags, "-b", str(passwd), user, password], check=True, timeout=30
        )
    shutil.copy(SHIPPED / "kiebitz.acl", work / "kiebitz.acl")
    plain, tls = free_port(), free_port()
    text = (SHIPPED / "kiebitz.conf").read_text()
    text = text.replace("/etc/mosquitto/certs/", f"{work}/").replace("/etc/mosquitto/", f"{work}/")
    text = text.replace("/var/lib/mosquitto/", f"{work}/")
    text = re.sub(r"^listener 1883 127.0.0.1$", f"listener {plain} 127.0.0.1", text, flags=re.M)
    text = re.sub(r"^listener 8883$", f"listener {tls} 127.0.0.1", text, flags=re.M)
    assert f"listener {plain}" in text and f"listener {tls}" in text
    with Mosquitto(plain, workdir=work, config=text) as m:
        m.tls_port = tls  # type: ignore[attr-defined]
        m.ca = ca  # type: ignore[attr-defined]
        yield m


class Client:
    """A raw paho MQTT 5 client that keeps the reason codes the broker sends."""

    def __init__(self, broker: Mosquitto, user: str | None, password: str | None = None, *,
                 tls: bool = False) -> None:  # fmt: skip
        self.connack = threading.Event()
        self.reason: int | None = None
        self.acks: dict[int, int] = {}
        self.acked = threading.Condition()
        c = mqtt.Client(CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv5)
        if user is not None:
            c.username_pw_set(user, password if password is not None else PASSWORDS[user])
        if tls:
            c.tls_set(ca_certs=str(broker.ca))  # type: ignore[attr-defined]
        c.on_connect = self._on_connect
        c.on_publish = self._on_publish
        self.c = c
        port = broker.tls_port if tls else broker.port  # type: ignore[attr-defined]
        c.connect("localhost" if tls else "127.0.0.1", port)
        c.loop_start()
        assert self.connack.wait(10), "no CONNACK"

    def _on_connect(self, client, userdata, flags, reason_code, properties):  # type: ignore[no-untyped-def]
        self.reason = reason_code.value
        self.connack.set()

    def _on_publish(self, client, userdata, mid, reason_code, properties):  # type: ignore[no-untyped-def]
        with self.acked:
            self.acks[mid] = reason_code.value
            self.acked.notify_all()

    def publish(self, topic: str, payload: bytes = b"{}") -> int:
        """The PUBACK's reason code (0 accepted, 0x87 not authorized)."""
        info = self.c.publish(topic, payload, qos=1)
        with self.acked:
            assert self.acked.wait_for(lambda: info.mid in self.acks, 10), f"no PUBACK for {topic}"
            return self.acks[info.mid]

    def close(self) -> None:
        self.c.disconnect()
        self.c.loop_stop()


def test_a_client_without_credentials_cannot_connect(broker: Mosquitto) -> None:
    anonymous = Client(broker, None)
    try:
        assert anonymous.reason is not None and anonymous.reason >= 0x80
    finally:
        anonymous.close()
    wrong = Client(broker, "t1", "not-the-password")
    try:
        assert wrong.reason in (BAD_NAME_OR_PASSWORD, NOT_AUTHORIZED)
    finally:
        wrong.close()


@pytest.mark.parametrize(
    ("user", "topic", "allowed"),
    [
        # a table: its own observations, commands, events and status only
        ("t1", "kiebitz/v1/t1/table/observation", True),
        ("t1", "kiebitz/v1/t1/table/command", True),
        ("t1", "kiebitz/v1/t1/table/event", True),
        ("t1", "kiebitz/v1/t1/status/table", True),
        ("t1", "kiebitz/v1/t2/table/observation", False),
        ("t1", "kiebitz/v1/t2/status/table", False),
        ("t1", "kiebitz/v1/t1/game/state", False),
        ("t1", "kiebitz/v1/t1/game/event", False),
        ("t1", "kiebitz/v1/t1/status/referee", False),
        # the referee: game topics and its status only
        ("kiebitz.referee", "kiebitz/v1/t1/game/state", True),
        ("kiebitz.referee", "kiebitz/v1/t2/game/event", True),
        ("kiebitz.referee", "kiebitz/v1/t1/status/referee", True),
        ("kiebitz.referee", "kiebitz/v1/t1/table/observation", False),
        ("kiebitz.referee", "kiebitz/v1/t1/table/command", False),
        # the web view: commands only
        ("kiebitz.web", "kiebitz/v1/t1/table/command", True),
        ("kiebitz.web", "kiebitz/v1/t1/game/state", False),
        ("kiebitz.web", "kiebitz/v1/t1/table/observation", False),
        # a spectator: nothing
        ("kiebitz.watch", "kiebitz/v1/t1/table/command", False),
        ("kiebitz.watch", "kiebitz/v1/t1/game/event", False),
    ],
)
def test_who_may_publish_what(broker: Mosquitto, user: str, topic: str, allowed: bool) -> None:
    client = Client(broker, user)
    try:
        assert client.reason == 0
        code = client.publish(topic)
        # accepted: 0, or 0x10 "no matching subscribers" (a success code)
        assert (code < 0x80) if allowed else (code == NOT_AUTHORIZED), hex(code)
    finally:
        client.close()


def test_a_table_reads_its_own_state_and_not_another_tables(broker: Mosquitto) -> None:
    got: list[str] = []
    arrived = threading.Event()
    reader = Client(broker, "t1")
    reader.c.on_message = lambda c, u, msg: (got.append(msg.topic), arrived.set())
    subscribed = threading.Event()
    reader.c.on_subscribe = lambda *a: subscribed.set()
    reader.c.subscribe("kiebitz/v1/+/game/state", qos=1)
    assert subscribed.wait(10)
    referee = Client(broker, "kiebitz.referee")
    try:
        assert referee.publish("kiebitz/v1/t2/game/state", b'{"t": 2}') < 0x80
        assert referee.publish("kiebitz/v1/t1/game/state", b'{"t": 1}') < 0x80
        assert arrived.wait(10)
        referee.publish("kiebitz/v1/t2/game/state", b'{"t": 2}')
        assert got == ["kiebitz/v1/t1/game/state"]  # t2's states never reached t1
    finally:
        referee.close()
        reader.close()


def test_the_network_listener_speaks_tls_only(broker: Mosquitto) -> None:
    secure = Client(broker, "t1", tls=True)
    try:
        assert secure.reason == 0
        assert secure.publish("kiebitz/v1/t1/table/observation") < 0x80
    finally:
        secure.close()
    plain = mqtt.Client(CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv5)
    plain.username_pw_set("t1", PASSWORDS["t1"])
    connected = threading.Event()
    plain.on_connect = lambda *a: connected.set()
    try:
        plain.connect("127.0.0.1", broker.tls_port)  # type: ignore[attr-defined]
        plain.loop_start()
        assert not connected.wait(2)  # a TLS listener never answers plain MQTT
    except OSError:
        pass  # or drops the connection at once
    finally:
        plain.loop_stop()


def test_the_bus_connects_over_tls_with_the_clubs_ca(broker: Mosquitto) -> None:
    from controller.bus.bus import MqttBus

    bus = MqttBus(
        f"mqtts://localhost:{broker.tls_port}", "t1-table",  # type: ignore[attr-defined]
        username="t1", password=PASSWORDS["t1"], ca_file=str(broker.ca),  # type: ignore[attr-defined]
    )  # fmt: skip
    bus.start()
    try:
        assert _eventually(lambda: bus.connected)
        bus.publish("kiebitz/v1/t1/table/observation", b"{}")
        refused: list[str] = []
        bus.on_refused = lambda topic, reason: refused.append(topic)
        bus.publish("kiebitz/v1/t1/game/state", b"{}")
        assert _eventually(lambda: refused == ["kiebitz/v1/t1/game/state"])
        assert bus.health().refused == 1
    finally:
        bus.close()


def test_status_without_the_clubs_ca_says_the_certificate_is_not_trusted(
    broker: Mosquitto, capsys: pytest.CaptureFixture[str]
) -> None:
    # the TLS listener answers, but its certificate is signed by the club's own CA,
    # which this machine's trusted CAs do not hold: said so, not "cannot reach"
    from controller.cli import main

    url = f"mqtts://localhost:{broker.tls_port}"  # type: ignore[attr-defined]
    status = main(["status", "--broker", url, "--table-id", "t1", "--timeout", "10"])
    first = capsys.readouterr().out.splitlines()[0]
    assert status == 1
    assert first.startswith(
        f"broker   {url}: not connected: TLS handshake with localhost:{broker.tls_port} "  # type: ignore[attr-defined]
        "failed: the broker's certificate is not trusted ("
    ), first
    assert first.endswith("; give the CA file that signed it)")


def test_a_certificate_for_another_host_is_not_said_to_want_a_ca_file(broker: Mosquitto) -> None:
    # the club's CA is given and trusts the certificate, but it names localhost and
    # 127.0.0.1, not the host connected to: "give the CA file that signed it" sent
    # an installer after a CA file he had already given
    import socket
    import ssl

    from controller.bus.bus import _connect_failure

    port = broker.tls_port  # type: ignore[attr-defined]
    ctx = ssl.create_default_context(cafile=str(broker.ca))  # type: ignore[attr-defined]
    with (
        socket.create_connection(("127.0.0.1", port), timeout=10) as raw,
        pytest.raises(ssl.SSLCertVerificationError) as caught,
    ):
        ctx.wrap_socket(raw, server_hostname="broker.invalid")
    said = _connect_failure(f"mqtts://broker.invalid:{port}", "broker.invalid", port, caught.value)
    assert said.startswith(
        f"TLS handshake with broker.invalid:{port} failed: the broker's certificate is not "
        "issued to broker.invalid ("
    ), said
    assert "CA file" not in said and said.endswith("; connect by a name it names)")


def _eventually(check, timeout: float = 10) -> bool:  # type: ignore[no-untyped-def]
    import time

    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if check():
            return True
        time.sleep(0.02)
    return False


# -- the club server: a table's broker bridged to it -----------------------------------


def test_a_tables_broker_bridged_to_the_club_carries_its_side_out_and_the_game_in(
    broker: Mosquitto, tmp_path: Path
) -> None:
    # the club broker is the shipped config above; the table's own broker is a plain
    # private one with the shipped bridge appended, pointed at the club's TLS port
    bridge = (SHIPPED / "bridge-table.conf").read_text()
    bridge = bridge.replace("club-server.local:8883", f"localhost:{broker.tls_port}")  # type: ignore[attr-defined]
    bridge = bridge.replace("/etc/mosquitto/certs/club-ca.crt", str(broker.ca))  # type: ignore[attr-defined]
    bridge = bridge.replace("CHANGE-ME", PASSWORDS["t1"])
    assert "t1" in bridge
    with Mosquitto(workdir=tmp_path, extra_config=bridge) as table_broker:
        referee = Client(broker, "kiebitz.referee")
        at_club: list[tuple[str, bytes]] = []
        referee.c.on_message = lambda c, u, m: at_club.append((m.topic, m.payload))
        subscribed = threading.Event()
        referee.c.on_subscribe = lambda *a: subscribed.set()
        referee.c.subscribe("kiebitz/v1/+/table/#", qos=1)
        assert subscribed.wait(10)
        local = mqtt.Client(CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv5)
        at_table: list[tuple[str, bytes]] = []
        local.on_message = lambda c, u, m: at_table.append((m.topic, m.payload))
        local.connect("127.0.0.1", table_broker.port)
        local.loop_start()
        local.subscribe("kiebitz/v1/#", qos=1)
        try:
            # out: the table's observation reaches the club's referee (once the bridge is up)
            assert _eventually(
                lambda: (
                    local.publish("kiebitz/v1/t1/table/observation", b'{"n": 1}', qos=1)
                    and any(t == "kiebitz/v1/t1/table/observation" for t, _ in at_club)
                ),
                timeout=20,
            )
            # in: the referee's state at the club reaches the table's broker
            assert referee.publish("kiebitz/v1/t1/game/state", b'{"s": 1}') < 0x80
            assert _eventually(lambda: ("kiebitz/v1/t1/game/state", b'{"s": 1}') in at_table)
            # another table's topics are not carried, and the club refuses the bridge
            # anything its account may not write
            local.publish("kiebitz/v1/t2/table/observation", b'{"n": 2}', qos=1)
            local.publish("kiebitz/v1/t1/table/observation", b'{"n": 3}', qos=1)
            assert _eventually(lambda: ("kiebitz/v1/t1/table/observation", b'{"n": 3}') in at_club)
            assert all(t.startswith("kiebitz/v1/t1/") for t, _ in at_club)
        finally:
            local.loop_stop()
            referee.close()


# -- the shipped example config, both services, on the shipped broker ---------------


def test_the_example_config_runs_both_services_on_the_secured_broker(broker, tmp_path):
    # each service with its own account (the table's may not write game topics), the
    # example config as shipped but for its paths; and kiebitz status says both are up
    import json as _json
    import subprocess as sp
    import sys

    from test_outbox import game_lines

    lines = game_lines()[:40]
    recorded = tmp_path / "game.jsonl"
    recorded.write_text("".join(_json.dumps(line) + "\n" for line in lines))
    (tmp_path / "t1.password").write_text(PASSWORDS["t1"] + "\n")
    (tmp_path / "referee.password").write_text(PASSWORDS["kiebitz.referee"] + "\n")
    (tmp_path / "watch.password").write_text(PASSWORDS["kiebitz.watch"] + "\n")
    text = (SHIPPED.parent / "kiebitz.example.toml").read_text()
    text = text.replace("mqtt://127.0.0.1:1883", f"mqtt://127.0.0.1:{broker.port}")
    text = text.replace("/etc/kiebitz/broker.password", str(tmp_path / "t1.password"))
    text = text.replace("/etc/kiebitz/referee.password", str(tmp_path / "referee.password"))
    text = text.replace("/etc/kiebitz/watch.password", str(tmp_path / "watch.password"))
    (tmp_path / "web.password").write_text(PASSWORDS["kiebitz.web"] + "\n")
    (tmp_path / "web.secret").write_text("s" * 64 + "\n")
    for name in ("web.password", "web.secret", "operators"):
        text = text.replace(f"/etc/kiebitz/{name}", str(tmp_path / name))
    web_port = free_port()
    text = text.replace("port = 8080", f"web_port = {web_port}").replace('"0.0.0.0"', '"127.0.0.1"')
    text = text.replace("/var/lib/kiebitz/", f"{tmp_path}/")
    text = text.replace('source = "picamera"', f'observations = "{recorded}"')
    text = "\n".join(ln for ln in text.splitlines() if not ln.startswith(("port =", "gpio =")))
    text = text.replace("web_port = ", "port = ")  # the web view's (the board's is gone)
    config = tmp_path / "kiebitz.toml"
    config.write_text(text + "\n")
    kiebitz = str(Path(sys.executable).parent / "kiebitz")
    assert sp.run([kiebitz, "config", "check", str(config)], check=False).returncode == 0
    # the recorder first (read only, as kiebitz.watch): it hears the match from its start
    recorder = sp.Popen([kiebitz, "recorder", "--config", str(config)], stderr=sp.PIPE, text=True)
    assert recorder.stderr is not None
    said = ""
    while not said.startswith("recorder: recording"):
        said = recorder.stderr.readline()
        assert said, "the recorder ended before recording"
    assert "not yet" not in said
    referee = sp.Popen([kiebitz, "referee", "--config", str(config)], stderr=sp.PIPE, text=True)
    try:
        assert referee.stderr is not None
        said = ""  # the line that says its subscriptions are in (log lines before it)
        while not said.startswith("referee: serving"):
            said = referee.stderr.readline()
            assert said, "the referee ended before serving"
        assert said.startswith("referee: serving t1 on mqtt://") and "not yet" not in said
        watch = Client(broker, "kiebitz.watch")
        states: list[dict] = []
        watch.c.on_message = lambda c, u, m: states.append(_json.loads(m.payload)["body"])
        watch.c.subscribe("kiebitz/v1/t1/game/state", qos=1)
        table = sp.run(
            [kiebitz, "table", "--config", str(config)], capture_output=True, text=True,
            timeout=120, check=False,
        )  # fmt: skip
        assert table.returncode == 0, table.stderr
        import sqlite3

        def stored() -> int:
            with sqlite3.connect(tmp_path / "referee.db") as db:
                return int(db.execute("SELECT COUNT(*) FROM inputs").fetchone()[0])

        assert _eventually(lambda: stored() == len(lines)) and states
        status = sp.run(
            [kiebitz, "status", "--config", str(config)], capture_output=True, text=True,
            timeout=60, check=False,
        )  # fmt: skip
        # the table service has stopped (its file ended): offline; the referee online
        assert "broker   mqtt://127.0.0.1:" in status.stdout and "connected as t1" in status.stdout
        assert "table    t1: offline" in status.stdout
        assert "referee  t1: online" in status.stdout
        watch.close()
        # the recorder kept the match, and it replays to the referee's last state
        from controller.recorder.replay import check
        from controller.recorder.store import RecordStore

        store = RecordStore(tmp_path / "records.db")

        def recorded() -> bool:
            rows = store.matches(table="t1")
            return bool(rows) and (rows[0].state or {}).get("events") == rows[0].events > 1

        assert _eventually(recorded)
        assert check(store.match(store.matches()[0].id)) == []
        store.close()
        # the web view on its account: an operator's undo is a command the ACL lets
        # through and the referee reads
        import io

        import httpx

        from controller.cli import main

        sys_stdin, sys.stdin = sys.stdin, io.StringIO("operator-password\n")
        try:
            assert main(["web-passwd", "--users", str(tmp_path / "operators"), "anna"]) == 0
        finally:
            sys.stdin = sys_stdin
        web = sp.Popen([kiebitz, "web", "--config", str(config)], stderr=sp.PIPE, text=True)
        try:
            assert web.stderr is not None
            said = web.stderr.readline()
            while said and not said.startswith("web: serving"):
                said = web.stderr.readline()
            assert said.startswith(f"web: serving http://127.0.0.1:{web_port}/"), said
            base = f"http://127.0.0.1:{web_port}/"
            with httpx.Client() as c:
                form = c.get(base + "login").text
                token = form.split('name="csrf" value="')[1].split('"')[0]
                c.post(base + "login", data={"csrf": token, "name": "anna",
                                             "password": "operator-password"})  # fmt: skip
                me = c.get(base + "api/me").json()
                assert me["operator"] == "anna"
                answer = c.post(base + "api/tables/t1/command", json={"command": "undo"},
                                headers={"X-CSRF-Token": me["csrf"]})  # fmt: skip
                assert answer.status_code == 200
                assert _eventually(lambda: stored() == len(lines) + 1)
                assert "Match 1: cribbage at table t1" in c.get(base + "matches/1").text
        finally:
            web.terminate()
            web.wait(timeout=30)
    finally:
        recorder.terminate()
        recorder.wait(timeout=30)
        referee.terminate()
        referee.wait(timeout=30)
