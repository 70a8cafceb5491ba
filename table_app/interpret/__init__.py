"""Interpretation: observations → game events, cross-checks and questions for the referee (pure)."""

from table_app.interpret.referee import step
from table_app.interpret.session import Decision, Question, RefereeSession, TableSetup, new_session

__all__ = ["Decision", "Question", "RefereeSession", "TableSetup", "new_session", "step"]
