"""Reading a file that holds one JSON object: label files, grid files, enrollments, calibrations,
marks files, models' metadata. Each reader raises its own error class; what goes wrong before
its own checks start (no file, a folder, unreadable, not UTF-8, not JSON, not an object) is
told the same way everywhere, in one line naming the file and the problem.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

#: How a problem names the JSON value found where an object was wanted.
_KINDS: dict[type, str] = {list: "an array", str: "a string", int: "a number", float: "a number", bool: "true or false"}


def read_json_object(path: Path, what: str, error: Callable[[str], Exception]) -> dict[str, Any]:
    """The JSON object ``path`` holds (UTF-8). Anything else raises ``error(message)``, the
    message ``"{what} {path}: {problem}"`` (``what`` names the kind of file, e.g. "labels file"):
    the file does not exist, is a folder, cannot be read, is not UTF-8 text, is not JSON (with
    the line and column), or holds another JSON value than an object."""

    def refused(problem: str) -> Exception:
        return error(f"{what} {path}: {problem}")

    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise refused("does not exist") from None
    except IsADirectoryError:
        raise refused("is a folder, not a file") from None
    except OSError as failure:
        raise refused(f"cannot be read ({failure.strerror or failure})") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as failure:
        raise refused(f"not UTF-8 text (byte {data[failure.start]:#04x} at offset {failure.start})") from None
    try:
        document = json.loads(text)
    except json.JSONDecodeError as failure:
        raise refused(f"not JSON (line {failure.lineno} column {failure.colno}: {failure.msg})") from None
    except RecursionError:
        raise refused("not JSON that can be read (nested too deeply)") from None
    if not isinstance(document, dict):
        kind = "null" if document is None else _KINDS.get(type(document), type(document).__name__)
        raise refused(f"must hold a JSON object {{...}}, not {kind}")
    return document
