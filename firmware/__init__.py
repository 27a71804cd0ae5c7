"""The peg board's firmware as shipped in the wheel (``kiebitz_firmware``).

``main.py`` and the ``pegboard`` package are what ``kiebitz board flash`` copies to
the Pico; they are not imported from here. This file only makes the folder a
package, so that an installed Kiebitz finds the files with importlib.resources.
"""
