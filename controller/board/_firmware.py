"""Make the firmware's pure modules importable on the host.

The modules shared by the Pico and the host (frame codec, CRC-16, COBS, layout
maths, state rendering) live once, in ``firmware/pegboard``: that folder is what
``kiebitz board flash`` copies to the Pico. The host imports the very same files
as the package ``pegboard`` (mapped from ``firmware/pegboard`` in
``pyproject.toml``; a tree that was never installed gets ``firmware/`` on
``sys.path`` here), so there is no second copy that could drift. The fakes of the
Pico's hardware (``firmware/pegboard_emu``) come
along for the emulator.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

if importlib.util.find_spec("pegboard") is None:  # pragma: no cover - a tree never installed
    sys.path.append(str(Path(__file__).resolve().parents[2] / "firmware"))

from controller.resources import package_dir

#: ``main.py`` and ``manifest.py``: with the ``pegboard`` package, what the Pico runs.
FIRMWARE_DIR = package_dir("kiebitz_firmware")
#: The firmware's package, copied to the Pico as it is and imported by the host.
PEGBOARD_DIR = package_dir("pegboard")
#: The fakes of the Pico's hardware, for the emulator.
EMULATOR_DIR = package_dir("pegboard_emu")
