"""MicroPython entry point on the RP2040: the board speaks the protocol over USB CDC."""

import select
import sys

import jt_board
import machine
import micropython

# The protocol's bytes are data: 0x03 must not raise KeyboardInterrupt on the USB serial port.
micropython.kbd_intr(-1)


class UsbPort:
    def __init__(self) -> None:
        self._poll = select.poll()
        self._poll.register(sys.stdin, select.POLLIN)

    def read(self) -> bytes:
        data = bytearray()
        while len(data) < 256 and self._poll.poll(0):
            data += sys.stdin.buffer.read(1)
        return bytes(data)

    def write(self, data: bytes) -> None:
        sys.stdout.buffer.write(data)


jt_board.build(machine, UsbPort()).run_forever()
