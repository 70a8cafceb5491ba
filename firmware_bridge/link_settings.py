"""How patient the host is with the board: timeouts, retries, debounce (docs/protocol.md §5)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class LinkSettings:
    heartbeat_timeout_s: float = 1.5  # no valid frame for this long: the link is lost
    handshake_retry_s: float = 0.25  # REQUEST_HELLO is repeated this often until HELLO comes
    handshake_timeout_s: float = 1.5
    debounce_samples: int = 2  # consecutive equal samples before a reading is reported
    garbage_limit: int = 16  # bad frames in a row before the port is reopened
    # Frames of another protocol version in a row (no good frame between) before the board is
    # refused as incompatible: one alone is noise that happened to pass the CRC, and skipped.
    other_version_limit: int = 3
    reconnect_initial_s: float = 0.1  # first retry after a failure; doubles up to the max
    reconnect_max_s: float = 1.0
    read_timeout_s: float = 0.05
    baudrate: int = 115_200
