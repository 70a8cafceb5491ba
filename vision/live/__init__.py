"""The table at play: the table reader (a calibrated frame → a ``TableReading``), the tracker
(readings over frames → the referee's observations) and the thread that runs them."""
