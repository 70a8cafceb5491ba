"""Tenhou mjlog XML (plain or gzip) → games."""

from __future__ import annotations

import gzip
import xml.etree.ElementTree as ET
from pathlib import Path

from table_app.logs.errors import LogReadError
from table_app.logs.tenhou_tags import TenhouTagTranslator
from table_app.rules.record import GameLog

GZIP_MAGIC = b"\x1f\x8b"


def read_mjlog_bytes(data: bytes, source: str) -> tuple[GameLog, ...]:
    if data.startswith(GZIP_MAGIC):
        try:
            data = gzip.decompress(data)
        except (OSError, EOFError) as error:
            raise LogReadError(source, "gzip stream", f"corrupt or truncated gzip data ({error})") from error
    try:
        root = ET.fromstring(data)
    except ET.ParseError as error:
        line, column = error.position
        raise LogReadError(source, f"line {line}, column {column}", f"not well-formed XML ({error.msg})") from error
    translator = TenhouTagTranslator(source)
    for index, element in enumerate(root):
        translator.feed(element.tag, element.attrib, f"tag {index + 1} <{element.tag}>")
    return translator.finish()


def read_mjlog(path: Path) -> tuple[GameLog, ...]:
    return read_mjlog_bytes(path.read_bytes(), str(path))
