"""Furiten over the course of a hand: own discards, passed winning tiles, riichi furiten.

A player may not ron a tile their waits include if (a) any of their own discards is one of
their waits, (b) they let a winning tile pass since their own last discard (同巡内フリテン),
or (c) they let one pass after declaring riichi (for the rest of the hand). Passing a tile
counts whether or not the hand had a yaku for it (003). Only hands the referee knows can be
tracked for (b) and (c); (a) needs only the pond and the hand shown at the win.
"""

from __future__ import annotations

from dataclasses import replace

from table_app.domain.meld import Meld
from table_app.domain.seat import Seat
from table_app.domain.tile import KIND_COUNT, Tile
from table_app.rules.hand.waits import wait_mask
from table_app.rules.state import KyokuState, PlayerState, RiichiStage

_SEATS = tuple(Seat)


def wait_kinds(concealed: tuple[Tile, ...], melds: tuple[Meld, ...]) -> int | None:
    """Bit k set: kind k completes this 13-shaped hand. ``None`` if the hand is not known."""
    if len(concealed) + 3 * len(melds) != 13 or any(t.is_unknown for t in concealed):
        return None
    counts = [0] * KIND_COUNT
    for tile in concealed:
        counts[tile.kind] += 1
    return wait_mask(counts, closed_full=not melds)


def seats_completed_by(hand: KyokuState, tile: Tile, discarder: Seat) -> tuple[Seat, ...]:
    """Known hands that ``tile`` completes (their waits are kept from their last discard)."""
    bit = 1 << tile.kind
    return tuple(
        _SEATS[index]
        for index, player in enumerate(hand.players)
        if index != discarder and (player.waits_mask or 0) & bit
    )


def mark_passed(hand: KyokuState) -> KyokuState:
    """The last discard was not ronned: whoever it completed is now furiten."""
    if not hand.could_ron:
        return hand
    players = list(hand.players)
    for seat in hand.could_ron:
        player = players[seat]
        if player.riichi is RiichiStage.ACCEPTED:
            players[seat] = replace(player, riichi_furiten=True)
        else:
            players[seat] = replace(player, furiten_pass=True)
    return replace(hand, players=tuple(players), could_ron=())


def furiten_reason(player: PlayerState, mask: int) -> str:
    """Why ``player`` (waiting on ``mask``) is furiten, or "" if they are not."""
    own = [t.tile for t in player.pond if mask >> t.tile.kind & 1]
    if own:
        return f"waits on {own[0].plain}, which they discarded"
    if player.riichi_furiten:
        return "let a winning tile pass after riichi"
    if player.furiten_pass:
        return "let a winning tile pass since their last discard"
    return ""


def passed_while_hidden(hand: KyokuState, seat: Seat, mask: int) -> str:
    """Furiten found only now that the hand is shown: a winning tile someone discarded after
    the player's riichi, or since their own last discard, that they let pass.

    The player's hand has not changed since then (a riichi hand only draws and discards;
    any hand is unchanged between its own discard and a ron), so the waits shown now are the
    waits it had. The discard being ronned is not a pass."""
    player = hand.players[seat]
    own_last = player.pond[-1].order if player.pond else 0
    since = player.riichi_order if player.riichi_order is not None else own_last
    # The discard being ronned is no pass; on a chankan every discard so far could have been.
    until = hand.discards_made + (1 if hand.kakan_pending is not None else 0)
    for other in Seat:
        if other == seat:
            continue
        for tile in hand.players[other].pond:
            if since < tile.order < until and mask >> tile.tile.kind & 1:
                if player.riichi_order is not None:
                    return f"let {tile.tile.plain} pass after riichi"
                return f"let {tile.tile.plain} pass since their last discard"
    return ""
