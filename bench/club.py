"""Club scale (issue 12): 20 tables through one Mosquitto and one referee; CPU per table.

    .venv/bin/python bench/club.py [--tables 20] [--pace SECONDS]

A private Mosquitto and ``kiebitz referee`` run as processes (as the systemd unit
runs it); the bench plays as the tables: each table replays its own whole cribbage
game to 61 (89 to 187 observations) through its own MQTT client, all tables at
once, a line of each in turn. Without ``--pace`` the tables send as fast as the
broker takes it (the burst of a club coming back after a network outage); with it,
each table waits that long between its observations.

Prints the CPU time the referee and the broker used (from /proc, user + system)
per observation, and what that is per table at a club's pace: a cribbage game of
about 150 observations takes some 25 minutes, one observation every 10 s.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]
sys.path.insert(0, str(ROOT / "tests"))

from controller.bus.broker import Mosquitto  # noqa: E402
from controller.bus.bus import MqttBus  # noqa: E402
from controller.bus.dispatch import Publisher  # noqa: E402
from controller.bus.envelope import Stamper  # noqa: E402
from controller.bus.topics import topic  # noqa: E402

CLUB_PACE_S = 10.0  # one observation a table every 10 s at a real table


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=20)
    ap.add_argument("--pace", type=float, default=0.0, help="seconds between a table's lines")
    args = ap.parse_args()
    from test_outbox import game_lines  # the same games the tests play

    names = [f"c{i:02d}" for i in range(args.tables)]
    games = {t: game_lines(seed=100 + i) for i, t in enumerate(names)}
    total = sum(len(g) for g in games.values())
    with tempfile.TemporaryDirectory() as tmp, Mosquitto(workdir=Path(tmp) / "broker") as broker:
        db = Path(tmp) / "referee.db"
        referee = subprocess.Popen(
            [str(Path(sys.executable).parent / "kiebitz"), "referee", "--broker", broker.url,
             "--db", str(db), "--game", "cribbage", "--dealer", "0"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        try:
            buses = [MqttBus(broker.url, f"{t}-table") for t in names]
            for bus in buses:
                bus.start()
            while not all(b.connected for b in buses):
                time.sleep(0.02)
            time.sleep(1.0)  # the referee up and subscribed
            assert broker._proc is not None
            ref0, brk0 = cpu_seconds(referee.pid), cpu_seconds(broker._proc.pid)
            pubs = {
                t: Publisher(b, Stamper(f"{t}/table")) for t, b in zip(names, buses, strict=True)
            }
            start = time.monotonic()
            for i in range(max(len(g) for g in games.values())):
                for t in names:
                    if i < len(games[t]):
                        pubs[t].send(topic(t, "table/observation"), "observation", games[t][i])
                if args.pace:
                    time.sleep(args.pace)
            sent = time.monotonic() - start
            import sqlite3

            deadline = time.monotonic() + 300
            stored = 0
            while time.monotonic() < deadline:
                with sqlite3.connect(db) as con:
                    (stored,) = con.execute("SELECT COUNT(*) FROM inputs").fetchone()
                if stored >= total:
                    break
                time.sleep(0.05)
            took = time.monotonic() - start
            ref_cpu = cpu_seconds(referee.pid) - ref0
            brk_cpu = cpu_seconds(broker._proc.pid) - brk0
            for bus in buses:
                bus.close()
        finally:
            referee.terminate()
            referee.wait(timeout=30)
    per_obs = ref_cpu / total * 1000
    per_obs_broker = brk_cpu / total * 1000
    per_table = (per_obs + per_obs_broker) / 1000 / CLUB_PACE_S * 100
    how = "burst" if not args.pace else f"paced {args.pace} s"
    print(f"{args.tables} tables, {total} observations ({how})")
    print(f"  referee stored {stored}/{total} in {took:.1f} s (sent in {sent:.1f} s)")
    print(f"  referee CPU {ref_cpu:.2f} s = {per_obs:.2f} ms an observation")
    print(f"  broker CPU {brk_cpu:.2f} s = {per_obs_broker:.2f} ms an observation")
    print(
        f"  per table at a club's pace (an observation every {CLUB_PACE_S:g} s): "
        f"{per_table:.3f} % of one core; {args.tables} tables {per_table * args.tables:.2f} %"
    )
    return 0 if stored == total else 1


if __name__ == "__main__":
    sys.exit(main())
