"""Scripts for the table simulator: what happens on the table, and when.

One step per line, ``AT ACTION ARGS...``, AT in seconds from the start of the script::

    0    hand 25000 25000 25000 25000   # walls rise for a new hand; trays set (optional)
    1.0  draw 6                         # six tiles leave the live wall
    1.5  riichi 2                       # seat 2 puts a 1000-point stick in the deposit
    2.0  kan                            # a kan: one more kan, one tile less in the live wall
    2.5  pay 1 3 3900                   # seat 1 pays seat 3 3900 points
    3.0  take 3                         # seat 3 takes the riichi sticks in the deposit
    4.0  loop                           # start again from the top, 4.0 s after the start

``#`` starts a comment. Every step is checked when the script is loaded, so a wall below zero
or a riichi stick from an empty tray is an error naming the line, not a surprise mid-run.

A payment larger than the payer's tray is what a real table calls a bust (トビ): the payer hands
over every stick they have and owes the rest on an IOU (:mod:`firmware_bridge.sim_debts`). The
payee gets only the sticks handed over, so the table's stick total never changes.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum
from typing import TypeVar

from firmware_bridge.calibration import RIICHI_STICK_POINTS
from firmware_bridge.plausibility import LIVE_WALL_MAX
from firmware_bridge.sim_debts import Iou, owed_by_seat, pay_or_owe, repay

STARTING_POINTS = 25_000
_N = TypeVar("_N", int, float)


class ScriptError(ValueError):
    """A script line that cannot be run; the message names the source and line."""


class Action(Enum):
    HAND = "hand"
    DRAW = "draw"
    RIICHI = "riichi"
    KAN = "kan"
    PAY = "pay"
    TAKE = "take"
    LOOP = "loop"


_ARITY = {Action.DRAW: (1,), Action.RIICHI: (1,), Action.KAN: (0,), Action.PAY: (3,), Action.TAKE: (1,)}


@dataclass(frozen=True, slots=True)
class TableState:
    """What is physically on the table (the simulator's truth)."""

    points: tuple[int, int, int, int] = (STARTING_POINTS,) * 4
    deposit: int = 0  # riichi sticks
    wall: int = LIVE_WALL_MAX
    kans: int = 0
    hands: int = 0  # how many times the walls have risen
    # IOUs written after a bust. Never on the board's sensors: the host reads a debt from the
    # game's score, not from the wire.
    ious: tuple[Iou, ...] = ()

    @property
    def owed(self) -> tuple[int, int, int, int]:
        """Points each seat owes beyond its (empty) tray."""
        return owed_by_seat(self.ious)

    @property
    def total(self) -> int:
        return sum(self.points) + self.deposit * RIICHI_STICK_POINTS


@dataclass(frozen=True, slots=True)
class ScriptStep:
    at: float
    action: Action
    args: tuple[int, ...]
    line: int


@dataclass(frozen=True, slots=True)
class TableScript:
    source: str
    steps: tuple[ScriptStep, ...]
    loop_after_s: float | None  # None: the script plays once and the table then stays as it is


def apply_step(state: TableState, step: ScriptStep, where: str) -> TableState:
    """The table after ``step``; ScriptError (naming ``where``) when it cannot happen."""
    args = step.args
    match step.action:
        case Action.HAND:
            points = (args[0], args[1], args[2], args[3]) if args else state.points
            deposit = 0 if args else state.deposit
            if min(points) < 0:
                raise ScriptError(f"{where}: a tray cannot hold {min(points)} points")
            ious = () if args else state.ious  # trays set anew: any debt was settled off the table
            return TableState(points, deposit, LIVE_WALL_MAX, 0, state.hands + 1, ious)
        case Action.DRAW:
            if args[0] > state.wall:
                raise ScriptError(f"{where}: draw {args[0]} but only {state.wall} tiles are left in the live wall")
            return replace(state, wall=state.wall - args[0])
        case Action.KAN:
            if state.kans >= 4 or state.wall == 0:
                raise ScriptError(f"{where}: no kan possible with {state.kans} kans and {state.wall} tiles left")
            return replace(state, kans=state.kans + 1, wall=state.wall - 1)
        case Action.RIICHI:
            seat = _seat(args[0], where)
            if state.points[seat] < RIICHI_STICK_POINTS:
                # A riichi stick must go down on the table; it cannot be owed.
                raise ScriptError(f"{where}: seat {seat} has {state.points[seat]} points, no riichi stick to put down")
            return replace(_move(state, seat, None, RIICHI_STICK_POINTS, where), deposit=state.deposit + 1)
        case Action.PAY:
            return _pay(state, _seat(args[0], where), _seat(args[1], where), args[2], where)
        case Action.TAKE:
            taken = _move(state, None, _seat(args[0], where), state.deposit * RIICHI_STICK_POINTS, where)
            points, ious = repay(taken.points, taken.ious)  # a taker in debt pays its IOUs first
            return replace(taken, points=points, ious=ious, deposit=0)
    raise ScriptError(f"{where}: {step.action.value} is not a table change")


def _seat(seat: int, where: str) -> int:
    if not 0 <= seat < 4:
        raise ScriptError(f"{where}: seat {seat} does not exist (seats are 0-3)")
    return seat


def _pay(state: TableState, payer: int, payee: int, amount: int, where: str) -> TableState:
    """Tray to tray; what the payer's tray cannot cover is owed (the payee is short by it)."""
    if amount % 100:
        raise ScriptError(f"{where}: {amount} points cannot be paid in sticks (not a multiple of 100)")
    points, ious = pay_or_owe(state.points, state.ious, payer, payee, amount)
    return replace(state, points=points, ious=ious)


def _move(state: TableState, payer: int | None, payee: int | None, amount: int, where: str) -> TableState:
    points = list(state.points)
    if amount % 100:
        raise ScriptError(f"{where}: {amount} points cannot be paid in sticks (not a multiple of 100)")
    if payer is not None:
        points[payer] -= amount
    if payee is not None:
        points[payee] += amount
    return replace(state, points=(points[0], points[1], points[2], points[3]))


def parse_script(text: str, source: str = "<script>") -> TableScript:
    steps: list[ScriptStep] = []
    loop_after: float | None = None
    state = TableState()
    last_at = 0.0
    for number, raw_line in enumerate(text.splitlines(), start=1):
        line = raw_line.split("#", 1)[0].split()
        if not line:
            continue
        where = f"{source}:{number}"
        if loop_after is not None:
            raise ScriptError(f"{where}: nothing may follow 'loop'")
        if len(line) < 2:
            raise ScriptError(f"{where}: expected 'AT ACTION ARGS...', got {raw_line.strip()!r}")
        at = _number(line[0], where, float)
        if at < last_at:
            raise ScriptError(f"{where}: time {at} comes before the previous step's {last_at}")
        last_at = at
        try:
            action = Action(line[1].lower())
        except ValueError:
            known = ", ".join(a.value for a in Action)
            raise ScriptError(f"{where}: unknown action {line[1]!r} (known: {known})") from None
        args = tuple(_number(token, where, int) for token in line[2:])
        if action is Action.LOOP:
            loop_after = at
            continue
        allowed = (0, 4) if action is Action.HAND else _ARITY[action]
        if len(args) not in allowed:
            raise ScriptError(
                f"{where}: {action.value} takes {' or '.join(map(str, allowed))} numbers, got {len(args)}"
            )
        step = ScriptStep(at, action, args, number)
        state = apply_step(state, step, where)
        steps.append(step)
    if loop_after is not None and loop_after <= 0:
        raise ScriptError(f"{source}: a looping script must last more than 0 s")
    return TableScript(source, tuple(steps), loop_after)


def _number(token: str, where: str, kind: type[_N]) -> _N:
    try:
        return kind(token)
    except ValueError:
        raise ScriptError(f"{where}: {token!r} is not {'a whole number' if kind is int else 'a number'}") from None


BUILTIN_SCRIPT = """\
# The built-in script: two hands, then again from the top, forever. Every seat ends the two
# hands where it started, so the loop can run for ever without a tray running dry.
0.0   hand
0.5   draw 8
1.0   riichi 1
1.5   draw 10
2.0   kan
2.5   pay 0 1 7700
3.0   take 1
3.5   hand
4.0   draw 12
4.5   riichi 2
5.0   riichi 3
5.5   draw 30
6.0   pay 1 2 1500
6.5   pay 0 2 1500
7.0   take 2
7.5   pay 2 0 9200
8.0   pay 1 2 5200
8.5   pay 1 3 1000
9.0   hand
9.5   loop
"""


def builtin_script() -> TableScript:
    return parse_script(BUILTIN_SCRIPT, "<built-in script>")
