"""Screenshots of the web view for docs/: a cribbage table mid-game, a Skat table
with a revoke proved, the club page, and the table page on a phone.

    .venv/bin/python scripts/web_screenshots.py [--out docs]

Two tables played through a referee on the in-process bus, the web view served by
uvicorn, Debian's Chromium driven by Playwright (as the tests do).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from reading_helpers import trick_told  # noqa: E402
from test_outbox import game_lines  # noqa: E402

from controller.bus.bus import MemoryBroker, MemoryBus  # noqa: E402
from controller.bus.dispatch import Publisher  # noqa: E402
from controller.bus.envelope import Stamper  # noqa: E402
from controller.bus.topics import topic  # noqa: E402
from controller.referee import InputLog, Referee  # noqa: E402
from controller.web.server import WebServer  # noqa: E402
from rules.events import Play  # noqa: E402
from rules.reading import Contract, TableSetup  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=ROOT / "docs")
    args = ap.parse_args()
    from rules.skat.autoplay import random_deal
    from rules.skat.events import Declare

    deal = random_deal(random.Random(8), reveal=False, revoke_at=2)
    declare = next(e for e in deal.events if isinstance(e, Declare))
    contract = Contract(declare.seat, declare.declaration.game, hand=declare.declaration.hand)
    setups = {
        "club-1": TableSetup("cribbage", {"game_to": 121}, dealer=0),
        "club-2": TableSetup("skat", {"rules": "isko"}, dealer=2, contract=contract),
    }
    broker = MemoryBroker()
    web_bus = MemoryBus(broker, "web")
    web = WebServer(web_bus, port=0)
    web_bus.start()
    web.start()
    ref_bus = MemoryBus(broker, "referee")
    ref_bus.start()
    Referee(ref_bus, InputLog(":memory:"), setup_for=lambda t: setups[t]).start()
    bus = MemoryBus(broker, "tables")
    bus.start()
    crib = Publisher(bus, Stamper("club-1/table"))
    for line in game_lines(seed=5)[:70]:
        crib.send(topic("club-1", "table/observation"), "observation", line)
    skat = Publisher(bus, Stamper("club-2/table"))
    plays = [(e.seat, e.card) for e in deal.events if isinstance(e, Play)]
    for obs in trick_told(plays, 3).lines()[:40]:
        body = {**json.loads(json.dumps(obs.to_json())), "card": str(obs.card)}
        skat.send(topic("club-2", "table/observation"), "observation", body)
    from playwright.sync_api import sync_playwright

    args.out.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        b = p.chromium.launch(
            executable_path="/usr/bin/chromium", headless=True, args=["--no-sandbox"]
        )
        for name, url, size in (
            ("web-table.png", "tables/club-1", (1100, 820)),
            ("web-skat.png", "tables/club-2", (1100, 700)),
            ("web-club.png", "", (900, 300)),
            ("web-phone.png", "tables/club-1", (390, 844)),
        ):
            page = b.new_page(viewport={"width": size[0], "height": size[1]})
            page.goto(web.url + url)
            page.wait_for_selector(".pegboard, .displays, #club tbody tr")
            page.wait_for_timeout(300)
            page.screenshot(path=str(args.out / name), full_page=name == "web-phone.png")
            print(args.out / name)
        b.close()
    web.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
