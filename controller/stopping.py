"""Waiting on the main thread until told to stop, in a way a signal always reaches.

A signal sent to a process (Ctrl-C's SIGINT, a service manager's SIGTERM) is taken by
whichever of its threads the kernel picks. Python runs the handler on the main thread,
but only when the main thread next runs Python code: a main thread parked in a bare
``Event.wait()`` is woken by the signal only if the signal landed on it. Landed on one
of the broker client's threads, the board link's or the recorder's, the Ctrl-C is
noted and never acted on, and the program runs on until it is killed: seen in CI,
about one ``kiebitz run`` in ten while another run shared the machine, and the same
would hold a ``systemctl stop`` of the referee for its whole timeout.

So the main thread waits in short slices and looks between them.
"""

from __future__ import annotations

import threading

POLL_S = 0.2  # how soon a signal taken by another thread is acted on, at the latest


def wait_for_stop(stop: threading.Event, poll_s: float = POLL_S) -> None:
    """Return once ``stop`` is set; a signal's handler (KeyboardInterrupt for Ctrl-C,
    ``stop.set`` for SIGTERM) runs within ``poll_s`` whichever thread took it."""
    while not stop.wait(poll_s):
        pass


class Terminated(KeyboardInterrupt):
    """SIGTERM (``systemctl stop``, ``kill``) raised on the main thread as Ctrl-C's
    ``KeyboardInterrupt`` is (:func:`stop_on_sigterm`), so a command that stops
    cleanly on Ctrl-C stops the same way on it: its broker stopped, its folders
    removed, its summary printed. Python's default for SIGTERM is to die at once,
    leaving what the command started (``kiebitz run``'s own Mosquitto) running."""


def stop_on_sigterm() -> None:
    """Turn SIGTERM into :class:`Terminated` on the main thread (nothing elsewhere:
    only the main thread may set a handler)."""
    import signal

    def terminated(signum: int, frame: object) -> None:
        raise Terminated

    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, terminated)
