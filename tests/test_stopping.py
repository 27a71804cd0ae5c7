"""The main thread's wait for a stop is woken by a signal whichever thread took it
(controller/stopping.py): Ctrl-C and a service manager's SIGTERM must always stop a
table, not only when the kernel happened to hand the signal to the main thread."""

import contextlib
import signal
import threading

from controller.stopping import wait_for_stop


def _signal_another_thread(signum):
    """Park a thread and send ``signum`` to it, not to the process: the case the
    kernel chooses now and then for a signal sent to the whole process."""
    parked = threading.Event()
    other = threading.Thread(target=parked.wait, daemon=True)
    other.start()

    def send():
        signal.pthread_kill(other.ident, signum)
        parked.set()

    threading.Timer(0.1, send).start()


def _with_handler(signum, handler):
    old = signal.signal(signum, handler)
    return lambda: signal.signal(signum, old)


def test_a_sigterm_taken_by_another_thread_stops_the_wait():
    stop = threading.Event()
    by = []
    restore = _with_handler(signal.SIGUSR1, lambda *_: (by.append("signal"), stop.set()))
    # a guard, so that a failure is a failed test and not a hung suite
    guard = threading.Timer(20.0, lambda: (by.append("guard"), stop.set()))
    guard.start()
    try:
        _signal_another_thread(signal.SIGUSR1)
        wait_for_stop(stop)
    finally:
        guard.cancel()
        restore()
    assert by == ["signal"]


def test_a_ctrl_c_taken_by_another_thread_interrupts_the_wait():
    stop = threading.Event()
    guard = threading.Timer(20.0, stop.set)
    guard.start()
    interrupted = False
    restore = _with_handler(signal.SIGINT, signal.default_int_handler)
    try:
        _signal_another_thread(signal.SIGINT)
        wait_for_stop(stop)
    except KeyboardInterrupt:
        interrupted = True
    finally:
        guard.cancel()
        restore()
    assert interrupted and not stop.is_set()


def test_a_stop_set_by_another_thread_ends_the_wait():
    stop = threading.Event()
    threading.Timer(0.05, stop.set).start()
    wait_for_stop(stop)
    assert stop.is_set()


def test_while_stopping_a_second_signal_is_said_a_third_obeyed_and_the_handlers_put_back(capfd):
    import os

    import pytest

    from controller.stopping import calm_while_stopping

    before = (signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM))
    restore = calm_while_stopping("kiebitz test")
    try:
        os.kill(os.getpid(), signal.SIGTERM)  # the second: said, let be
        assert "kiebitz test: already stopping" in capfd.readouterr().err
        with pytest.raises(KeyboardInterrupt):
            os.kill(os.getpid(), signal.SIGINT)  # the third: at once
            for _ in range(100):  # the handler runs between bytecodes, soon
                threading.Event().wait(0.01)
    finally:
        restore()
    assert (signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)) == before


def test_a_ctrl_c_swallowed_where_it_was_raised_is_obeyed_by_the_loop():
    """A native library's import that runs Python code and catches every error it
    meets (onnxruntime's pybind11 module, imported as the recogniser loads) took a
    Ctrl-C in the first seconds of ``kiebitz demo`` and the demo played on to its
    end: the noted Ctrl-C is raised by the loop's next look, once."""
    from controller.stopping import note_ctrl_c, obey_ctrl_c

    restore = _with_handler(signal.SIGINT, signal.default_int_handler)
    forget = note_ctrl_c()
    try:
        with contextlib.suppress(KeyboardInterrupt):  # swallowed, as the native import does
            signal.raise_signal(signal.SIGINT)
        stop = threading.Event()
        guard = threading.Timer(20.0, stop.set)
        guard.start()
        try:
            interrupted = False
            try:
                wait_for_stop(stop, poll_s=0.01)
            except KeyboardInterrupt:
                interrupted = True
        finally:
            guard.cancel()
        assert interrupted and not stop.is_set()
        obey_ctrl_c()  # obeyed once: the next look raises nothing
        signal.raise_signal(signal.SIGINT)  # and the handler still raises at once
    except KeyboardInterrupt:
        pass
    else:
        raise AssertionError("the noting handler did not raise KeyboardInterrupt")
    finally:
        forget()
        put_back = signal.getsignal(signal.SIGINT)
        restore()  # (the test runner's own: a pytest-xdist worker ignores SIGINT)
    obey_ctrl_c()  # forgotten when the command ends
    assert put_back is signal.default_int_handler


def test_a_handler_someone_else_set_is_left_alone():
    """Only Python's own Ctrl-C handler is replaced (a test runner's, an embedding's
    stays)."""
    from controller.stopping import note_ctrl_c

    theirs = []
    restore = _with_handler(signal.SIGINT, lambda *_: theirs.append(1))
    try:
        forget = note_ctrl_c()
        signal.raise_signal(signal.SIGINT)
        forget()
        assert theirs == [1]
    finally:
        restore()


def test_a_part_whose_thread_a_ctrl_c_left_unstarted_closes(tmp_path):
    """A Ctrl-C inside ``Thread.start`` leaves the thread made and never started;
    the part's close then raised "cannot join thread before it is started" over the
    interrupt, a traceback instead of ``kiebitz: interrupted`` (seen in ``kiebitz
    demo`` on a loaded machine). Each part's close skips a thread not running."""
    from controller.board.emulator import Emulator
    from controller.board.layouts import load_layout
    from controller.board.link import BoardLink
    from controller.bus.bus import MemoryBus
    from controller.web.server import WebServer

    web = WebServer(MemoryBus(), port=0, read_only=True)
    web._thread = threading.Thread(target=lambda: None)
    web.close()
    layout = load_layout("two-player-61")
    with Emulator(layout) as emulator:
        link = BoardLink(emulator.port, layout)
        link._thread = threading.Thread(target=lambda: None)
        link.close()
        emulator._thread = threading.Thread(target=lambda: None)
    assert emulator._thread is None
