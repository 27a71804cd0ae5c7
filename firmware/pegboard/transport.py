"""The byte stream to the host: USB CDC (stdin/stdout on the Pico) or any stream pair.

On the Pico the host's serial port is ``sys.stdin.buffer``/``sys.stdout.buffer``;
:meth:`read` polls and takes the bytes waiting, so the main loop never blocks.
The emulator passes a pseudo-terminal's streams instead.
"""

import select


class StreamTransport:
    def __init__(self, reader, writer, limit=512):
        self.reader = reader
        self.writer = writer
        self.limit = limit
        self._poll = select.poll()
        self._poll.register(reader, select.POLLIN)

    def readable(self):
        for entry in self._poll.poll(0):
            events = entry[1]
            if events & (select.POLLHUP | select.POLLERR):
                return False
            if events & select.POLLIN:
                return True
        return False

    def read(self):
        """The bytes waiting now (perhaps none), at most ``limit``."""
        out = bytearray()
        try:
            while len(out) < self.limit and self.readable():
                byte = self.reader.read(1)
                if not byte:
                    break
                out += byte
        except OSError:
            pass  # no host on the other end: nothing to read
        return out

    def write(self, data):
        try:
            self.writer.write(data)
            flush = getattr(self.writer, "flush", None)
            if flush is not None:
                flush()
        except OSError:
            pass  # no host listening: the frame is lost, the next state heals it
