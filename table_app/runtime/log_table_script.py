"""A logged game as a table-simulator script: the sensor board's side of ``jantaku demo``.

The script moves the simulated table as the game did: the live wall drops a tile per draw
(a kan's replacement draw is the ``kan`` step), a riichi stick goes to the deposit with the
declaration, and after each hand the sticks go to the winner and the payments are made
tray to tray. Its clock is the log feed's (:func:`table_app.interpret.event_observations.log_observations`
with the same ``step_s``), so a table simulator playing it over a pty and a camera (or the
feed) playing the same log stay in step. ``jantaku table-sim --pty --script FILE`` plays it.
"""

from __future__ import annotations

from collections.abc import Iterable

from table_app.interpret.board_wall import board_wall_shown
from table_app.interpret.event_observations import observation_counts
from table_app.interpret.tray_debts import trays_for_scores
from table_app.rules.events import Ankan, Daiminkan, EndKyoku, GameEvent, Kakan, Reach, StartKyoku, Tsumo
from table_app.rules.fold import apply, new_game
from table_app.rules.profiles import TENHOU, RuleProfile
from table_app.rules.state import GameState, RiichiStage

STICK = 1000
SIM_START_POINTS = 25_000  # what the simulator's trays hold before the first ``hand`` line


def table_script_text(
    events: Iterable[GameEvent],
    profile: RuleProfile = TENHOU,
    step_s: float = 0.5,
    start_s: float = 0.0,
    from_observation: int = 0,
) -> str:
    """The script; ``start_s`` delays it all (time for the link to connect before the first
    deal). ``from_observation``: a feed resuming there after a restart; the table is first set
    as it stood then (trays, deposit, wall, kans) and plays on from that point."""
    events = list(events)
    counts = observation_counts(events, profile)
    lines = ["# made from a logged game by jantaku (table_app.runtime.log_table_script)"]
    state = new_game(profile)
    clock = start_s
    rinshan_due = False
    seen = 0  # the feed's observations before this event
    restored = from_observation == 0
    for event, count in zip(events, counts, strict=True):
        if not restored:
            if seen < from_observation:
                rinshan_due = isinstance(event, (Daiminkan, Ankan, Kakan)) or (
                    rinshan_due and not isinstance(event, (Tsumo, StartKyoku))
                )
                state = apply(state, event)
                seen += count
                continue
            lines.extend(f"0.000 {step}" for step in _restore(state, rinshan_due))
            restored = True
            clock = start_s + (seen - from_observation) * step_s
        before = state
        state = apply(state, event)
        at = f"{clock:.3f}"
        match event:
            case StartKyoku():
                rinshan_due = False  # a kan robbed (chankan) ended the last hand before its replacement draw
                # Below zero, play goes on (where the rules allow it) with the debt carried.
                first = before.hands_played == 0 and set(event.scores) != {SIM_START_POINTS}
                trays = trays_for_scores(event.scores)
                lines.append(f"{at} hand" + (" " + " ".join(str(t) for t in trays) if first else ""))
            case Tsumo():
                hand = before.hand
                shown = hand is not None and board_wall_shown(hand.live_wall, profile) > 0
                if not rinshan_due and shown:  # the board counts no tile past what it takes for a dead wall
                    lines.append(f"{at} draw 1")
                rinshan_due = False
            case Daiminkan() | Ankan() | Kakan():
                lines.append(f"{at} kan")  # the simulator takes the replacement tile with the kan
                rinshan_due = True
            case Reach():
                # The stick goes down with the declaration (the referee checks it when the
                # riichi is accepted, at the next act); a ron on that tile hands it back.
                lines.append(f"{at} riichi {int(event.actor)}")
            case EndKyoku() if before.hand is not None:
                lines.extend(f"{at} {step}" for step in _settlement(before, state))
        clock += count * step_s
    if not restored:
        lines.extend(f"0.000 {step}" for step in _restore(state, rinshan_due))
    return "\n".join(lines) + "\n"


def _restore(state: GameState, rinshan_due: bool) -> list[str]:
    """Steps that set the table as it stands in ``state`` (a kan's replacement tile already
    taken from the wall if ``rinshan_due``)."""
    hand = state.hand
    if hand is None:
        trays = trays_for_scores(state.scores)
        sticks = state.next_hand.kyotaku if state.next_hand is not None else 0
        wall, kans = 0, 0
    else:
        declared = [seat for seat, p in enumerate(hand.players) if p.riichi is RiichiStage.DECLARED]
        trays = trays_for_scores([score - (STICK if seat in declared else 0) for seat, score in enumerate(hand.scores)])
        sticks = hand.kyotaku + len(declared)
        wall, kans = board_wall_shown(hand.live_wall - rinshan_due, state.profile), len(hand.kans)
    # ``hand`` sets the trays and empties the deposit: the sticks go down from the fullest tray.
    lender = max(range(4), key=lambda seat: trays[seat])
    trays[lender] += sticks * STICK
    steps = ["hand " + " ".join(str(t) for t in trays), *[f"riichi {lender}"] * sticks]
    drawn = board_wall_shown(state.profile.live_wall_at_start, state.profile) - wall - kans
    if drawn > 0:
        steps.append(f"draw {drawn}")
    steps.extend(["kan"] * kans)
    return steps


def _settlement(before: GameState, after: GameState) -> list[str]:
    """The deposit to the first winner, then each payment from a tray to a tray."""
    hand = before.hand
    assert hand is not None
    result = after.results[-1]
    deltas = list(result.deltas)
    steps: list[str] = []
    sticks = hand.kyotaku * STICK
    # A riichi declared on the tile that ended the hand: its stick is on the table, not in the
    # game. ``take`` hands the declarer the whole deposit, so they pay the game's sticks on.
    refund = next((seat for seat, p in enumerate(hand.players) if p.riichi is RiichiStage.DECLARED), None)
    if refund is not None and (hand.wins or not sticks):
        steps.append(f"take {refund}")
        deltas[refund] -= sticks if hand.wins else 0
    elif hand.wins and sticks:
        taker = int(hand.wins[0].winner)
        steps.append(f"take {taker}")
        deltas[taker] -= sticks
    payers = [[seat, -d] for seat, d in enumerate(deltas) if d < 0]
    payees = [[seat, d] for seat, d in enumerate(deltas) if d > 0]
    for payer in payers:
        for payee in payees:
            amount = min(payer[1], payee[1])
            if amount > 0:
                steps.append(f"pay {payer[0]} {payee[0]} {amount}")
                payer[1] -= amount
                payee[1] -= amount
    return steps
