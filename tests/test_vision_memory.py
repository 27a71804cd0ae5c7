"""The allocator keeps what a frame's reading frees (vision.memory): the next
frame's arrays take no fresh pages; a reading that is no frame of a loop hands it
back."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Faults a process takes for ten 24 MB arrays (two of a 4608 x 2592 frame's masks)
# made, written and freed one after another, after one such array to warm up.
FAULTS = """
import resource, sys
import numpy as np
if sys.argv[1] == "keep":
    from vision.memory import keep_freed_memory
    assert keep_freed_memory()
def work():
    a = np.empty(24 * 1024 * 1024, np.uint8)
    a[::4096] = 1
work()
f0 = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
for _ in range(10):
    work()
print(resource.getrusage(resource.RUSAGE_SELF).ru_minflt - f0)
"""

# Resident memory (MB) with eight 24 MB arrays freed and kept, and after release_memory.
RELEASE = """
import numpy as np
from vision.memory import keep_freed_memory, release_memory
assert keep_freed_memory()
def rss():
    line = [l for l in open("/proc/self/status") if l.startswith("VmRSS")][0]
    return int(line.split()[1]) // 1024
arrays = [np.ones(24 * 1024 * 1024, np.uint8) for _ in range(8)]
del arrays
kept = rss()
release_memory()
print(kept, rss())
"""


def _run(code: str, *args: str) -> str:
    out = subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, check=True, cwd=ROOT
    )
    return out.stdout.strip()


def test_a_reader_keeps_freed_memory_for_the_next_frame():
    # glibc hands a block this large back when it is freed: every array takes its
    # pages afresh (a fault each, or each 2 MB of them with huge pages); kept, none
    plain, kept = int(_run(FAULTS, "plain")), int(_run(FAULTS, "keep"))
    assert plain >= 100
    assert kept < plain / 4, (plain, kept)


def test_what_a_single_picture_freed_is_handed_back():
    kept, released = (int(v) for v in _run(RELEASE).split())
    assert kept - released >= 150, (kept, released)  # of the 192 MB freed and kept


def test_every_recogniser_sets_it():
    code = (
        "import ctypes, ctypes.util\n"
        "from vision.recognize import Recognizer\n"
        "from vision.memory import keep_freed_memory\n"
        "assert keep_freed_memory.cache_info().currsize == 0\n"
        "Recognizer()\n"
        "print(keep_freed_memory.cache_info().currsize, keep_freed_memory())\n"
    )
    assert _run(code) == "1 True"  # CI and the Pi run 64-bit glibc
