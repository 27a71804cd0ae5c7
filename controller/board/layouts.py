"""Board layouts from ``config/boards/*.toml``: loaded, validated, errors with file and key path.

>>> layout = load_layout("two-player-61")
>>> layout.game, layout.tracks, layout.led_count
(61, 2, 148)
>>> sorted(available())[:2]
['three-player-121', 'three-player-61']
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from pegboard.layout import Layout, LayoutError

from controller.board import _firmware  # noqa: F401 - puts the firmware on sys.path
from controller.board.errors import LayoutFileError
from controller.resources import CONFIG_DIR

__all__ = ["BOARDS_DIR", "Layout", "available", "layout_path", "load_layout", "read_layout_data"]

#: The layouts shipped with Kiebitz.
BOARDS_DIR = CONFIG_DIR / "boards"


def available() -> list[str]:
    """Names of the shipped layouts."""
    return sorted(p.stem for p in BOARDS_DIR.glob("*.toml"))


def layout_path(name_or_path: str | Path) -> Path:
    """A shipped layout's file by name, or the path given."""
    path = Path(name_or_path)
    # lexists: a symlink that loops or dangles is the user's file, and reading it
    # says so ("Too many levels of symbolic links"); it was "no board layout named"
    if path.suffix == ".toml" or os.path.lexists(path) or len(path.parts) > 1:
        return path
    candidate = BOARDS_DIR / f"{name_or_path}.toml"
    if not candidate.exists():
        names = ", ".join(available())
        raise LayoutFileError(f"no board layout named {str(name_or_path)!r} (shipped: {names})")
    return candidate


def read_layout_data(name_or_path: str | Path) -> tuple[Path, dict[str, Any]]:
    from controller.config import read_toml_file

    path = layout_path(name_or_path)
    try:
        return path, read_toml_file(path, "board layout")
    except ValueError as exc:
        raise LayoutFileError(str(exc)) from None


def load_layout(name_or_path: str | Path) -> Layout:
    """A validated :class:`~pegboard.layout.Layout`; :class:`LayoutFileError` names what is wrong.

    The message reads ``FILE: KEY.PATH: what was expected, got what``.
    """
    path, data = read_layout_data(name_or_path)
    return layout_from_data(data, source=str(path))


def layout_from_data(data: dict[str, Any], source: str = "<layout>") -> Layout:
    try:
        return Layout(data)
    except LayoutError as exc:
        raise LayoutFileError(f"{source}: {exc}") from exc
