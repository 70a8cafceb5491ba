"""The fold over the events inside a hand: draws, discards, calls, riichi, dora.

Each function takes the hand's state and one event and returns the next state. Tiles the
referee did not see are ``UNKNOWN``: removing a known tile from a hand that does not show it
removes an unknown one instead. An event that cannot happen even so (a fifth tile, a kakan
without its pon) raises :class:`ImpossibleEventError`: it means the event source is broken, which
is not a rule violation by a player.
"""

from __future__ import annotations

from dataclasses import replace

from table_app.domain.meld import Meld, MeldKind
from table_app.domain.seat import Seat
from table_app.domain.tile import UNKNOWN, Tile
from table_app.rules.events import Ankan, Chi, Dahai, Daiminkan, Dora, Kakan, Pon, Reach, ReachAccepted, Tsumo
from table_app.rules.furiten_tracking import seats_completed_by, wait_kinds
from table_app.rules.state import KyokuState, PlayerState, PondTile, RiichiStage

_DRAGONS = frozenset({31, 32, 33})
_WINDS = frozenset({27, 28, 29, 30})


class ImpossibleEventError(ValueError):
    """An event that contradicts what the state already knows (a broken event source)."""


def remove_tiles(concealed: tuple[Tile, ...], tiles: tuple[Tile, ...], seat: Seat) -> tuple[Tile, ...]:
    hand = list(concealed)
    for tile in tiles:
        if tile in hand:
            hand.remove(tile)
        elif UNKNOWN in hand:
            hand.remove(UNKNOWN)
        else:
            raise ImpossibleEventError(f"seat {int(seat)} has no {tile} to give up")
    return tuple(hand)


def _clear_ippatsu(players: tuple[PlayerState, ...]) -> tuple[PlayerState, ...]:
    if not any(p.ippatsu for p in players):
        return players
    return tuple(replace(p, ippatsu=False) if p.ippatsu else p for p in players)


def _settle_kakan(hand: KyokuState) -> KyokuState:
    """An added kan that was not robbed is complete: it breaks every ippatsu."""
    if hand.ankan_robbable is not None:
        hand = replace(hand, ankan_robbable=None)
    if hand.kakan_pending is None:
        return hand
    return replace(hand, kakan_pending=None, players=_clear_ippatsu(hand.players))


def on_tsumo(hand: KyokuState, event: Tsumo) -> KyokuState:
    hand = _settle_kakan(hand)
    player = hand.player(event.actor)
    rinshan = bool(hand.kans) and hand.turn is None and hand.last_discard is None and hand.kans[-1] == event.actor
    player = replace(player, concealed=(*player.concealed, event.pai), rinshan=rinshan)
    return replace(
        hand,
        players=hand.with_player(event.actor, player),
        live_wall=hand.live_wall - 1,
        turn=event.actor,
        last_discard=None,
        last_discard_tile=None,
    )


def on_dahai(hand: KyokuState, event: Dahai) -> KyokuState:
    hand = _settle_kakan(hand)
    player = hand.player(event.actor)
    marker = player.riichi is RiichiStage.DECLARED or player.marker_pending
    concealed = remove_tiles(player.concealed, (event.pai,), event.actor)
    order = hand.discards_made + 1
    pond = (*player.pond, PondTile(event.pai, event.tsumogiri, riichi=marker, order=order))
    riichi_order = order if player.riichi is RiichiStage.DECLARED else player.riichi_order
    # Ippatsu lasts until the riichi player's own next discard.
    ippatsu = player.ippatsu and player.riichi is not RiichiStage.ACCEPTED
    player = replace(
        player,
        concealed=concealed,
        pond=pond,
        marker_pending=False,
        rinshan=False,
        ippatsu=ippatsu,
        discards=player.discards + 1,
        just_called=None,
        furiten_pass=False,  # 同巡内フリテン ends with the player's own discard
        waits_mask=wait_kinds(concealed, player.melds),  # the hand only changes on its own turn
        riichi_order=riichi_order,
    )
    hand = replace(
        hand,
        players=hand.with_player(event.actor, player),
        turn=None,
        last_discard=event.actor,
        last_discard_tile=event.pai,
        discards_made=order,
    )
    return replace(hand, could_ron=seats_completed_by(hand, event.pai, event.actor))


def _called_from_pond(hand: KyokuState, target: Seat) -> tuple[PlayerState, ...]:
    """Mark the target's last discard as called (it leaves the pond in real play)."""
    victim = hand.player(target)
    if not victim.pond:
        raise ImpossibleEventError(f"seat {int(target)} has no discard to call")
    last = victim.pond[-1]
    # A called riichi tile: the declarer's next discard is turned sideways instead (003).
    victim = replace(victim, pond=(*victim.pond[:-1], replace(last, called=True)), marker_pending=last.riichi)
    return hand.with_player(target, victim)


def _pao_for(player: PlayerState, meld: Meld, target: Seat | None) -> Seat | None:
    """The third dragon set or the fourth wind set called from someone makes them liable."""
    if target is None or player.pao is not None:
        return player.pao
    kind = meld.kind34
    for group in (_DRAGONS, _WINDS):
        if kind in group and meld.kind is not MeldKind.CHI:
            sets = sum(1 for m in player.melds if m.kind is not MeldKind.CHI and m.kind34 in group)
            if sets == len(group):
                return target
    return None


def _open_call(hand: KyokuState, actor: Seat, target: Seat, meld: Meld, consumed: tuple[Tile, ...]) -> KyokuState:
    players = _called_from_pond(hand, target)
    hand = replace(hand, players=players)
    player = hand.player(actor)
    player = replace(player, concealed=remove_tiles(player.concealed, consumed, actor), melds=(*player.melds, meld))
    player = replace(player, pao=_pao_for(player, meld, target), just_called=None if meld.kind.is_kan else meld)
    players = _clear_ippatsu(hand.with_player(actor, player))
    kans = (*hand.kans, actor) if meld.kind.is_kan else hand.kans
    return replace(
        hand,
        players=players,
        turn=None if meld.kind.is_kan else actor,
        last_discard=None,
        last_discard_tile=None,
        calls_made=hand.calls_made + 1,
        kans=kans,
    )


def on_chi(hand: KyokuState, event: Chi) -> KyokuState:
    meld = Meld(
        MeldKind.CHI, tuple(sorted((*event.consumed, event.pai))), event.pai, event.actor.relation_to(event.target)
    )
    return _open_call(hand, event.actor, event.target, meld, event.consumed)


def on_pon(hand: KyokuState, event: Pon) -> KyokuState:
    meld = Meld(
        MeldKind.PON, tuple(sorted((*event.consumed, event.pai))), event.pai, event.actor.relation_to(event.target)
    )
    return _open_call(hand, event.actor, event.target, meld, event.consumed)


def on_daiminkan(hand: KyokuState, event: Daiminkan) -> KyokuState:
    tiles = tuple(sorted((*event.consumed, event.pai)))
    meld = Meld(MeldKind.OPEN_KAN, tiles, event.pai, event.actor.relation_to(event.target))
    return _open_call(hand, event.actor, event.target, meld, event.consumed)


def on_kakan(hand: KyokuState, event: Kakan) -> KyokuState:
    hand = _settle_kakan(hand)
    player = hand.player(event.actor)
    pon = next((m for m in player.melds if m.kind is MeldKind.PON and m.kind34 == event.pai.kind), None)
    if pon is None:
        raise ImpossibleEventError(f"seat {int(event.actor)} adds {event.pai} to a pon it does not have")
    kan = Meld(MeldKind.ADDED_KAN, tuple(sorted((*pon.tiles, event.pai))), pon.called, pon.called_from)
    melds = tuple(kan if m is pon else m for m in player.melds)
    player = replace(player, concealed=remove_tiles(player.concealed, (event.pai,), event.actor), melds=melds)
    hand = replace(
        hand,
        players=hand.with_player(event.actor, player),
        turn=None,
        last_discard=None,
        last_discard_tile=event.pai,
        kakan_pending=event.actor,
        calls_made=hand.calls_made + 1,
        kans=(*hand.kans, event.actor),
    )
    return replace(hand, could_ron=seats_completed_by(hand, event.pai, event.actor))


def on_ankan(hand: KyokuState, event: Ankan) -> KyokuState:
    """A closed kan. It breaks every ippatsu at once; only thirteen orphans may rob it."""
    hand = _settle_kakan(hand)
    player = hand.player(event.actor)
    meld = Meld(MeldKind.CLOSED_KAN, tuple(sorted(event.consumed)))
    if player.riichi is RiichiStage.ACCEPTED:  # judged again when the hand is shown
        player = replace(player, kans_after_riichi=(*player.kans_after_riichi, meld.kind34))
    player = replace(
        player, concealed=remove_tiles(player.concealed, event.consumed, event.actor), melds=(*player.melds, meld)
    )
    return replace(
        hand,
        players=_clear_ippatsu(hand.with_player(event.actor, player)),
        turn=None,
        last_discard=None,
        last_discard_tile=meld.tiles[0],
        ankan_robbable=event.actor,
        calls_made=hand.calls_made + 1,
        kans=(*hand.kans, event.actor),
    )


def on_dora(hand: KyokuState, event: Dora) -> KyokuState:
    return replace(hand, dora_markers=(*hand.dora_markers, event.dora_marker))


def on_reach(hand: KyokuState, event: Reach) -> KyokuState:
    player = hand.player(event.actor)
    # Double riichi: on the player's first discard, with no call of any kind before it.
    double = player.discards == 0 and hand.calls_made == 0
    player = replace(player, riichi=RiichiStage.DECLARED, double_riichi=double)
    return replace(hand, players=hand.with_player(event.actor, player))


def on_reach_accepted(hand: KyokuState, event: ReachAccepted, deposit: int) -> KyokuState:
    """The declaration tile passed: the riichi stands and its stick goes on the table."""
    player = replace(hand.player(event.actor), riichi=RiichiStage.ACCEPTED, ippatsu=True)
    if deposit == 0:
        return replace(hand, players=hand.with_player(event.actor, player))
    scores = tuple(s - deposit if seat == event.actor else s for seat, s in enumerate(hand.scores))
    return replace(hand, players=hand.with_player(event.actor, player), scores=scores, kyotaku=hand.kyotaku + 1)
