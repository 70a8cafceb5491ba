"""Log readers (file I/O lives here, outside the pure rules core).

``read_log(path)`` recognises the format by content: Tenhou mjlog XML (plain or gzip),
tenhou.net/6 JSON, mjai JSON lines, Tenhou client transcripts.
"""

from table_app.logs.errors import LogReadError
from table_app.logs.reader import log_files, read_log

__all__ = ["LogReadError", "log_files", "read_log"]
