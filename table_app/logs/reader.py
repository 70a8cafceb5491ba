"""Which reader a file needs, decided by its content; a folder means every file in it."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from table_app.logs.errors import LogReadError
from table_app.logs.mjai import read_mjai_text
from table_app.logs.mjlog import GZIP_MAGIC, read_mjlog_bytes
from table_app.logs.tenhou6 import read_tenhou6_text
from table_app.logs.tenhou_net import read_tenhou_net_text
from table_app.rules.record import GameLog


def log_files(paths: Iterable[Path]) -> list[Path]:
    """Files named, and every file under each folder named (sorted, hidden files left out)."""
    found: list[Path] = []
    for path in paths:
        if path.is_dir():
            found.extend(
                sorted(
                    p
                    for p in path.rglob("*")
                    if p.is_file() and not any(part.startswith(".") for part in p.relative_to(path).parts)
                )
            )
        else:
            found.append(path)
    return found


def read_log(path: Path) -> tuple[GameLog, ...]:
    source = str(path)
    try:
        data = path.read_bytes()
    except OSError as error:
        raise LogReadError(source, "file", f"cannot read ({error.strerror})") from error
    if data.startswith(GZIP_MAGIC):
        return read_mjlog_bytes(data, source)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise LogReadError(source, f"byte {error.start}", "not UTF-8 text nor gzip") from error
    head = text.lstrip()[:200]
    if head.startswith("<"):
        return read_mjlog_bytes(data, source)
    if head.startswith(("Get:", "Send:")):
        return read_tenhou_net_text(text, source)
    if head.startswith("{"):
        first_line = head.splitlines()[0] if head else ""
        if '"type"' in first_line:
            return read_mjai_text(text, source)
        return read_tenhou6_text(text, source)
    raise LogReadError(source, "start", "not a known log format (mjlog, tenhou.net/6, mjai, client transcript)")
