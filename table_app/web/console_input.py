"""Read console commands from JSON request bodies; every problem names the field at fault.

This is the JSON edge: the result is a frozen command value, or :class:`BadInputError` whose
message goes back to the client with a 400.
"""

from __future__ import annotations

import json
from typing import Any

from table_app.domain.notation import TileNotationError, parse_tile
from table_app.view.ports import ChooseProfile, Confirm, ConsoleCommand, CorrectTile, Undo


class BadInputError(ValueError):
    """A request body that is not what the endpoint takes (the message says why)."""


#: No seat or pond index comes near this; larger numbers are refused before any use.
_LARGEST = 1_000_000
#: Pond indexes run to a few dozen; this leaves room and keeps absurd ones out.
MAX_POND_INDEX = 200


def _shown(value: Any) -> str:
    """The offending value for a message, cut short: messages go back to the client and the log."""
    text = json.dumps(value, ensure_ascii=True)
    return text if len(text) <= 40 else text[:37] + "..."


def parse_body(raw: bytes, *, required: bool) -> dict[str, Any]:
    """The body as a JSON object; an empty body is ``{}`` unless the endpoint needs fields."""
    if not raw.strip():
        if required:
            raise BadInputError("the request body must be a JSON object")
        return {}
    try:
        body = json.loads(raw)
    except UnicodeDecodeError as error:
        raise BadInputError(f"the request body is not UTF-8 ({error.reason})") from error
    except json.JSONDecodeError as error:
        raise BadInputError(f"malformed JSON at line {error.lineno} column {error.colno}: {error.msg}") from error
    except ValueError as error:  # a number of thousands of digits (Python's int conversion limit)
        raise BadInputError("malformed JSON: a number too long to read") from error
    except RecursionError as error:
        raise BadInputError("malformed JSON: nested too deep") from error
    if not isinstance(body, dict):
        raise BadInputError(f"the request body must be a JSON object, not {type(body).__name__}")
    return body


def _integer(body: dict[str, Any], field: str) -> int:
    if field not in body:
        raise BadInputError(f"missing field {field!r}")
    value = body[field]
    # bool is an int in Python; true/false as a seat number is a client bug, not 1/0.
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadInputError(f"field {field!r} must be an integer, got {_shown(value)}")
    if not -_LARGEST <= value <= _LARGEST:
        raise BadInputError(f"field {field!r} is out of range (a number of {len(str(abs(value)))} digits)")
    return value


def _string(body: dict[str, Any], field: str) -> str:
    if field not in body:
        raise BadInputError(f"missing field {field!r}")
    value = body[field]
    if not isinstance(value, str):
        raise BadInputError(f"field {field!r} must be a string, got {_shown(value)}")
    return value


def command_for(action: str, raw: bytes) -> ConsoleCommand:
    """The command for ``POST /api/console/<action>`` with body ``raw``."""
    match action:
        case "confirm":
            parse_body(raw, required=False)
            return Confirm()
        case "undo":
            parse_body(raw, required=False)
            return Undo()
        case "correct-tile":
            body = parse_body(raw, required=True)
            seat, index, text = _integer(body, "seat"), _integer(body, "index"), _string(body, "tile")
            if not 0 <= seat <= 3:
                raise BadInputError(f"field 'seat' must be 0-3, got {seat}")
            if not 0 <= index <= MAX_POND_INDEX:
                raise BadInputError(f"field 'index' must be 0-{MAX_POND_INDEX}, got {index}")
            try:
                tile = parse_tile(text)
            except TileNotationError as error:
                raise BadInputError(f"field 'tile': unknown tile ({error})") from error
            if tile.is_unknown:
                raise BadInputError("field 'tile': a correction names a known tile, not '?'")
            return CorrectTile(seat=seat, index=index, tile=tile)
        case "profile":
            body = parse_body(raw, required=True)
            return ChooseProfile(name=_string(body, "name"))
    named = repr(action) if len(action) <= 40 else repr(action[:37] + "...")
    raise BadInputError(f"unknown console action {named} (confirm, undo, correct-tile, profile, logout)")
