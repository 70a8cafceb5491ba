"""Listeners: speech (fake and absent espeak-ng), the panel's LEDs and buzzer, printed text."""

from __future__ import annotations

import io

from hardware.panel import ILLEGAL_ACT_BEEP, LinkLight, RecordingPanel
from table_app.announce import AnnouncementKind, announce
from table_app.domain.seat import Seat
from table_app.interpret import TableSetup, new_session, step
from table_app.observations import PondTileAdded
from table_app.runtime.listeners import PanelListener, TextAnnouncer
from table_app.runtime.ports import CoreUpdate
from table_app.runtime.speech import EspeakSpeaker, RecordingSpeaker, SpeechListener
from tests.runtime.helpers import first_game, observations_of, setup_for


def _update(*announcements, state=None):
    state = state if state is not None else new_session(TableSetup()).game
    return CoreUpdate(1, state, (), tuple(announcements), None, 0)


def test_speech_says_kana_for_the_kinds_that_speak():
    speaker = RecordingSpeaker()
    SpeechListener(speaker).on_update(
        _update(announce(AnnouncementKind.RIICHI, Seat.S2), announce(AnnouncementKind.HAND_START, round="E1", honba=0))
    )
    assert speaker.said == ["さんばんせき りーち"]


def test_without_espeak_ng_speech_is_skipped_cleanly():
    speaker = EspeakSpeaker(executable="no-such-espeak-ng-binary")
    assert not speaker.available
    speaker.say("りーち")  # no error, nothing queued
    speaker.close()


def test_the_panel_beeps_on_an_illegal_act_and_shows_the_link():
    panel = RecordingPanel(post=lambda press: None)
    listener = PanelListener(panel)
    listener.on_update(_update(announce(AnnouncementKind.ILLEGAL_ACT, Seat.S1, reason="kuikae", consequence="chombo")))
    assert panel.beeps == [ILLEGAL_ACT_BEEP]
    listener.on_update(_update(announce(AnnouncementKind.LINK_RESTORED)))
    assert panel.link_light is LinkLight.OK
    listener.on_update(_update(announce(AnnouncementKind.LINK_LOST)))
    assert panel.link_light is LinkLight.LOST


def test_the_panel_lights_riichi_seats(logs_dir):
    game = first_game(logs_dir)
    session = new_session(setup_for(game))
    panel = RecordingPanel(post=lambda press: None)
    listener = PanelListener(panel)
    for observation in observations_of(game):
        session = step(session, observation).session
        listener.on_update(_update(state=session.game))
        if isinstance(observation, PondTileAdded) and observation.sideways:
            break
    assert panel.riichi_lit(observation.seat)
    assert sum(panel.riichi_lit(seat) for seat in Seat) == 1


def test_text_is_printed_in_each_language():
    out = io.StringIO()
    TextAnnouncer(out).on_update(_update(announce(AnnouncementKind.PAYMENTS_COMPLETE)))
    assert out.getvalue() == "[ja] 支払い完了\n[en] Payments complete\n"
