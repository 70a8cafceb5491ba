"""Tenhou client-protocol transcripts (``Get: <TAG …/>`` lines) → games.

The transcript is seen from one seat, which the protocol always numbers 0: its own draws
carry tile ids, the others' draws are bare ``<U/>`` ``<V/>`` ``<W/>`` tags, and a lower-case
discard tag marks another player's tsumogiri. ``Send:`` lines are the client's own requests,
whose outcome the server echoes, so only ``Get:`` lines are read.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Final

from table_app.domain.seat import Seat
from table_app.logs.errors import LogReadError
from table_app.logs.tenhou_tags import TenhouTagTranslator
from table_app.rules.record import GameLog

_TAG: Final = re.compile(r"<(\w+)((?:\s+[\w]+=\"[^\"]*\")*)\s*/?>")
_ATTR: Final = re.compile(r"([\w]+)=\"([^\"]*)\"")
_RECEIVED: Final = "Get:"


def read_tenhou_net_text(text: str, source: str) -> tuple[GameLog, ...]:
    translator = TenhouTagTranslator(source, seen_from=Seat.S0)
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.startswith(_RECEIVED):
            continue
        body = line[len(_RECEIVED) :].strip()
        end = 0
        for match in _TAG.finditer(body):
            if body[end : match.start()].strip():
                raise LogReadError(source, f"line {number}, column {end + len(_RECEIVED) + 2}", "not a tag")
            attrs = dict(_ATTR.findall(match.group(2)))
            translator.feed(match.group(1), attrs, f"line {number}")
            end = match.end()
        if body[end:].strip():
            raise LogReadError(source, f"line {number}, column {end + len(_RECEIVED) + 2}", "truncated or corrupt tag")
    return translator.finish()


def read_tenhou_net(path: Path) -> tuple[GameLog, ...]:
    return read_tenhou_net_text(path.read_text(encoding="utf-8"), str(path))
