"""Han, fu, yaku and the hand's value of a win, through the ``mahjong`` package.

Tiles go to the package as Tenhou 136 ids. Red fives are explicit: a red five gets the id the
package reads as red (16, 52, 88) and a plain five never does, so a plain "5" can never turn
into a red one by accident. Honba and riichi sticks are not part of the value: payments add
them (:mod:`table_app.rules.payments`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from mahjong.hand_calculating.hand import HandCalculator
from mahjong.hand_calculating.hand_config import HandConfig, HandConstants, OptionalRules

from table_app.domain.hand import Hand
from table_app.domain.meld import Meld
from table_app.domain.seat import Wind
from table_app.domain.tile import Tile
from table_app.rules.hand.library_tiles import LibraryTileIds
from table_app.rules.jun_yaku import jun_value
from table_app.rules.profiles import RuleProfile, Scoring

#: 純麻雀's fixed table (001 第26条): han → (ron, each on tsumo). 10+ han and yakuman: 27000.
_JUN_TABLE: Final = (
    (600, 200),
    (1500, 500),
    (3000, 1000),
    (6000, 2000),
    (9000, 3000),
    (12000, 4000),
    (15000, 5000),
    (18000, 6000),
    (21000, 7000),
    (24000, 8000),
    (27000, 9000),
)
_JUN_DOUBLE_YAKUMAN: Final = (30000, 10000)


@dataclass(frozen=True, slots=True)
class WinSituation:
    """Everything about a win that is not the tiles: read from the event stream."""

    tsumo: bool
    dealer: bool
    seat_wind: Wind
    round_wind: Wind
    riichi: bool = False
    double_riichi: bool = False
    ippatsu: bool = False
    rinshan: bool = False
    chankan: bool = False
    haitei: bool = False
    houtei: bool = False
    tenhou: bool = False
    chiihou: bool = False


@dataclass(frozen=True, slots=True)
class WinValue:
    han: int
    fu: int
    points: int  # ron: what the discarder pays; tsumo: the sum of all payments
    dealer_pays: int  # tsumo by a non-dealer: the dealer's share
    others_pay: int  # tsumo: each non-dealer's share (each player's share on a dealer tsumo)
    yaku: tuple[str, ...]
    yakuman: int  # how many yakuman (0 if none)
    error: str | None = None
    yaku_han: tuple[int, ...] = ()  # each yaku's han, beside ``yaku`` (dora: how many)


def score_win(
    concealed: Iterable[Tile],
    *,
    win: Tile,
    melds: tuple[Meld, ...],
    situation: WinSituation,
    dora_markers: tuple[Tile, ...],
    ura_markers: tuple[Tile, ...],
    profile: RuleProfile,
) -> WinValue:
    """Score the hand ``concealed`` (without ``win``) plus ``melds`` completed by ``win``.

    Every argument is a value, so the result is remembered: the referee judges a win and then
    folds it in, and both ask for its value."""
    return _score(
        tuple(concealed),
        win=win,
        melds=melds,
        situation=situation,
        dora_markers=dora_markers,
        ura_markers=ura_markers,
        profile=profile,
    )


@lru_cache(maxsize=64)
def _score(
    concealed: tuple[Tile, ...],
    *,
    win: Tile,
    melds: tuple[Meld, ...],
    situation: WinSituation,
    dora_markers: tuple[Tile, ...],
    ura_markers: tuple[Tile, ...],
    profile: RuleProfile,
) -> WinValue:
    if profile.scoring is Scoring.JUN_FIXED_TABLE:
        return _score_jun(concealed, win, melds, situation)
    ids = LibraryTileIds(red_fives=profile.red_fives)
    try:
        win_id = ids.take(win)
        tiles = [ids.take(t) for t in concealed]
        library_melds = [ids.meld(m) for m in melds]
    except ValueError as error:
        return WinValue(0, 0, 0, 0, 0, (), 0, error=str(error))
    all_ids = tiles + [win_id] + [i for m in library_melds for i in m.tiles]
    markers = LibraryTileIds(red_fives=profile.red_fives)
    shown = dora_markers if profile.kan_dora else dora_markers[:1]
    dora = [markers.take(t.plain) for t in shown] if profile.dora else []
    ura_shown = ura_markers if profile.kan_dora else ura_markers[:1]
    ura = [markers.take(t.plain) for t in ura_shown] if profile.ura_dora and situation.riichi else []
    options = OptionalRules(
        has_open_tanyao=profile.open_tanyao,
        has_aka_dora=profile.red_fives,
        has_double_yakuman=profile.double_yakuman,
        kazoe_limit=HandConstants.KAZOE_LIMITED if profile.kazoe_yakuman else HandConstants.KAZOE_SANBAIMAN,
        kiriage=profile.kiriage_mangan,
        fu_for_open_pinfu=True,
        fu_for_pinfu_tsumo=False,
    )
    config = HandConfig(
        is_tsumo=situation.tsumo,
        is_riichi=situation.riichi and not situation.double_riichi,
        is_daburu_riichi=situation.double_riichi,
        is_ippatsu=situation.ippatsu and profile.ippatsu,
        is_rinshan=situation.rinshan,
        is_chankan=situation.chankan,
        is_haitei=situation.haitei,
        is_houtei=situation.houtei,
        is_tenhou=situation.tenhou,
        is_chiihou=situation.chiihou,
        player_wind=27 + int(situation.seat_wind),
        round_wind=27 + int(situation.round_wind),
        options=options,
    )
    result = HandCalculator.estimate_hand_value(
        all_ids, win_id, melds=library_melds, dora_indicators=dora, config=config, ura_dora_indicators=ura
    )
    if result.error is not None:
        return WinValue(0, 0, 0, 0, 0, (), 0, error=str(result.error))
    han = int(result.han or 0)
    fu = int(result.fu or 0)
    names = tuple(y.name for y in result.yaku or ())
    # Read now: the package keeps a dora count on its shared yaku objects until the next call.
    is_open = any(m.is_open for m in melds)
    each = tuple(int(y.han_open if is_open else y.han_closed) for y in result.yaku or ())
    yakuman = sum(1 for y in result.yaku or () if getattr(y, "is_yakuman", False))
    if result.cost is None:
        return WinValue(han, fu, 0, 0, 0, names, yakuman, error="the scorer gave no cost")
    main = int(result.cost["main"])
    additional = int(result.cost["additional"])
    if situation.tsumo and situation.dealer:
        return WinValue(han, fu, 3 * main, main, main, names, yakuman, yaku_han=each)
    if situation.tsumo:
        return WinValue(han, fu, main + 2 * additional, main, additional, names, yakuman, yaku_han=each)
    return WinValue(han, fu, main, 0, 0, names, yakuman, yaku_han=each)


def _score_jun(concealed: tuple[Tile, ...], win: Tile, melds: tuple[Meld, ...], situation: WinSituation) -> WinValue:
    try:
        value = jun_value(
            Hand(concealed, melds),
            win,
            tsumo=situation.tsumo,
            riichi=situation.riichi,
            seat_wind=situation.seat_wind,
            round_wind=situation.round_wind,
        )
    except ValueError as error:
        return WinValue(0, 0, 0, 0, 0, (), 0, error=f"hand_not_winning ({error})")
    return _jun_value(value.han, 0, value.yaku, value.limit, situation)


def _jun_value(han: int, fu: int, names: tuple[str, ...], yakuman: int, situation: WinSituation) -> WinValue:
    ron, each = _JUN_DOUBLE_YAKUMAN if yakuman >= 2 else _JUN_TABLE[10 if yakuman else min(han, 10)]
    if situation.tsumo:
        return WinValue(han, fu, 3 * each, each, each, names, yakuman)
    return WinValue(han, fu, ron, 0, 0, names, yakuman)
