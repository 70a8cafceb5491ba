"""What the camera's observations propose, as game events (not yet judged).

Public information only: another player's draw is ``?``, a discard's tsumogiri flag is known
only for a riichi player (who must discard the drawn tile). Who drew is deduced from whose
turn it is; who a call was made from is read from the turned tile.
"""

from __future__ import annotations

from table_app.domain.hand import Hand, HandError
from table_app.domain.meld import MeldKind
from table_app.domain.seat import Seat
from table_app.domain.seat_names import mention
from table_app.domain.tile import UNKNOWN, Tile
from table_app.interpret.session import Question
from table_app.observations import HandLaidOpen, MeldAppeared, MeldExtended, PondTileAdded
from table_app.rules.events import (
    Ankan,
    Chi,
    Dahai,
    Daiminkan,
    DrawKind,
    GameEvent,
    Hora,
    Kakan,
    Pon,
    Reach,
    Ryukyoku,
    ShownHand,
    Tsumo,
)
from table_app.rules.hand.waits import waits
from table_app.rules.state import KyokuState, RiichiStage


def next_drawer(hand: KyokuState) -> Seat | None:
    """Who draws next, or ``None`` while someone holds fourteen tiles."""
    if hand.turn is not None:
        return None
    if hand.last_discard is not None:
        return hand.last_discard.next
    if hand.kans:
        return hand.kans[-1]  # the replacement tile after a kan
    return hand.oya


def draw_if_due(hand: KyokuState, seat: Seat) -> tuple[GameEvent, ...] | None:
    """The draw that must come before ``seat`` acts, ``()`` if none, ``None`` if it is not their turn."""
    if hand.turn == seat:
        return ()
    if next_drawer(hand) == seat:
        return (Tsumo(seat, UNKNOWN),)
    return None


def discard(hand: KyokuState, seen: PondTileAdded) -> tuple[GameEvent, ...] | Question:
    draw = draw_if_due(hand, seen.seat)
    player = hand.player(seen.seat)
    riichi = seen.sideways and not player.marker_pending and player.riichi is RiichiStage.NONE
    in_riichi = player.riichi is RiichiStage.ACCEPTED
    events = (*(() if draw is None else draw), *((Reach(seen.seat),) if riichi else ()))
    events = (*events, Dahai(seen.seat, seen.tile, tsumogiri=in_riichi))
    if draw is None:
        # Not this seat's turn: a misread or a discard out of turn; the referee says which.
        return Question(
            0,
            seen.seat,
            f"{mention(seen.seat)} discarded {seen.tile} out of turn",
            ("it was a discard", "misread: ignore"),
            ((Tsumo(seen.seat, UNKNOWN), *events), ()),
        )
    return events


def _without(tiles: tuple[Tile, ...], tile: Tile) -> tuple[Tile, ...]:
    rest = list(tiles)
    rest.remove(tile)
    return tuple(rest)


def meld(hand: KyokuState, seen: MeldAppeared) -> tuple[GameEvent, ...] | Question:
    seat = seen.seat
    if seen.turned_from is None:
        if len(seen.tiles) == 4:
            draw = draw_if_due(hand, seat) or ()
            return (*draw, Ankan(seat, seen.tiles))
        return Question(
            0,
            seat,
            f"a meld by {mention(seat)} with no turned tile",
            ("misread: ignore",),
            ((),),
        )
    called = seen.called if seen.called is not None else hand.last_discard_tile
    if called is None or called not in seen.tiles:
        return Question(0, seat, "a called tile that is not in the meld", ("misread: ignore",), ((),))
    consumed = _without(seen.tiles, called)
    target = seen.turned_from
    if len(seen.tiles) == 4:
        return (Daiminkan(seat, target, called, consumed),)
    if len({t.kind for t in seen.tiles}) == 1:
        return (Pon(seat, target, called, consumed),)
    return (Chi(seat, target, called, consumed),)


def added_kan(hand: KyokuState, seen: MeldExtended) -> tuple[GameEvent, ...] | Question:
    player = hand.player(seen.seat)
    pon = next((m for m in player.melds if m.kind is MeldKind.PON and m.tiles[0].kind == seen.tile.kind), None)
    if pon is None:
        return Question(0, seen.seat, f"a tile added to a pon {mention(seen.seat)} does not have", ("ignore",), ((),))
    draw = draw_if_due(hand, seen.seat) or ()
    return (*draw, Kakan(seen.seat, seen.tile, pon.tiles))


def _completes(concealed: tuple[Tile, ...], hand: KyokuState, seat: Seat, tile: Tile) -> bool:
    try:
        return any(w.tile.kind == tile.kind for w in waits(Hand(concealed, hand.player(seat).melds)))
    except HandError:
        return False


def _nine_terminals(hand: KyokuState, seat: Seat, tiles: tuple[Tile, ...]) -> bool:
    player = hand.player(seat)
    first_draw = player.discards == 0 and hand.calls_made == 0
    return first_draw and len({t.kind for t in tiles if t.is_terminal_or_honour}) >= 9


def laid_open(
    hand: KyokuState, seen: HandLaidOpen, ura: tuple[Tile, ...], wall_stepped: bool | None
) -> tuple[GameEvent, ...] | Question | None:
    """A win (ron on the last discard, or tsumo), nine terminals shown on the first draw, or
    ``None``: a hand shown as tenpai at the exhaustive draw, or shown at the four-riichi abort.

    Fourteen tiles laid open right after someone else's discard are a ron on it or a tsumo by
    the next player. The tile set apart tells them apart when it is not the discarded tile;
    otherwise the board's wall count does (it steps for a draw); without the board, the
    referee says which."""
    seat = seen.seat
    waiting_size = 13 - 3 * len(hand.player(seat).melds)
    last = hand.last_discard_tile
    if hand.live_wall == 0 and hand.turn is None and hand.last_discard == seat:
        return None  # the last discarder shows tenpai at the exhaustive draw
    if len(seen.tiles) == waiting_size and all(p.in_riichi for p in hand.players):
        return None  # every riichi hand is shown at the four-riichi abort (003)
    target = _ron_target(hand)
    ron = _ron(hand, seen, ura, waiting_size) if target not in (None, seat) and last is not None else None
    draw = draw_if_due(hand, seat)
    tsumo = _tsumo(hand, seen, ura, draw) if draw is not None and len(seen.tiles) == waiting_size + 1 else None
    if ron is not None and tsumo is not None and hand.live_wall > 0:
        return _ron_or_tsumo(hand, seen, ron, tsumo, wall_stepped)
    if ron is not None:
        return ron if ron != () else None
    if tsumo is not None:
        return tsumo
    return Question(0, seat, f"{mention(seat)} laid a hand open out of turn", ("misread: ignore",), ((),))


def _valid(proposal: tuple[GameEvent, ...] | Question, hand: KyokuState) -> bool:
    """A proposal that can stand: a question, a draw, or a win on a tile that completes the hand."""
    if isinstance(proposal, Question):
        return True
    for event in proposal:
        if isinstance(event, Hora) and event.hand is not None:
            return _completes(event.hand, hand, event.actor, event.pai)
    return bool(proposal)


def _ron_or_tsumo(
    hand: KyokuState,
    seen: HandLaidOpen,
    ron: tuple[GameEvent, ...],
    tsumo: tuple[GameEvent, ...] | Question,
    wall_stepped: bool | None,
) -> tuple[GameEvent, ...] | Question:
    ron_ok, tsumo_ok = _valid(ron, hand), _valid(tsumo, hand)
    if ron_ok != tsumo_ok:
        return ron if ron_ok else tsumo  # only one reading makes a complete hand
    last = hand.last_discard_tile
    if (seen.winning is not None and last is not None and seen.winning.kind != last.kind) or wall_stepped:
        return tsumo
    if wall_stepped is False:
        return ron
    topic = f"{mention(seen.seat)} won: ron on the last discard, or tsumo"
    if isinstance(tsumo, Question):
        return Question(0, seen.seat, topic, ("ron", *tsumo.options), (ron, *tsumo.outcomes))
    return Question(0, seen.seat, topic, ("ron", "tsumo"), (ron, tsumo))


def _ron_target(hand: KyokuState) -> Seat | None:
    """Whose tile a ron would take: the last discard's, or an added kan's (robbing the kan)."""
    return hand.last_discard if hand.last_discard is not None else hand.kakan_pending


def _ron(hand: KyokuState, seen: HandLaidOpen, ura: tuple[Tile, ...], waiting_size: int) -> tuple[GameEvent, ...]:
    """A ron on the last discard (``()``: with the wall empty and no win, tenpai shown at the draw)."""
    last, target = hand.last_discard_tile, _ron_target(hand)
    assert last is not None
    assert target is not None
    concealed = seen.tiles
    if len(concealed) == waiting_size + 1 and last in concealed:
        concealed = _without(concealed, last)
    if _completes(concealed, hand, seen.seat, last) or hand.live_wall > 0:
        return (Hora(seen.seat, target, last, ura, concealed),)  # not complete: the judge calls a false win
    return ()


def _tsumo(
    hand: KyokuState, seen: HandLaidOpen, ura: tuple[Tile, ...], draw: tuple[GameEvent, ...]
) -> tuple[GameEvent, ...] | Question:
    # The drawn tile is the one set apart. If the camera saw none set apart and only one tile
    # can complete the hand, that is a deduction; if several can, the referee says which (it
    # changes fu and yaku).
    seat = seen.seat
    if seen.winning is not None and seen.winning in seen.tiles:
        candidates = [seen.winning]
    else:
        distinct = sorted(set(seen.tiles), key=lambda t: (t.kind, t.red))
        candidates = [t for t in distinct if _completes(_without(seen.tiles, t), hand, seat, t)]
        if not candidates:
            if _nine_terminals(hand, seat, seen.tiles):
                return (*draw, Ryukyoku(DrawKind.NINE_TERMINALS, (ShownHand(seat, seen.tiles),), seat))
            candidates = distinct[:1]  # a false tsumo: the judge calls it
    outcomes = tuple((*draw, Hora(seat, seat, t, ura, _without(seen.tiles, t))) for t in candidates)
    if len(outcomes) == 1:
        return outcomes[0]
    topic = f"which tile did {mention(seat)} draw to win"
    return Question(0, seat, topic, tuple(str(t) for t in candidates), outcomes)
