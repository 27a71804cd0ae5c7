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

A Ctrl-C can also be swallowed where it is raised: a native library's import that
runs Python code and catches every error it meets (onnxruntime's pybind11 module,
imported when the recogniser loads: a Ctrl-C in the first seconds of ``kiebitz
demo`` on a loaded machine, about one in forty, and the demo played on). So
:func:`note_ctrl_c` notes each Ctrl-C as well as raising it, and the loops that run
until stopped call :func:`obey_ctrl_c` once a frame or a slice: a noted Ctrl-C
that never arrived as an exception is raised there.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable

POLL_S = 0.2  # how soon a signal taken by another thread is acted on, at the latest


_noted = threading.Event()  # a Ctrl-C came since the command began (note_ctrl_c)


def note_ctrl_c() -> Callable[[], None]:
    """Main thread, where Python's own Ctrl-C handler is in place: Ctrl-C raises
    ``KeyboardInterrupt`` as before and is also noted, for :func:`obey_ctrl_c`.
    Returns what puts the handler back and forgets the note (call it once the
    command has ended)."""
    import signal

    if (
        threading.current_thread() is not threading.main_thread()
        or signal.getsignal(signal.SIGINT) is not signal.default_int_handler
    ):
        return lambda: None
    _noted.clear()

    def noted(signum: int, frame: object) -> None:
        _noted.set()
        raise KeyboardInterrupt

    signal.signal(signal.SIGINT, noted)

    def restore() -> None:
        if signal.getsignal(signal.SIGINT) is noted:
            signal.signal(signal.SIGINT, signal.default_int_handler)
        _noted.clear()

    return restore


def obey_ctrl_c() -> None:
    """Raise ``KeyboardInterrupt`` if a Ctrl-C was noted and has not been obeyed:
    one swallowed where it was raised. Once only: the loop that obeys it stops."""
    if _noted.is_set():
        _noted.clear()
        raise KeyboardInterrupt


def ctrl_c_obeyed() -> None:
    """A Ctrl-C was caught and is being acted on: the note is spent."""
    _noted.clear()


def wait_for_stop(stop: threading.Event, poll_s: float = POLL_S) -> None:
    """Return once ``stop`` is set; a signal's handler (KeyboardInterrupt for Ctrl-C,
    ``stop.set`` for SIGTERM) runs within ``poll_s`` whichever thread took it, and a
    Ctrl-C swallowed where it was raised is raised here (:func:`obey_ctrl_c`)."""
    while not stop.wait(poll_s):
        obey_ctrl_c()


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


def calm_while_stopping(prog: str, *, patience: int = 2) -> Callable[[], None]:
    """Once a command has begun to stop (a first Ctrl-C or SIGTERM, caught): another
    Ctrl-C or SIGTERM while it winds down is said (one line on standard error,
    ``prog: already stopping …``) and otherwise let be, so that the wind-down is
    not cut short part way: ``kiebitz run``'s summary written, its broker stopped
    and its folder removed (two quick Ctrl-Cs ended it with the summary
    unwritten). The wind-down's waits are bounded; the ``patience``-th signal
    after the first stops at once all the same (a ``KeyboardInterrupt``). Main
    thread only, as :func:`stop_on_sigterm`; returns what puts the handlers before
    back (call it once the wind-down is done)."""
    import os
    import signal

    count = 0
    words = f"{prog}: already stopping; the summary and the broker's stop come first "
    words += "(once more: at once)\n"

    def again(signum: int, frame: object) -> None:
        nonlocal count
        count += 1
        if count >= patience:
            raise KeyboardInterrupt
        # os.write, not print: the handler may run in the middle of a print
        with contextlib.suppress(OSError):
            os.write(2, words.encode())

    if threading.current_thread() is not threading.main_thread():
        return lambda: None
    before = {n: signal.signal(n, again) for n in (signal.SIGINT, signal.SIGTERM)}

    def restore() -> None:
        for n, handler in before.items():
            signal.signal(n, handler)

    return restore
