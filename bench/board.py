"""Peg board link benchmark: state-to-LEDs latency and states per second.

    .venv/bin/python bench/board.py [--layout two-player-121] [--count 300]

Host driver (pyserial on a pseudo-terminal) -> emulated board (the firmware's
own code, fake PIO) -> the moment the fake PIO receives the matching LED frame.
Two lines: unthrottled (a pseudo-terminal moves bytes faster than USB CDC's
12 Mbit/s, so this is the software's own limit, as over USB CDC) and throttled
to 115200 baud 8N1 (a UART to the Pico: 87 us a byte each way).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pegboard import frame as fr
from pegboard import protocol as p
from pegboard.render import Renderer

from controller.board.emulator import Emulator
from controller.board.layouts import load_layout
from controller.board.link import BoardLink
from controller.board.model import BoardState


def states(layout, count):  # type: ignore[no-untyped-def]
    for i in range(count):
        score = 1 + i % (layout.game - 1)
        yield BoardState.parse(
            pegs=",".join(f"{score}:{max(0, score - 1 - t)}" for t in range(layout.tracks)),
            scores=",".join(str(score + t) for t in range(layout.tracks)),
        )


def run(layout_name: str, count: int, baudrate: int | None) -> dict[str, float]:
    layout = load_layout(layout_name)
    shown: dict[tuple[int, ...], float] = {}
    arrived = threading.Event()
    want: list[tuple[int, ...]] = [()]

    def on_frame(words) -> None:  # type: ignore[no-untyped-def]
        if tuple(words) == want[0]:
            shown[want[0]] = time.perf_counter()
            arrived.set()

    latencies = []
    with tempfile.TemporaryDirectory() as tmp:
        emulator = Emulator(layout, link=Path(tmp) / "tty", baudrate=baudrate)
        emulator.listeners.append(on_frame)
        with emulator, BoardLink(emulator.port, layout, ack_timeout=0.5) as link:
            link.set_state(BoardState())
            link.wait_synced(5)
            time.sleep(layout.selftest_ms / 1000 + 0.1)
            for state in states(layout, count):
                want[0] = tuple(Renderer(layout).frame(state.to_wire(layout), now=0))
                arrived.clear()
                start = time.perf_counter()
                link.set_state(state)
                if not arrived.wait(2):
                    raise SystemExit("a state never reached the LEDs")
                latencies.append((shown[want[0]] - start) * 1000)
                link.wait_synced(2)
            # Sustained rate: as fast as the ACKs come back (one frame in flight).
            done = 0
            start = time.perf_counter()
            for state in states(layout, count):
                link.set_state(state)
                link.wait_synced(2)
                done += 1
            rate = done / (time.perf_counter() - start)
    latencies.sort()
    frame_bytes = len(fr.encode_frame(1, 1, p.STATE, p.encode_state(state.to_wire(layout))))
    return {
        "p50": statistics.median(latencies),
        "p99": latencies[min(len(latencies) - 1, int(0.99 * len(latencies)))],
        "rate": rate,
        "frame_bytes": frame_bytes,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--layout", default="two-player-121")
    parser.add_argument("--count", type=int, default=300)
    args = parser.parse_args()
    print(f"layout {args.layout}, {args.count} states each")
    for label, baud in (("pty, unthrottled (USB CDC class)", None), ("UART 115200 baud", 115200)):
        r = run(args.layout, args.count, baud)
        wire_limit = ""
        if baud:
            # A STATE frame out and a 12-byte ACK back, 10 bits a byte.
            wire_limit = f"; wire limit {baud / 10 / (r['frame_bytes'] + 12):.0f}/s"
        print(
            f"{label:34} latency p50 {r['p50']:6.2f} ms  p99 {r['p99']:6.2f} ms  "
            f"acked states {r['rate']:6.0f}/s  "
            f"(STATE frame {r['frame_bytes']:.0f} bytes{wire_limit})"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
