"""Compare the rules core's results with a log's own record, hand by hand.

For each hand: the ending (win, exhaustive draw or which abortive draw), each win's value,
each player's score delta; then the next hand's scores, honba, sticks, dealer and round; at
the end whether the game is over, the final scores and the game points.

A hand the log starts and never ends (the next hand, or the game's end, comes while it is
still being played: its win or draw was lost) is *incomplete*: nothing of it can be checked,
so it is reported as such rather than passing unseen.
"""

from __future__ import annotations

from dataclasses import dataclass

from table_app.domain.seat_names import mention
from table_app.rules.events import EndGame, EndKyoku, GameEvent, StartKyoku
from table_app.rules.fold import new_game
from table_app.rules.judged import is_judged, judge_and_apply
from table_app.rules.profiles import TENHOU, RuleProfile, with_variants
from table_app.rules.record import GameLog, HandEnding, HandRecord, LogRules
from table_app.rules.results import HandResult, NextHand
from table_app.rules.state import GameState
from table_app.rules.verdicts import Verdict


@dataclass(frozen=True, slots=True)
class Mismatch:
    hand: str  # e.g. "S3-1" (round, hand, honba), or "game"
    what: str


@dataclass(frozen=True, slots=True)
class JudgedAct:
    """One act the judge ruled on: where it was, what it was, and the verdict."""

    hand: str  # e.g. "E1-0"
    index: int  # the event's position in the log, from 1
    event: GameEvent
    verdict: Verdict


@dataclass(frozen=True, slots=True)
class GameCheck:
    source: str
    hands: int
    mismatches: tuple[Mismatch, ...]
    final: GameState
    verdicts: tuple[JudgedAct, ...] = ()
    incomplete: tuple[str, ...] = ()  # the labels of hands the log never ends


def _seats(values: tuple[int, ...]) -> str:
    return ",".join(f"{v:+d}" if v else "0" for v in values)


def compare_hand(result: HandResult, record: HandRecord) -> list[Mismatch]:
    found: list[Mismatch] = []
    label = result.label
    if record.ending is HandEnding.DRAW:
        if not result.ending.is_draw:
            found.append(Mismatch(label, f"ending {result.ending.value}, log says a draw"))
    elif record.ending is not result.ending:
        found.append(Mismatch(label, f"ending {result.ending.value}, log says {record.ending.value}"))
    for logged in record.wins:
        ours = next((w for w in result.wins if w.winner == logged.winner), None)
        if ours is None:
            found.append(Mismatch(label, f"the log has a win by {mention(logged.winner)}, the rules have none"))
            continue
        if ours.error is not None:
            found.append(Mismatch(label, f"win by {mention(logged.winner)} not scored: {ours.error}"))
        elif logged.points is not None and ours.points != logged.points:
            found.append(
                Mismatch(
                    label,
                    f"win by {mention(logged.winner)} worth {ours.points} ({ours.han} han {ours.fu} fu: "
                    f"{', '.join(ours.yaku)}), log says {logged.points} ({logged.han} han {logged.fu} fu)",
                )
            )
    if record.deltas is not None and tuple(record.deltas) != tuple(result.deltas):
        found.append(Mismatch(label, f"deltas {_seats(result.deltas)}, log says {_seats(record.deltas)}"))
    return found


def compare_next(expected: NextHand, start: StartKyoku, label: str) -> list[Mismatch]:
    found: list[Mismatch] = []
    if expected.game_over:
        found.append(Mismatch(label, "the rules end the game here, the log plays on"))
        return found
    if (expected.bakaze, expected.kyoku) != (start.bakaze, start.kyoku):
        found.append(
            Mismatch(
                label,
                f"next hand {'ESWN'[expected.bakaze]}{expected.kyoku}, log has {'ESWN'[start.bakaze]}{start.kyoku}",
            )
        )
    for name, ours, theirs in (
        ("honba", expected.honba, start.honba),
        ("sticks", expected.kyotaku, start.kyotaku),
        ("dealer", int(expected.oya), int(start.oya)),
    ):
        if ours != theirs:
            found.append(Mismatch(label, f"next {name} {ours}, log has {theirs}"))
    if tuple(expected.scores) != tuple(start.scores):
        found.append(Mismatch(label, f"next scores {expected.scores}, log has {start.scores}"))
    return found


def profile_for_log(profile: RuleProfile, rules: LogRules) -> RuleProfile:
    """The Tenhou preset adjusted to what a Tenhou log says about its own game: East-only or
    hanchan, red fives, the first rule era, and kuikae where the server did not check it. Other
    presets are taken as given. The result is a named variant (``tenhou+east+kuikae_unchecked``)
    so a journal keeping it by name gets it back."""
    if profile.name.split("+")[0] != TENHOU.name:
        return profile
    changes = set()
    if rules.east_only:
        changes.add("east")
    if rules.kiriage_mangan:
        changes.add("kiriage")
    if rules.red_fives is False:
        changes.add("no_red")
    if rules.early_tenhou:
        changes.add("early")
    if rules.kuikae_unchecked:
        changes.add("kuikae_unchecked")
    return with_variants(profile, changes) if changes else profile


def check_game(log: GameLog, profile: RuleProfile = TENHOU) -> GameCheck:
    """Replay ``log``, judging every act as the live referee does (:func:`judge_and_apply`): a
    refused act is a mismatch (the server refereed the game, so every act must stand) and is
    not folded in; every judged act is kept with its verdict, and every hand the log starts
    and never ends is listed as incomplete."""
    profile = profile_for_log(profile, log.rules)
    state = new_game(profile)
    found: list[Mismatch] = []
    judged: list[JudgedAct] = []
    hands = 0
    label = "game"
    playing = False  # a hand has started and the log has not ended it yet
    incomplete: list[str] = []
    for index, event in enumerate(log.events):
        if isinstance(event, StartKyoku | EndGame) and playing:
            incomplete.append(label)
        if isinstance(event, StartKyoku | EndKyoku | EndGame):
            playing = isinstance(event, StartKyoku)
        if isinstance(event, StartKyoku) and state.next_hand is not None:
            found.extend(compare_next(state.next_hand, event, label))
        try:
            step = judge_and_apply(state, event)
        except ValueError as error:
            found.append(Mismatch(label, f"cannot follow event {index + 1} ({type(event).__name__}): {error}"))
            return GameCheck(log.source, hands, tuple(found), state, tuple(judged), tuple(incomplete))
        verdict = step.verdict
        if is_judged(event):
            judged.append(JudgedAct(label, index + 1, event, verdict))
        if not step.folded:
            reason = verdict.reason.value if verdict.reason else "?"
            found.append(
                Mismatch(
                    label,
                    f"event {index + 1} judged {verdict.consequence.value} ({reason}): "
                    + state.seat_naming().fill_en(verdict.message),
                )
            )
            continue
        state = step.state
        if state.hand is not None:
            label = state.hand.label()
        if isinstance(event, EndKyoku):
            if hands < len(log.hands):
                found.extend(compare_hand(state.results[-1], log.hands[hands]))
            hands += 1
    if log.complete:
        if playing:  # a complete log whose last hand has no ending
            incomplete.append(label)
        found.extend(_compare_end(state, log, label))
    return GameCheck(log.source, hands, tuple(found), state, tuple(judged), tuple(incomplete))


def _compare_end(state: GameState, log: GameLog, label: str) -> list[Mismatch]:
    found: list[Mismatch] = []
    if state.next_hand is not None and not state.next_hand.game_over:
        found.append(Mismatch(label, "the log ends the game here, the rules play on"))
    if log.final is None:
        return found
    if tuple(state.scores) != tuple(log.final.scores):
        found.append(Mismatch("game", f"final scores {state.scores}, log says {log.final.scores}"))
    if (
        not log.rules.special_lobby
        and log.final.points is not None
        and state.final_points is not None
        and any(abs(a - b) > 0.05 for a, b in zip(state.final_points, log.final.points, strict=True))
    ):
        found.append(Mismatch("game", f"final points {state.final_points}, log says {log.final.points}"))
    return found
