"""Where the shipped files are: the firmware, the configuration, the card model.

In the source tree and in an editable install they are the tree's own folders
(``firmware/``, ``config/``); in a wheel they are packages of their own
(``pegboard``, ``pegboard_emu``, ``kiebitz_firmware``, ``kiebitz_config``, mapped
from those folders in ``pyproject.toml``), found with importlib.resources, so a
non-editable install works outside the source tree.

>>> (package_dir("kiebitz_config") / "boards").is_dir()
True
"""

from __future__ import annotations

import importlib.resources
from pathlib import Path

__all__ = ["CONFIG_DIR", "package_dir"]


def package_dir(name: str) -> Path:
    """The folder of the installed package ``name``, as a real path (Kiebitz is
    installed as files, never run from a zip)."""
    try:
        root = importlib.resources.files(name)
    except ModuleNotFoundError as exc:
        raise ImportError(
            f"Kiebitz's {name} is not installed: pip install . (or make demo) from the source"
        ) from exc
    path = Path(str(root))
    if not path.is_dir():  # pragma: no cover - a zip import
        raise ImportError(f"{name} is not a folder of files: {root}")
    return path


#: The shipped configuration: ``tables/``, ``boards/``, ``videos/``, ``mosquitto/``, ``systemd/``.
CONFIG_DIR = package_dir("kiebitz_config")
