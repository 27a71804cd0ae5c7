# These files run under the unix port of MicroPython (tests/test_firmware_micropython.py
# starts them); pytest must not import them under CPython.
collect_ignore_glob = ["*.py"]
