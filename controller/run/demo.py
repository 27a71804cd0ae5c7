"""``kiebitz demo`` (``make demo``): the running table on the bundled synthetic videos.

Each bundled video (``config/videos``) is a whole deal laid card by card on a
table as the recommended camera mounting sees it: a two-player cribbage deal,
and a Skat deal in which the single player revokes. Each goes through the whole
loop exactly as ``kiebitz run --headless`` takes it: a private Mosquitto, the
table service reading the video (calibration, recogniser, tracker), the referee,
an emulated peg board running the firmware's own code. The game is told as it is
played, and each run ends with its summary, checked against the video's truth
(the deal that was rendered). ``kiebitz demo --rules-only`` plays the earlier
demo instead: a whole 121 game between two automatic players, rules engine only.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, TextIO

from controller.errors import UsageError
from controller.resources import CONFIG_DIR
from controller.run.machine import RunConfig, run_table
from rules.reading import Contract, TableSetup

__all__ = ["VIDEO_DIR", "demo_runs", "run_demo", "setup_for_truth"]

VIDEO_DIR = CONFIG_DIR / "videos"
TABLE_DIR = CONFIG_DIR / "tables"
#: The bundled videos, in the order the demo plays them.
DEMO_VIDEOS = ("cribbage-deal", "skat-revoke")


def setup_for_truth(truth: dict[str, Any]) -> TableSetup:
    """The match a video shows, as its operator would set it up (dealer, contract)."""
    game = truth["game"]
    if game == "cribbage":
        return TableSetup("cribbage", {"players": truth.get("players", 2)}, dealer=truth["dealer"])
    contract = truth["contract"]
    return TableSetup(
        game,
        {"rules": truth.get("rules", "isko")} if game == "skat" else {},
        dealer=truth["dealer"],
        contract=Contract(
            truth["declarer"],
            contract["game"],
            hand=bool(contract.get("hand")),
            ouvert=bool(contract.get("ouvert")),
            bid=truth.get("bid"),
        ),
    )


def demo_runs() -> list[tuple[Path, Path, dict[str, Any]]]:
    """(video, table layout, truth) of each bundled video."""
    out = []
    for name in DEMO_VIDEOS:
        video = VIDEO_DIR / f"{name}.mp4"
        meta = VIDEO_DIR / f"{name}.json"
        if not video.is_file() or not meta.is_file():
            raise UsageError(
                f"{video} is missing: render it with 'python -m controller.scenarios render "
                f"config/videos'"
            )
        data = json.loads(meta.read_text(encoding="utf-8"))
        out.append((video, TABLE_DIR / data["layout"], data["truth"]))
    return out


def _checked(summary: dict[str, Any], truth: dict[str, Any]) -> list[str]:
    """What the run got wrong, against the video's truth (empty: all right)."""
    wrong = []
    if summary["plays"] != truth["plays"]:
        wrong.append(f"plays differ: {len(summary['plays'])} seen of {len(truth['plays'])}")
    want = sorted((v["kind"], v["seat"], v.get("trick")) for v in truth.get("verdicts", []))
    got = sorted((v["kind"], v["seat"], v.get("trick")) for v in summary["verdicts"])
    if got != want:
        wrong.append(f"verdicts {got}, expected {want}")
    scores = truth.get("scores")
    if scores is None and truth.get("result"):
        scores = truth["result"].get("changes")
    if scores is not None and list(summary["scores"]) != list(scores):
        wrong.append(f"scores {summary['scores']}, expected {scores}")
    return wrong


def run_demo(*, out: TextIO = sys.stdout, summary_dir: Path | None = None) -> int:
    """Play every bundled video through the loop; 0 when each ends as its truth says."""
    status = 0
    for video, layout, truth in demo_runs():
        setup = setup_for_truth(truth)
        title = {"cribbage": "two-player cribbage, one deal", "skat": "Skat, a deal with a revoke"}
        print(
            f"Kiebitz demo: {title.get(truth['game'], truth['game'])} from {video.name}", file=out
        )
        print(
            f"  (the table service reads the video at {layout.name}; the referee and an "
            "emulated peg board run beside it, over a private Mosquitto)",
            file=out,
        )
        summary_path = None if summary_dir is None else summary_dir / f"{video.stem}.json"
        summary = run_table(
            RunConfig(
                setup=setup,
                source=str(video),
                layout=layout,
                headless=True,
                summary=summary_path,
                out=out,
                fps=4.0,
                # the live web view while the video plays (its address is printed)
                web=0,
            )
        )
        if summary.get("interrupted"):  # Ctrl-C: every part stopped; say so, check nothing
            raise KeyboardInterrupt
        wrong = _checked(summary, truth)
        board = summary.get("board") or {}
        verdicts = ", ".join(
            f"{v['kind']} by seat {v['seat']} at trick {v['trick']}" for v in summary["verdicts"]
        )
        pegs = board.get("pegs")
        shown = (
            "pegs " + ", ".join(f"{f} (back peg {b})" for f, b in pegs)
            if pegs
            else f"displays {board.get('displays')}"
        )
        print(
            f"Summary: {len(summary['plays'])} cards played; scores {summary['scores']}; "
            f"verdicts: {verdicts or 'none'}; alerts open: {len(summary['alerts'])}; "
            f"the board shows {shown}.",
            file=out,
        )
        print(
            json.dumps({k: summary[k] for k in ("game", "scores", "plays", "verdicts", "alerts")}),
            file=out,
        )
        print(
            "Checked against the video's truth: "
            + ("all right." if not wrong else "; ".join(wrong)),
            file=out,
        )
        print(file=out)
        status = status or (1 if wrong else 0)
    return status
