"""Shared by the peg board tests: an emulator and a host link on a pseudo-terminal."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import controller.board  # noqa: F401 - puts firmware/ on sys.path
from controller.board.emulator import Emulator, Snapshot
from controller.board.layouts import load_layout
from controller.board.link import BoardLink
from controller.board.model import BoardState

# isort: split
from pegboard.layout import Layout
from pegboard.render import Renderer


def expected(layout: Layout, state: BoardState) -> tuple[int, ...]:
    """The LED words the firmware shows for a state without animation."""
    return tuple(Renderer(layout).frame(state.to_wire(layout), now=0))


def shows(layout: Layout, state: BoardState):  # type: ignore[no-untyped-def]
    want = expected(layout, state)
    texts = {seat: s for seat, s in enumerate(state.scores)}

    def check(snap: Snapshot) -> bool:
        if snap.leds != want:
            return False
        return all(
            snap.displays.get(seat, "").strip() == str(v)
            for seat, v in texts.items()
            if v is not None
        )

    return check


@contextmanager
def board_and_link(
    tmp_path: Path, name: str = "two-player-61", **link_options: object
) -> Iterator[tuple[Emulator, BoardLink, Layout]]:
    layout = load_layout(name)
    with (
        Emulator(layout, link=tmp_path / "ttyKIEBITZ", seed=len(str(tmp_path))) as emulator,
        BoardLink(emulator.port, layout, **link_options) as link,  # type: ignore[arg-type]
    ):
        yield emulator, link, layout
