"""Short bilingual announcements for a replayed log, so the pages have something to show.

The runtime renders the real announcements (with rule references, payments and tray checks);
this is only what a replay can say from the events and the rules core's results.
"""

from __future__ import annotations

from typing import Final

from table_app.rules.events import Ankan, Chi, Daiminkan, EndGame, GameEvent, Hora, Kakan, Pon, Reach, Ryukyoku
from table_app.rules.state import GameState
from table_app.view.model import AnnouncementText

_CALLS: Final = {Chi: ("chi", "チー", "Chi"), Pon: ("pon", "ポン", "Pon")}
_DRAWS_JA: Final = {
    "exhaustive": "流局",
    "nine_terminals": "九種九牌",
    "four_winds": "四風連打",
    "four_kans": "四槓散了",
    "four_riichi": "四家立直",
    "triple_ron": "三家和",
    "nagashi_mangan": "流し満貫",
    "draw": "流局",
}


def _who(state: GameState, seat: int) -> tuple[str, str]:
    """A seat as (ja, en), by the one convention: its wind this hand and the player's name."""
    seats = state.seat_naming()
    return seats.ja(seat), seats.en(seat)


def replay_announcement(state: GameState, event: GameEvent) -> AnnouncementText | None:
    """What to say after ``event`` brought the game to ``state``; ``None`` for silent events."""
    match event:
        case Reach(actor=actor):
            ja, en = _who(state, actor)
            return AnnouncementText("riichi", int(actor), f"{ja} リーチ", f"{en}: riichi")
        case Chi() | Pon():
            kind, ja_word, en_word = _CALLS[type(event)]
            ja, en = _who(state, event.actor)
            return AnnouncementText(kind, int(event.actor), f"{ja} {ja_word}", f"{en}: {en_word.lower()}")
        case Daiminkan() | Kakan() | Ankan():
            ja, en = _who(state, event.actor)
            return AnnouncementText("kan", int(event.actor), f"{ja} カン", f"{en}: kan")
        case Hora():
            return _win(state, event)
        case Ryukyoku():
            return _draw(state)
        case EndGame():
            return AnnouncementText("game_over", None, "対局終了", "Game over")
    return None


def _win(state: GameState, event: Hora) -> AnnouncementText | None:
    hand = state.hand
    if hand is None:
        return None
    win = next((w for w in reversed(hand.wins) if w.winner == event.actor), None)
    ja, en = _who(state, event.actor)
    tsumo = event.actor == event.target
    if win is None or win.error is not None:
        return AnnouncementText("win", int(event.actor), f"{ja} {'ツモ' if tsumo else 'ロン'}", f"{en}: win")
    how_ja = "ツモ" if tsumo else "ロン"
    how_en = "tsumo" if tsumo else f"ron from {state.seat_naming().en(event.target)}"
    yaku = ", ".join(win.yaku)
    return AnnouncementText(
        "win",
        int(event.actor),
        f"{ja} {how_ja} {win.han}翻{win.fu}符 {win.points}点",
        f"{en}: {how_en}, {win.han} han {win.fu} fu, {win.points} points ({yaku})",
    )


def _draw(state: GameState) -> AnnouncementText | None:
    hand = state.hand
    if hand is None or hand.result is None:
        return None
    ending = hand.result.ending.value
    tenpai = ", ".join(state.seat_naming().en(seat) for seat in hand.result.tenpai) or "nobody"
    return AnnouncementText(
        "draw",
        None,
        _DRAWS_JA.get(ending, "流局"),
        f"Draw ({ending.replace('_', ' ')}); tenpai: {tenpai}",
    )
