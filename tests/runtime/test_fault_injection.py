"""A power cut at any moment: ``jantaku run`` SIGKILLed again and again over a whole game and
restarted each time ends with the journal an uninterrupted run makes: nothing lost, nothing
doubled, nothing rewritten."""

from __future__ import annotations

from table_app.logs import read_log
from table_app.rules.mjai_codec import encode_event
from tests.runtime.fault_injection import kill_until_finished
from tests.runtime.helpers import uninterrupted_events

SHORT_GAME = "2020081220gm-00a9-0000-9ee6ab3b.json"  # five hands, 398 events


def test_killed_at_random_moments_over_a_whole_game_nothing_is_lost_or_doubled(tmp_path, logs_dir):
    log = logs_dir / "tenhou6_json" / SHORT_GAME
    expected = [encode_event(e) for e in uninterrupted_events(read_log(log)[0])]
    report = kill_until_finished(tmp_path, log, seed=16, events_between=(30, 110))
    assert report.kills >= 4, report  # killed over the whole game, some while starting or resuming
    assert report.finished
    assert report.games == 1  # every restart resumed the same game
    assert report.lost == 0  # what each kill left on disk is still there, unchanged
    assert report.unrecorded == 0  # every event a killed run reported journaled is kept
    kinds = {kind for _, kind, _ in report.final}
    assert kinds == {"event"}  # no undo or correction was needed to repair anything
    assert [seq for seq, _, _ in report.final] == list(range(1, len(expected) + 1))
    assert [body for _, _, body in report.final] == expected  # nothing doubled or skipped
