"""Make the firmware's pure modules importable on the host.

The modules shared by the Pico and the host (frame codec, CRC-16, COBS, layout
maths, state rendering) live once, in ``firmware/pegboard``: that folder is what
``kiebitz board flash`` copies to the Pico. The host imports the very same files
by putting ``firmware/`` on ``sys.path`` here, so there is no second copy that
could drift. The fakes of the Pico's hardware (``firmware/pegboard_emu``) come
along for the emulator.
"""

from __future__ import annotations

import sys
from pathlib import Path

#: The firmware folder of this source tree (copied to the Pico as it is).
FIRMWARE_DIR = Path(__file__).resolve().parents[2] / "firmware"

if not (FIRMWARE_DIR / "pegboard" / "__init__.py").is_file():  # pragma: no cover
    raise ImportError(f"the peg board firmware is missing: {FIRMWARE_DIR}/pegboard not found")

if str(FIRMWARE_DIR) not in sys.path:
    sys.path.append(str(FIRMWARE_DIR))
