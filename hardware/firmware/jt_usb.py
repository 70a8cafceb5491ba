"""The board's end of the USB CDC serial port: non-blocking reads, plain writes.

MicroPython exposes USB CDC as ``sys.stdin`` / ``sys.stdout``; the streams are parameters so
the tests can hand it a pipe.
"""

import select
import sys

try:  # noqa: SIM105 - MicroPython has no contextlib
    from typing import Any
except ImportError:  # MicroPython has no typing module; annotations are ignored there
    pass

MAX_READ = 256  # per main-loop pass: commands are short, sensor scans must not starve


class UsbPort:
    def __init__(self, stdin: "Any" = None, stdout: "Any" = None) -> None:
        self._in = stdin if stdin is not None else sys.stdin.buffer
        self._out = stdout if stdout is not None else sys.stdout.buffer
        self._poll = select.poll()
        # On the board the idiom is to poll sys.stdin itself and read from its binary buffer.
        self._poll.register(stdin if stdin is not None else sys.stdin, select.POLLIN)

    def read(self) -> bytes:
        """What has arrived so far (possibly nothing); never blocks."""
        data = bytearray()
        while len(data) < MAX_READ and self._poll.poll(0):
            byte = self._in.read(1)
            if not byte:
                break  # end of stream (only on a pipe in the tests)
            data += byte
        return bytes(data)

    def write(self, data: bytes) -> None:
        self._out.write(data)
