"""firmware_bridge: the Pi's side of the serial link to the table's sensor board.

Pure (bytes, numbers and time in; values out): ``cobs``, ``crc``, ``frame`` and ``messages``
(the codec, docs/protocol.md), ``calibration``, ``plausibility``, ``debounce``, ``tray_view``
and ``session`` (the host's protocol state machine), ``observations`` (what the link reports),
and the simulator (``simulator``, ``sim_script``, ``sim_faults``).

Shells (ports, threads, real time): ``serial_link`` (``SerialTableLink`` on pyserial),
``sim_transport`` (the simulator on a pty or ``loop://``) and ``fake_port`` (the port fake).
"""
