"""Exports of a journaled game: an mjai log (JSON lines) that mjai tools and ``jantaku replay`` read.

The events are the journal's, through the same codec. Each ``hora`` and ``ryukyoku`` also
carries what the rules core computed (``deltas``, and for a win ``hora_points``, ``fan``,
``fu``), and ``end_game`` the final ``scores``, as mjai logs do, so a reader has the record
to check the game against.

Every line is one mjai readers accept (libriichi, jansou): extra fields on known events are
skipped by them, unknown event types and ``?`` tiles are not. So:

- a game with tiles nobody saw is refused (:class:`MjaiExportError`) unless they were filled
  (``jantaku export --fill-hidden``): then ``start_game`` says which lines hold filled tiles;
- a hand voided by a chombo, which has no mjai ending, is left out of the stream and kept
  whole in ``start_game`` (``voided_hands``: with the chombo and its payments, and how many
  hands of the stream come before it); a chombo in a hand that goes on (純麻雀's loss of
  rights) is left out and kept in ``rulings`` with the line it stood before. jantaku's own
  reader (:mod:`table_app.logs.mjai`) puts both back in their places;
- a hand still in play (an unfinished game) is kept in ``hand_in_play`` likewise;
- a rule profile changed between hands has no mjai line: the results are computed under the
  profile in force at each hand, and the header names the one the game started with.

Both go in one field of ``start_game``, ``jantaku``, which other readers skip.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Iterable, Iterator
from typing import Any

from table_app.rules.events import EndGame, EndKyoku, GameEvent, Hora, ProfileChange, StartGame, StartKyoku, Tsumo
from table_app.rules.fold import apply, new_game
from table_app.rules.mjai_codec import event_to_mjai
from table_app.rules.profiles import RuleProfile
from table_app.rules.results import HandResult, WinResult

#: The field of ``start_game`` that holds what only jantaku reads.
HEADER_FIELD = "jantaku"


class MjaiExportError(ValueError):
    pass


def hidden_tiles(events: Iterable[GameEvent]) -> tuple[int, int | None]:
    """How many tiles nobody saw, and the (1-based) number of the first event holding one."""
    count, first = 0, None
    for number, event in enumerate(events, start=1):
        match event:
            case StartKyoku():
                unseen = sum(t.is_unknown for hand in event.tehais for t in hand)
            case Tsumo():
                unseen = int(event.pai.is_unknown)
            case _:
                unseen = 0
        if unseen and first is None:
            first = number
        count += unseen
    return count, first


def mjai_lines(events: Iterable[GameEvent], profile: RuleProfile, *, filled: Collection[int] = ()) -> Iterator[str]:
    """The game (started under ``profile``) as mjai lines; ``filled``: the indices of events
    whose hidden tiles were filled in (named in the header)."""
    events = list(events)
    count, first = hidden_tiles(events)
    if count:
        raise MjaiExportError(
            f"{count} tiles nobody saw (the first in event {first}); an mjai log needs every tile: "
            "export with --fill-hidden to fill them from the unseen tiles (marked as filled)"
        )
    wins, results, final = _computed(events, profile)
    # The header needs a start_game line: a game journaled without one gets a bare one.
    lines: list[dict[str, Any]] = [] if events and isinstance(events[0], StartGame) else [event_to_mjai(StartGame())]
    voided: list[dict[str, Any]] = []
    rulings: list[dict[str, Any]] = []
    filled_lines: list[int] = []
    hand: list[tuple[int, dict[str, Any]]] = []
    hands_written = 0
    for index, event in enumerate(events):
        if isinstance(event, ProfileChange):
            continue  # folded into the results above; no mjai line
        raw = event_to_mjai(event)
        if isinstance(event, Hora):
            win = next(wins)
            raw.update(deltas=list(win.deltas), hora_points=win.points, fan=win.han, fu=win.fu)
        elif isinstance(event, EndGame) and final is not None:
            raw["scores"] = list(final)
        if isinstance(event, StartKyoku):
            hand = []
        if isinstance(event, StartKyoku) or hand:
            hand.append((index, raw))
        else:
            lines.append(raw)
            continue
        if not isinstance(event, EndKyoku):
            continue
        result = next(results)
        ended = any(part["type"] in ("hora", "ryukyoku") for _, part in hand)
        for _, part in hand:
            if part["type"] == "ryukyoku" or (part["type"] == "chombo" and not ended):
                part["deltas"] = list(result.deltas)
        if not ended and any(part["type"] == "chombo" for _, part in hand):
            voided.append({"after_hands": hands_written, "events": [part for _, part in hand]})
        else:
            for index_in_game, part in hand:
                if part["type"] == "chombo":  # a ruling within a hand that goes on (loss of rights)
                    rulings.append({"before_line": len(lines) + 1, "event": part})
                    continue
                if index_in_game in filled:
                    filled_lines.append(len(lines) + 1)  # 1-based, the start_game line is 1
                lines.append(part)
            hands_written += 1
        hand = []
    if hands_written == 0:
        raise MjaiExportError("no hand has ended yet: an mjai log needs one (export the game after its first hand)")
    header: dict[str, Any] = {"profile": profile.name}
    if hand:  # a hand still in play has no mjai ending either
        header["hand_in_play"] = [part for _, part in hand]
    if filled:
        header["filled_lines"] = filled_lines  # 1-based, counting the start_game line
    if voided:
        header["voided_hands"] = voided
    if rulings:
        header["rulings"] = rulings
    lines[0][HEADER_FIELD] = header
    for line in lines:
        yield json.dumps(line, ensure_ascii=False)


def _computed(
    events: list[GameEvent], profile: RuleProfile
) -> tuple[Iterator[WinResult], Iterator[HandResult], tuple[int, ...] | None]:
    """Every win, every hand's result and the final scores, as the rules core computes them."""
    state = new_game(profile)
    wins: list[WinResult] = []
    for event in events:
        state = apply(state, event)
        if isinstance(event, Hora) and state.hand is not None:
            wins.append(state.hand.wins[-1])
    return iter(wins), iter(state.results), state.scores if state.finished else None
