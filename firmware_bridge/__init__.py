"""firmware_bridge: the Pi's side of the serial link to the table's sensor board.

Pure (bytes, numbers and time in; values out): ``cobs``, ``crc``, ``frame``, ``messages`` and
``layouts`` (the codec, docs/protocol.md); ``calibration``, ``plausibility``, ``sensor_picture``,
``debounce``, ``reading_builder``, ``link_settings`` and ``session`` (the host's protocol state
machine); ``observations`` (what the link reports); the simulator (``simulator``,
``sim_script``, ``sim_faults``). ``calibration_file`` reads and writes calibration JSON.

Shells (ports, threads, real time): ``serial_link`` (``SerialTableLink`` on pyserial),
``sim_transport`` (the simulator on a pty or ``loop://``) and ``fake_port`` (the port fake).
"""
