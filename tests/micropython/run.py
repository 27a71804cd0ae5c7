# ruff: noqa: UP031 - MicroPython code: %-formatting is smaller and runs everywhere
"""A tiny test runner for MicroPython (which has no unittest).

    micropython tests/micropython/run.py FIRMWARE_DIR mp_codec mp_layout ...

Runs every ``test_*`` function of each module, prints one line per test and a
last line ``mp-runner: N ok, M failed``; exits 1 if any failed.
"""

import sys

firmware, names = sys.argv[1], sys.argv[2:]
here = __file__.rsplit("/", 1)[0] if "/" in __file__ else "."
sys.path.insert(0, firmware)
sys.path.insert(0, here)

ok = failed = 0
for name in names:
    module = __import__(name)
    for attr in sorted(dir(module)):
        if not attr.startswith("test_"):
            continue
        try:
            getattr(module, attr)()
        except Exception as exc:
            failed += 1
            print("FAIL %s.%s: %s: %s" % (name, attr, type(exc).__name__, exc))
            sys.print_exception(exc)
        else:
            ok += 1
            print("ok   %s.%s" % (name, attr))
print("mp-runner: %d ok, %d failed" % (ok, failed))
sys.exit(1 if failed else 0)
