# Freeze the firmware into a MicroPython build for the Pico:
#   make -C ports/rp2 BOARD=RPI_PICO FROZEN_MANIFEST=/path/to/kiebitz/firmware/manifest.py
# (kiebitz board flash copies the same files with mpremote instead.)

include("$(PORT_DIR)/boards/manifest.py")  # noqa: F821
package("pegboard")  # noqa: F821
module("main.py")  # noqa: F821
