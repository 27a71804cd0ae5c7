"""The allocator keeps what a frame's reading frees (vision.memory): the next
frame's large arrays take no fresh pages."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Faults a process takes for ten 48 MB arrays (a 4608 x 2592 frame's blob labels)
# made, written and freed one after another, after one such array to warm up.
FAULTS = """
import resource, sys
import numpy as np
if sys.argv[1] == "keep":
    from vision.memory import keep_freed_memory
    assert keep_freed_memory()
def work():
    a = np.empty(48 * 1024 * 1024, np.uint8)
    a[::4096] = 1
work()
f0 = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
for _ in range(10):
    work()
print(resource.getrusage(resource.RUSAGE_SELF).ru_minflt - f0)
"""


def _faults(mode: str) -> int:
    out = subprocess.run(
        [sys.executable, "-c", FAULTS, mode], capture_output=True, text=True, check=True, cwd=ROOT
    )
    return int(out.stdout.strip())


def test_a_reader_keeps_freed_memory_for_the_next_frame():
    # glibc hands a block this large back when it is freed: every array takes its
    # pages afresh (a fault each, or each 2 MB of them with huge pages); kept, none
    plain, kept = _faults("plain"), _faults("keep")
    assert plain >= 100
    assert kept < plain / 4, (plain, kept)


def test_a_block_larger_than_a_threads_heap_is_still_had_in_a_thread():
    # with no block of its own pages, a thread's 200 MB (past its arena's 64 MB
    # heaps) comes from the main heap instead of failing
    code = (
        "import threading, numpy as np\n"
        "from vision.memory import keep_freed_memory\n"
        "assert keep_freed_memory()\n"
        "out = []\n"
        "t = threading.Thread(target=lambda: out.append(int(np.ones(200 << 20, np.uint8).sum())))\n"
        "t.start(); t.join(); print(out[0])\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert int(out.stdout) == 200 << 20


def test_every_recogniser_sets_it_and_once_is_enough():
    from vision.memory import keep_freed_memory
    from vision.recognize import Recognizer

    Recognizer()
    assert keep_freed_memory.cache_info().currsize == 1
    assert keep_freed_memory() is True  # CI and the Pi run glibc
