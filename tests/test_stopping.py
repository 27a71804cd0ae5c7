"""The main thread's wait for a stop is woken by a signal whichever thread took it
(controller/stopping.py): Ctrl-C and a service manager's SIGTERM must always stop a
table, not only when the kernel happened to hand the signal to the main thread."""

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
