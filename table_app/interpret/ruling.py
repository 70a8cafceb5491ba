"""``Ruling``: what the referee made of something a person asked of it.

A button pressed, a discard corrected or a rule profile chosen on the console is a request:
the referee does it, or refuses it and says why. The ruling is decided where the game is (the
pure step, then the core thread that holds the journal), so whoever asked gets it back as a
value instead of reading the referee's state afterwards.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Ruling:
    """Accepted (``reason`` may note something, "already in use"), or refused with its reason."""

    accepted: bool
    reason: str = ""

    def __post_init__(self) -> None:
        if not self.accepted and not self.reason:
            raise ValueError("a refused request needs its reason")


#: Accepted, with nothing to note (a rules verdict's ``ACCEPTED`` is another thing: an act judged legal).
DONE = Ruling(accepted=True)


def refused(reason: str) -> Ruling:
    return Ruling(accepted=False, reason=reason)
