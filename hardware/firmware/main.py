"""MicroPython entry point on the RP2040: the board speaks the protocol over USB CDC."""

import jt_board
import jt_usb
import machine
import micropython

# The protocol's bytes are data: 0x03 must not raise KeyboardInterrupt on the USB serial port.
micropython.kbd_intr(-1)

jt_board.build(machine, jt_usb.UsbPort()).run_forever()
