"""The live web view under a club's load (issue 13): page update latency from the
referee's state to the spectators, with 20 tables and 50 spectators connected.

    .venv/bin/python bench/web.py [--tables 20] [--spectators 50] [--pace 0.5] [--seconds 30]

A private Mosquitto, ``kiebitz referee`` and ``kiebitz web`` run as processes (as
their systemd units run them). The bench plays the tables (each its own cribbage
game, an observation every ``--pace`` seconds, all tables at once) and the
spectators: ``--spectators`` server-sent-event streams, the way a browser's
EventSource follows a table page, spread over the tables (one of them the club
page, which follows every table). Each state the referee publishes is stamped with
its time (``ts``, on this machine's clock); the page's JSON carries it
(``state_ts``), so each spectator's latency is the time its stream delivered the
table's new view minus the time the referee sent the state. One real headless
Chromium page follows a table too, and its own receipt times (in the page, the
same clock) are reported beside the streams'.

Prints p50, p90, p99 and the maximum over every (state, spectator) pair.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]
sys.path.insert(0, str(ROOT / "tests"))

from controller.bus.broker import Mosquitto, free_port  # noqa: E402
from controller.bus.bus import MqttBus  # noqa: E402
from controller.bus.dispatch import Publisher  # noqa: E402
from controller.bus.envelope import Stamper  # noqa: E402
from controller.bus.topics import topic  # noqa: E402

KIEBITZ = str(Path(sys.executable).parent / "kiebitz")


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, max(0, round(p / 100 * (len(xs) - 1))))]


async def spectate(url: str, lat: list[float], stop: asyncio.Event, ready: list[int]) -> None:
    import httpx

    seen: dict[str, float] = {}
    async with httpx.AsyncClient(timeout=None) as client, client.stream("GET", url) as r:
        ready.append(1)
        async for line in r.aiter_lines():
            if stop.is_set():
                return
            if not line.startswith("data: "):
                continue
            now = time.time()
            view = json.loads(line[6:])
            ts = view.get("state_ts")
            table = view.get("table")
            # one sample a state: a view sent again for an event or a status has the
            # same state_ts
            if ts and seen.get(table) != ts:
                if table in seen:  # not the first view (that was the retained state)
                    lat.append(now - ts)
                seen[table] = ts


async def run_spectators(base: str, tables: list[str], n: int, seconds: float, start_tables):
    lat: list[float] = []
    stop = asyncio.Event()
    ready: list[int] = []
    urls = [base + "api/stream"] + [
        base + f"api/stream?table={tables[i % len(tables)]}" for i in range(n - 1)
    ]
    tasks = [asyncio.create_task(spectate(u, lat, stop, ready)) for u in urls]
    while len(ready) < len(urls):
        await asyncio.sleep(0.05)
    await asyncio.to_thread(start_tables)
    await asyncio.sleep(seconds)
    stop.set()
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return lat


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=20)
    ap.add_argument("--spectators", type=int, default=50)
    ap.add_argument("--pace", type=float, default=0.5, help="seconds between a table's cards")
    ap.add_argument("--seconds", type=float, default=30.0)
    ap.add_argument("--no-browser", action="store_true")
    args = ap.parse_args()
    from test_outbox import game_lines

    names = [f"c{i:02d}" for i in range(args.tables)]
    games = {t: game_lines(seed=100 + i) for i, t in enumerate(names)}
    port = free_port()
    base = f"http://127.0.0.1:{port}/"
    with tempfile.TemporaryDirectory() as tmp, Mosquitto(workdir=Path(tmp) / "broker") as broker:
        procs = [
            subprocess.Popen(
                [KIEBITZ, "referee", "--broker", broker.url, "--db", f"{tmp}/referee.db",
                 "--game", "cribbage", "--game-to", "61", "--dealer", "0",
                 "--tables", ",".join(names)],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            ),
            subprocess.Popen(
                [KIEBITZ, "web", "--broker", broker.url, "--port", str(port)],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            ),
        ]  # fmt: skip
        buses = [MqttBus(broker.url, f"{t}-table") for t in names]
        try:
            import httpx

            deadline = time.monotonic() + 60
            while True:  # the web view up, with every table's first state
                try:
                    if len(httpx.get(base + "api/tables").json()) == len(names):
                        break
                except httpx.HTTPError:
                    pass
                if time.monotonic() > deadline:
                    print("the web view did not come up with every table", file=sys.stderr)
                    return 1
                time.sleep(0.2)
            for bus in buses:
                bus.start()
            while not all(b.connected for b in buses):
                time.sleep(0.02)
            pubs = {
                t: Publisher(b, Stamper(f"{t}/table")) for t, b in zip(names, buses, strict=True)
            }
            sent = [0]

            def play() -> None:
                import threading

                def loop() -> None:
                    end = time.monotonic() + args.seconds
                    i = 0
                    while time.monotonic() < end:
                        for t in names:
                            g = games[t]
                            pubs[t].send(
                                topic(t, "table/observation"), "observation", g[i % len(g)]
                            )
                            sent[0] += 1
                        i += 1
                        time.sleep(args.pace)

                threading.Thread(target=loop, daemon=True).start()

            browser_lat: list[float] = []
            browser = None
            if not args.no_browser:
                browser = _browser(base + f"tables/{names[0]}")
            # the spectators' event loop in a thread of its own (Playwright's sync API
            # holds this one's)
            import threading

            lat: list[float] = []
            crowd = threading.Thread(
                target=lambda: lat.extend(
                    asyncio.run(run_spectators(base, names, args.spectators, args.seconds, play))
                )
            )
            crowd.start()
            crowd.join()
            if browser is not None:
                browser_lat = _browser_lat(browser)
        finally:
            for bus in buses:
                bus.close()
            for p in procs:
                p.terminate()
                p.wait(timeout=30)
    ms = [x * 1000 for x in lat]
    print(
        f"{args.tables} tables, {args.spectators} spectators (one on the club page), an "
        f"observation a table every {args.pace:g} s for {args.seconds:g} s ({sent[0]} sent)"
    )
    if not ms:
        print("no state reached a spectator", file=sys.stderr)
        return 1
    print(
        f"  state -> spectator's stream: {len(ms)} deliveries, p50 {statistics.median(ms):.1f} ms,"
        f" p90 {pct(ms, 90):.1f} ms, p99 {pct(ms, 99):.1f} ms, max {max(ms):.1f} ms"
    )
    if browser_lat:
        b = [x * 1000 for x in browser_lat]
        print(
            f"  state -> a real Chromium page's EventSource: {len(b)} states, p50 "
            f"{statistics.median(b):.1f} ms, p99 {pct(b, 99):.1f} ms, max {max(b):.1f} ms"
        )
    return 0


def _browser(url: str):  # type: ignore[no-untyped-def]
    """A headless Chromium on a table page, noting each view's state_ts as drawn."""
    from playwright.sync_api import sync_playwright

    p = sync_playwright().start()
    b = p.chromium.launch(
        executable_path="/usr/bin/chromium",
        headless=True,
        args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
    )
    page = b.new_page()
    # the page's own EventSource, and a second one here that notes the time each view
    # arrives in the page (Date.now(): the same clock as the referee's ts)
    page.add_init_script(
        """window.__lat = []; window.addEventListener('DOMContentLoaded', () => {
        const t = document.body.dataset.table; if (!t) return; let seen = null;
        const s = new EventSource('/api/stream?table=' + encodeURIComponent(t));
        s.onmessage = (ev) => { const v = JSON.parse(ev.data);
          if (v.state_ts && v.state_ts !== seen) { if (seen !== null)
            window.__lat.push(Date.now() / 1000 - v.state_ts); seen = v.state_ts; } }; });"""
    )
    page.goto(url)
    page.wait_for_selector(".pegboard")
    return p, b, page


def _browser_lat(handle) -> list[float]:  # type: ignore[no-untyped-def]
    p, b, page = handle
    try:
        return list(page.evaluate("window.__lat"))
    finally:
        b.close()
        p.stop()


if __name__ == "__main__":
    sys.exit(main())
