"""Hand analysis: readings, waits, tenpai, shanten, furiten, closed kan after riichi (pure)."""

from table_app.rules.hand.decompose import decompositions
from table_app.rules.hand.furiten import furiten_waits, is_furiten
from table_app.rules.hand.groups import Decomposition, Group, GroupKind, HandForm
from table_app.rules.hand.riichi_kan import KanReason, KanStrictness, RiichiKanVerdict, check_riichi_closed_kan
from table_app.rules.hand.shanten import shanten
from table_app.rules.hand.waits import Wait, is_tenpai, live_waits, tenpai_discards, waits

__all__ = [
    "Decomposition",
    "Group",
    "GroupKind",
    "HandForm",
    "KanReason",
    "KanStrictness",
    "RiichiKanVerdict",
    "Wait",
    "check_riichi_closed_kan",
    "decompositions",
    "furiten_waits",
    "is_furiten",
    "is_tenpai",
    "live_waits",
    "shanten",
    "tenpai_discards",
    "waits",
]
