"""Hand-made games written as mjai logs (jantaku's own dialect), for the command-line tests."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from table_app.rules.events import GameEvent
from table_app.rules.mjai_codec import encode_event


def write_mjai(path: Path, events: Iterable[GameEvent]) -> Path:
    path.write_text("".join(encode_event(e) + "\n" for e in events), encoding="utf-8")
    return path
