"""Small files read whole (a config, a layout, a key, a list of labels), never waiting
for ever and never more than a bound.

A named pipe (FIFO) that nobody writes to blocked ``open()`` for ever: the config
check, the services and the web view hung on one given where a file belongs. Here
it opens at once; where nothing is written to it, it is an :class:`OSError` of its
own (``a named pipe (FIFO) with no writer``). A pipe that is written to (a shell's
``<(…)``) reads as a file does.

>>> import os, tempfile
>>> folder = tempfile.mkdtemp()
>>> fifo = os.path.join(folder, "fifo")
>>> os.mkfifo(fifo)
>>> read_capped(fifo, 10)
Traceback (most recent call last):
...
OSError: [Errno 61] a named pipe (FIFO) with no writer: nothing to read
>>> with open(os.path.join(folder, "a.txt"), "wb") as fh:
...     _ = fh.write(b"0123456789abc")
>>> read_capped(os.path.join(folder, "a.txt"), 4)
b'0123'
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

__all__ = ["NO_WRITER", "read_capped"]

#: Why a named pipe with no writer is not read.
NO_WRITER = "a named pipe (FIFO) with no writer: nothing to read"


def read_capped(path: str | Path, most: int) -> bytes:
    """At most ``most`` bytes from the start of ``path`` (ask for one more than a
    limit to learn that a file is over it). :class:`OSError` where it cannot be read:
    not there, a folder, or a named pipe with no writer (:data:`NO_WRITER`)."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    fd = os.open(path, flags)  # O_NONBLOCK: a FIFO opens without a writer
    with open(fd, "rb") as fh:
        head = b""
        if stat.S_ISFIFO(os.fstat(fd).st_mode):
            try:
                head = os.read(fd, most)
            except BlockingIOError:  # a writer, nothing written yet: wait for it
                pass
            else:
                if not head and most > 0:  # no writer (or one that wrote nothing)
                    raise OSError(errno.ENODATA, NO_WRITER)
        os.set_blocking(fd, True)
        return head + fh.read(most - len(head))
