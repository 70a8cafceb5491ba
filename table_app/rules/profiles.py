"""Rule profiles: frozen, named presets of every switch the rules core consults.

A profile is data: the rules core reads switches, it never asks "is this JPML?". Each switch
and each preset value is documented, with its source, in ``docs/rules.md`` (spec §8).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Final

from table_app.rules.hand.riichi_kan import KanStrictness


class MultipleRon(StrEnum):
    """Two or three players ron the same discard."""

    HEAD_BUMP = "head_bump"  # 上家優先: only the first in turn order after the discarder wins
    DOUBLE_RON = "double_ron"  # two may win; three abort the hand (triple ron)
    ALL_WIN = "all_win"  # every caller wins; sticks and honba to the nearest winner


class ChomboPenalty(StrEnum):
    MANGAN_PAYMENT = "mangan_payment"  # pays a mangan (as a dealer/non-dealer tsumo) to the others
    FINAL_TALLY = "final_tally"  # a fixed deduction on the final tally (JPML: -20 points)
    LOSS_OF_RIGHTS = "loss_of_rights"  # 純麻雀: loses call/riichi/win rights for the hand


class LeftoverSticks(StrEnum):
    TO_TOP = "to_top"
    RETURNED = "returned"
    LOST = "lost"


class GameLength(StrEnum):
    EAST_ONLY = "east_only"  # 東風戦: four hands (plus repeats)
    HANCHAN = "hanchan"  # 半荘戦: East and South
    FOUR_WINDS = "four_winds"  # 純麻雀: sixteen hands, the deal always passes


class Scoring(StrEnum):
    HAN_FU = "han_fu"  # the standard han/fu table (via the mahjong package)
    JUN_FIXED_TABLE = "jun_fixed_table"  # 純麻雀: points by han alone (001 第26条)


@dataclass(frozen=True, slots=True)
class RuleProfile:
    name: str
    # points
    start_points: int = 25_000
    return_points: int = 30_000  # 返し: the reference for the final tally (oka = 4 × difference)
    uma: tuple[int, int, int, int] = (20, 10, -10, -20)  # in thousands, by final rank
    busting: bool = True  # トビ: the game ends when a score falls below zero
    leftover_sticks: LeftoverSticks = LeftoverSticks.TO_TOP
    # tiles and dora
    wall_tiles: int = 136
    dead_wall: int = 14  # 王牌: tiles never drawn in turn (純麻雀 has none: 001 第6条, 第11–12条)
    red_fives: bool = True
    dora: bool = True  # any dora at all (純麻雀 has none)
    ura_dora: bool = True
    kan_dora: bool = True
    kans: bool = True
    open_tanyao: bool = True  # 喰いタン
    kiriage_mangan: bool = False
    double_yakuman: bool = False  # 13-sided kokushi, 4-wait suuankou... count as double
    kazoe_yakuman: bool = True
    # riichi
    ippatsu: bool = True
    riichi_deposit: int = 1000  # the stick a riichi puts on the table (純麻雀: none)
    riichi_requires_tenpai: bool = True
    riichi_min_points: int = 1000
    riichi_min_live_tiles: int = 4
    riichi_kan: KanStrictness = KanStrictness.WAITS
    # calls
    kuikae_banned: bool = True
    kokushi_furiten_on_any_terminal: bool = False  # 純麻雀: any terminal/honour discarded
    multiple_ron: MultipleRon = MultipleRon.DOUBLE_RON
    kokushi_robs_closed_kan: bool = True  # thirteen orphans may ron a closed kan's tile
    pao: bool = True  # 責任払い for big three dragons / big four winds
    # draws
    nine_terminals: bool = True
    four_winds: bool = True
    four_kans: bool = True
    four_riichi: bool = True
    triple_ron_aborts: bool = True
    nagashi_mangan: bool = True
    noten_pool: int = 3000
    honba_points: int = 300  # per honba on a ron (a third from each on a tsumo)
    dealer_repeats_on_win: bool = True
    dealer_repeats_on_tenpai: bool = True
    dealer_repeats_on_abort: bool = True
    honba_on_abort: bool = True
    # penalties
    chombo: ChomboPenalty = ChomboPenalty.MANGAN_PAYMENT
    chombo_tally_points: int = 0  # for FINAL_TALLY, in thousands
    # game length
    length: GameLength = GameLength.HANCHAN
    sudden_death: bool = True  # Tenhou: play on into West until someone reaches return points
    last_dealer_may_stop: bool = True  # アガリ止め: a top dealer's win in the last hand ends the game
    last_dealer_may_stop_on_tenpai: bool = True  # テンパイ止め: so does a top dealer's tenpai
    scoring: Scoring = Scoring.HAN_FU
    tally_in_whole_thousands: bool = True  # Tenhou: (score - return) rounded 五捨六入 to 1000s

    @property
    def has_honba(self) -> bool:
        return self.honba_points > 0

    @property
    def live_wall_at_start(self) -> int:
        """Tiles a hand may draw in turn: the wall less the dead wall and the 52 dealt (the
        dealer's fourteenth is the hand's first draw)."""
        return self.wall_tiles - self.dead_wall - 4 * 13


#: Tenhou as its rules and logs have it. Tenhou bans kuikae (喰い替えなし); its server left
#: the check to its own client and took three swap discards from another client in 2018
#: transcripts, which the log reader marks (``LogRules.kuikae_unchecked``, docs/rules.md).
TENHOU = RuleProfile(name="tenhou")

MLEAGUE = RuleProfile(
    name="mleague",
    start_points=25_000,
    return_points=30_000,
    uma=(30, 10, -10, -30),
    busting=False,
    kuikae_banned=True,
    tally_in_whole_thousands=False,
    riichi_kan=KanStrictness.WAITS,
    multiple_ron=MultipleRon.HEAD_BUMP,
    nine_terminals=False,
    four_winds=False,
    four_kans=False,
    four_riichi=False,
    triple_ron_aborts=False,
    nagashi_mangan=False,
    sudden_death=False,
    last_dealer_may_stop=False,
    last_dealer_may_stop_on_tenpai=False,
    kazoe_yakuman=True,
    leftover_sticks=LeftoverSticks.TO_TOP,
)

JPML = RuleProfile(
    name="jpml",
    start_points=30_000,
    return_points=30_000,
    uma=(15, 5, -5, -15),
    busting=False,
    tally_in_whole_thousands=False,
    red_fives=False,
    ura_dora=False,
    kan_dora=False,
    ippatsu=False,
    riichi_kan=KanStrictness.YAKU,
    multiple_ron=MultipleRon.HEAD_BUMP,
    triple_ron_aborts=False,
    nagashi_mangan=False,
    kazoe_yakuman=False,
    dealer_repeats_on_win=True,
    chombo=ChomboPenalty.FINAL_TALLY,
    kokushi_robs_closed_kan=False,
    chombo_tally_points=20,
    sudden_death=False,
    last_dealer_may_stop=False,
    last_dealer_may_stop_on_tenpai=False,
    leftover_sticks=LeftoverSticks.TO_TOP,
)

JUN = RuleProfile(
    name="jun",
    start_points=30_000,
    return_points=30_000,
    uma=(0, 0, 0, 0),
    busting=False,
    leftover_sticks=LeftoverSticks.RETURNED,
    red_fives=False,
    dora=False,
    ura_dora=False,
    kan_dora=False,
    kans=False,
    dead_wall=0,
    ippatsu=False,
    riichi_deposit=0,
    riichi_requires_tenpai=False,
    riichi_min_live_tiles=1,
    riichi_kan=KanStrictness.FORBIDDEN,
    kuikae_banned=False,
    kokushi_furiten_on_any_terminal=True,
    kokushi_robs_closed_kan=False,
    multiple_ron=MultipleRon.HEAD_BUMP,
    pao=False,
    nine_terminals=False,
    four_winds=False,
    four_kans=False,
    four_riichi=False,
    triple_ron_aborts=False,
    nagashi_mangan=False,
    noten_pool=0,
    honba_points=0,
    dealer_repeats_on_win=False,
    dealer_repeats_on_tenpai=False,
    dealer_repeats_on_abort=False,
    honba_on_abort=False,
    chombo=ChomboPenalty.LOSS_OF_RIGHTS,
    length=GameLength.FOUR_WINDS,
    sudden_death=False,
    last_dealer_may_stop=False,
    last_dealer_may_stop_on_tenpai=False,
    scoring=Scoring.JUN_FIXED_TABLE,
)

PROFILES: tuple[RuleProfile, ...] = (TENHOU, MLEAGUE, JPML, JUN)


def _early(profile: RuleProfile) -> RuleProfile:
    # Tenhou's first rule era: no tenpai stop in the last hand, a 10-5 uma in East-only games.
    uma = (10, 5, -5, -10) if profile.length is GameLength.EAST_ONLY else profile.uma
    return replace(profile, uma=uma, last_dealer_may_stop_on_tenpai=False)


#: What a log can say about its own game, as named changes to a preset, in the order they
#: apply. A variant's name is the preset's and its changes joined by ``+`` (``tenhou+east``),
#: so a journal that keeps a game's profile by name gets the same rules back.
VARIANTS: Final[dict[str, Callable[[RuleProfile], RuleProfile]]] = {
    "east": lambda p: replace(p, length=GameLength.EAST_ONLY),
    "no_red": lambda p: replace(p, red_fives=False),
    "kiriage": lambda p: replace(p, kiriage_mangan=True),
    "early": _early,
    # A Tenhou client transcript: the server let swap discards through (its own client checks).
    "kuikae_unchecked": lambda p: replace(p, kuikae_banned=False),
}


def with_variants(profile: RuleProfile, changes: set[str]) -> RuleProfile:
    """``profile`` with the named ``changes`` (keys of :data:`VARIANTS`), named after them."""
    unknown = changes - VARIANTS.keys()
    if unknown:
        raise ValueError(f"unknown profile variant {sorted(unknown)[0]!r} (one of {', '.join(VARIANTS)})")
    base = profile.name.split("+")[0]
    applied = [name for name in VARIANTS if name in changes or name in profile.name.split("+")[1:]]
    result = profile_named(base)
    for name in applied:
        result = VARIANTS[name](result)
    return replace(result, name="+".join([base, *applied]))


def profile_named(name: str) -> RuleProfile:
    """A preset by name, or a variant of one (``tenhou+east+no_red``)."""
    base, *changes = name.split("+")
    for profile in PROFILES:
        if profile.name == base:
            return with_variants(profile, set(changes)) if changes else profile
    raise ValueError(f"unknown rule profile {name!r} (one of {', '.join(p.name for p in PROFILES)})")


#: How the presets are named in a tenhou.net/6 log's ``rule.disp`` (Tenhou's own games say
#: which lobby, length, open tanyao and red fives: 般南喰赤; a table game has no lobby).
_DISPLAY: Final = {"mleague": "Mリーグ", "jpml": "日本プロ麻雀連盟", "jun": "純麻雀"}


def display_name(profile: RuleProfile) -> str:
    """The rule set as a tenhou.net/6 viewer shows it: Tenhou's form for Tenhou's rules."""
    base = profile.name.split("+")[0]
    if base in _DISPLAY:
        return _DISPLAY[base]
    length = "東" if profile.length is GameLength.EAST_ONLY else "南"
    return "天鳳" + length + ("喰" if profile.open_tanyao else "") + ("赤" if profile.red_fives else "")
