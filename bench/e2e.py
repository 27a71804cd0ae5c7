"""The running table's figures (issue 10), on one core:

* **latency**: from the frame in which a card becomes stable (the frame handed to
  the watcher whose reading settles the card's ``placed``/``moved``/``removed``)
  to the STATE frame leaving for the peg board, through a real Mosquitto, the
  referee and the table service, over both bundled videos (a cribbage deal, a
  Skat deal); p50 and p99 (target p99 <= 150 ms);
* **referee throughput**: observations a second through the referee (envelope
  decoded and validated, stored in its SQLite log, read, events and state
  encoded and published) on the in-process bus, for 4 Skat tables; target >=
  1,000 observations/s.

    .venv/bin/python bench/e2e.py [--skip-latency]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

import cv2  # noqa: E402

cv2.setNumThreads(1)

from reading_helpers import trick_told  # noqa: E402

from controller.board.emulator import Emulator  # noqa: E402
from controller.board.layouts import load_layout as load_board  # noqa: E402
from controller.board.link import BoardLink  # noqa: E402
from controller.bus.broker import Mosquitto  # noqa: E402
from controller.bus.bus import MemoryBroker, MemoryBus, MqttBus  # noqa: E402
from controller.bus.dispatch import Publisher  # noqa: E402
from controller.bus.envelope import Stamper  # noqa: E402
from controller.bus.topics import topic  # noqa: E402
from controller.referee import InputLog, Referee  # noqa: E402
from controller.run.demo import demo_runs, setup_for_truth  # noqa: E402
from controller.run.machine import board_layout_for  # noqa: E402
from controller.table.service import TableService  # noqa: E402
from rules.events import Play  # noqa: E402
from rules.reading import Contract, TableSetup  # noqa: E402
from rules.skat.autoplay import random_deal  # noqa: E402
from rules.skat.events import Declare  # noqa: E402
from vision.layout import load_layout  # noqa: E402
from vision.model import DEFAULT_MODEL  # noqa: E402
from vision.recognize import Recognizer  # noqa: E402
from vision.sources import open_source  # noqa: E402
from vision.watch import TableWatcher  # noqa: E402

FRAME = "2688 x 2688 and 2432 x 2432 (2.74 and 2.36 px/mm over a card table)"


def pin_one_core() -> str:
    try:
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
        return f"pinned to CPU {min(os.sched_getaffinity(0))}"
    except (AttributeError, OSError):
        return "not pinned"


def throughput(deals: int = 40, tables: int = 4) -> None:
    rng = random.Random(2026)
    work = []
    for k in range(deals):
        deal = random_deal(rng, reveal=False)
        declare = next(e for e in deal.events if isinstance(e, Declare))
        d = declare.declaration
        contract = Contract(declare.seat, d.game, hand=d.hand, ouvert=d.ouvert)
        plays = [(e.seat, e.card) for e in deal.events if isinstance(e, Play)]
        work.append((f"t{k % tables}", contract, trick_told(plays, 3).lines()))
    with tempfile.TemporaryDirectory() as tmp:
        broker = MemoryBroker()
        contracts = {}
        referee = Referee(
            MemoryBus(broker, "referee"),
            InputLog(Path(tmp) / "r.db"),
            setup_for=lambda t: TableSetup("skat", dealer=2, contract=contracts[t]),
        )
        referee.bus.start()
        referee.start()
        bus = MemoryBus(broker, "tables")
        bus.start()
        pubs = {f"t{k}": Publisher(bus, Stamper(f"t{k}/table")) for k in range(tables)}
        # bodies made before the clock starts: the table service's work is not timed here
        bodies = []
        for table, contract, lines in work:
            contracts.setdefault(table, contract)
            for obs in lines:
                bodies.append((table, dict(obs.to_json(), card=str(obs.card))))
        first_deal = {t: True for t in pubs}
        t0 = time.perf_counter()
        count = 0
        for table, contract, lines in work:
            if not first_deal[table]:  # the next deal's contract, as an operator sets it
                pubs[table].send(
                    topic(table, "table/command"),
                    "command",
                    {
                        "command": "contract",
                        "declarer": contract.declarer,
                        "contract": contract.game,
                        "hand": contract.hand,
                        "ouvert": contract.ouvert,
                    },
                )
            first_deal[table] = False
            for obs in lines:
                body = dict(obs.to_json(), card=str(obs.card))
                pubs[table].send(topic(table, "table/observation"), "observation", body)
                count += 1
        elapsed = time.perf_counter() - t0
        played = sum(len(referee.reading(t).plays()) for t in pubs)
        referee.close()
    print(
        f"referee throughput: {count} observations of {deals} Skat deals at {tables} tables in "
        f"{elapsed:.2f} s = {count / elapsed:,.0f} observations/s (target >= 1,000); "
        f"{played} cards refereed (expected {deals * 30})"
    )


def latency_run(video: Path, table_layout_path: Path, truth: dict) -> tuple[list, list]:
    """One bundled video through the loop; (frame -> STATE frame, published -> STATE frame)
    seconds for each observation that changed the state."""
    setup = setup_for_truth(truth)
    with tempfile.TemporaryDirectory() as tmp, Mosquitto(workdir=Path(tmp) / "b").start() as mq:
        referee_bus = MqttBus(mq.url, "referee")
        referee = Referee(referee_bus, InputLog(Path(tmp) / "r.db"), setup_for=lambda t: setup)
        referee_bus.start()
        referee.start()
        layout = load_board(board_layout_for(setup))
        emulator = Emulator(layout).start()
        link = BoardLink(emulator.port, layout)
        sent: list[float] = []
        real_send_state = link._send_state

        def send_state(now: float, *, again: bool = False) -> None:
            real_send_state(now, again=again)
            if not again:
                sent.append(time.perf_counter())

        link._send_state = send_state  # type: ignore[method-assign]
        table_layout = load_layout(table_layout_path)
        watcher = TableWatcher(Recognizer(DEFAULT_MODEL), layout=table_layout)
        frame_start = [0.0]
        real_process = watcher.process

        def process(t, image, small=None):
            frame_start[0] = time.perf_counter()
            return real_process(t, image, small)

        watcher.process = process  # type: ignore[method-assign]
        service = TableService(
            "table1",
            MqttBus(mq.url, "table"),
            source=open_source(str(video), fps=4.0),
            watcher=watcher,
            layout=table_layout,
            board=link,
            board_tracks=layout.tracks,
        )
        # Observation k (in the order published) is the referee's input k: the state it
        # publishes after reading it carries "inputs": k. An input that changes nothing
        # (a card seen again) publishes no state and needs no LED frame: not counted.
        frames: list[float] = []  # when the frame that settled observation k came in
        published: list[float] = []
        handled: dict[int, float] = {}  # inputs -> when the table service got that state
        lock = threading.Lock()

        def hook(what: str, _t: float) -> None:
            if what == "observation":
                with lock:
                    frames.append(frame_start[0])
                    published.append(time.perf_counter())

        real_show = service._show_state

        def show_state(state):
            with lock:
                handled.setdefault(int(state.get("inputs", 0)), time.perf_counter())
            real_show(state)

        service._show_state = show_state  # type: ignore[method-assign]
        service.latency_hook = hook
        service.start()
        while referee_bus.health().subscriptions < 2:
            time.sleep(0.01)
        while service.step():
            pass
        service.flush()
        time.sleep(2.0)
        service.close()
        emulator.close()
        referee_bus.close()
        referee.close()
    whole: list[float] = []
    loop: list[float] = []
    for k, (t_frame, t_pub) in enumerate(zip(frames, published, strict=True), start=1):
        t_state = handled.get(k)
        if t_state is None:
            continue
        later = [s for s in sent if s >= t_state]
        if later:
            whole.append(later[0] - t_frame)
            loop.append(later[0] - t_pub)
    return whole, loop


def latency() -> None:
    samples: list[float] = []
    loop: list[float] = []
    names = []
    for video, table_layout, truth in demo_runs():
        whole, part = latency_run(video, table_layout, truth)
        samples += whole
        loop += part
        names.append(f"{video.name} ({len(whole)})")
    if not samples:
        raise SystemExit("no observation changed the state: is config/videos complete?")

    def pct(xs: list[float], q: float) -> float:
        return xs[min(len(xs) - 1, int(q * len(xs)))]

    loop.sort()
    samples.sort()
    print(
        f"  of which observation published -> STATE frame (broker, referee, table service, "
        f"board link): p50 {1000 * statistics.median(loop):.1f} ms, "
        f"p99 {1000 * pct(loop, 0.99):.1f} ms"
    )
    print(
        f"latency, frame in which a card becomes stable -> STATE frame to the board "
        f"({len(samples)} observations that changed the state: {', '.join(names)}; real "
        f"Mosquitto; frames of {FRAME}): p50 {1000 * statistics.median(samples):.1f} ms, "
        f"p99 {1000 * pct(samples, 0.99):.1f} ms, max {1000 * samples[-1]:.1f} ms "
        f"(target p99 <= 150 ms)"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--skip-latency", action="store_true")
    args = parser.parse_args()
    print(pin_one_core())
    throughput()
    if not args.skip_latency:
        latency()
    return 0


if __name__ == "__main__":
    sys.exit(main())
