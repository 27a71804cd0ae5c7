"""``kiebitz board flash``: copy the firmware and the layout to a Pico with ``mpremote``.

:func:`stage` builds the files the Pico gets (``main.py``, ``pegboard/``,
``board_config.py`` holding the layout as a Python literal, since MicroPython
reads no TOML); :func:`mpremote_command` the one ``mpremote`` command line that
copies them and resets the board.

>>> mpremote_command("/dev/ttyACM0")[:4]
['mpremote', 'connect', '/dev/ttyACM0', 'fs']
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from controller.board import _firmware

__all__ = ["board_config_source", "mpremote_command", "stage"]


def board_config_source(layout_data: dict[str, Any], source: str) -> str:
    return (
        f'"""The peg board layout, written by kiebitz board flash from {source}."""\n\n'
        f"LAYOUT = {layout_data!r}\n"
    )


def stage(layout_data: dict[str, Any], source: str, target: Path) -> list[Path]:
    """Write the files for the Pico under ``target``; return them."""
    target.mkdir(parents=True, exist_ok=True)
    package = target / "pegboard"
    if package.exists():
        shutil.rmtree(package)
    package.mkdir()
    files = []
    for path in sorted(_firmware.PEGBOARD_DIR.glob("*.py")):
        shutil.copy2(path, package / path.name)
        files.append(package / path.name)
    shutil.copy2(_firmware.FIRMWARE_DIR / "main.py", target / "main.py")
    files.append(target / "main.py")
    config = target / "board_config.py"
    config.write_text(board_config_source(layout_data, source), encoding="utf-8")
    files.append(config)
    return files


def mpremote_command(port: str, mpremote: str = "mpremote") -> list[str]:
    """The command to run inside the staging folder: copy, then reset (main.py starts)."""
    return [
        mpremote,
        "connect",
        port,
        "fs",
        "cp",
        "-r",
        "pegboard",
        ":",
        "+",
        "fs",
        "cp",
        "board_config.py",
        ":board_config.py",
        "+",
        "fs",
        "cp",
        "main.py",
        ":main.py",
        "+",
        "reset",
    ]
