"""Board layouts from ``config/boards/*.toml``: loaded, validated, errors with file and key path.

>>> layout = load_layout("two-player-61")
>>> layout.game, layout.tracks, layout.led_count
(61, 2, 148)
>>> sorted(available())[:2]
['three-player-121', 'three-player-61']
"""

from __future__ import annotations

import os
import tomllib
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


#: The most a board layout file may hold (the shipped ones are 1 KiB)
MAX_LAYOUT_BYTES = 1 << 20


def read_layout_data(name_or_path: str | Path) -> tuple[Path, dict[str, Any]]:
    path = layout_path(name_or_path)
    try:
        with path.open("rb") as f:
            # at most MAX_LAYOUT_BYTES: /dev/zero was read until memory ran out
            raw = f.read(MAX_LAYOUT_BYTES + 1)
        text = raw.decode("utf-8")
    except OSError as exc:
        raise LayoutFileError(f"{path}: cannot read: {exc.strerror or exc}") from exc
    except UnicodeDecodeError as exc:
        raise LayoutFileError(f"{path}: not UTF-8 text (byte {exc.start})") from None
    if len(raw) > MAX_LAYOUT_BYTES:
        raise LayoutFileError(
            f"{path}: more than {MAX_LAYOUT_BYTES:,} bytes: no board layout, not read"
        )
    try:
        # a UTF-8 byte-order mark (Windows Notepad writes one) is no TOML statement
        return path, tomllib.loads(text.removeprefix("\ufeff"))
    except tomllib.TOMLDecodeError as exc:
        raise LayoutFileError(f"{path}: not valid TOML: {exc}") from exc
    except RecursionError:  # tomllib recurses once a level: `a = [[[[…]]]]` 1,000 deep
        raise LayoutFileError(f"{path}: not valid TOML: arrays or tables nested too deep") from None


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
