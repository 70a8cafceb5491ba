"""Speech for real: an announcement's kana phrase through the SpeechListener and the real
espeak-ng binary (Debian's, installed by scripts/setup) into a WAV file, which must hold a
voice: not silent, and about as long as the phrase."""

from __future__ import annotations

import array
import math
import shutil
import wave
from pathlib import Path

import pytest

from table_app.announce import AnnouncementKind, announce
from table_app.announce.catalogue import speech_kana
from table_app.domain.seat import Seat
from table_app.interpret import TableSetup, new_session
from table_app.runtime.ports import CoreUpdate
from table_app.runtime.speech import EspeakSpeaker, SpeechListener, espeak_command, has_voice

ESPEAK = shutil.which("espeak-ng")
needs_espeak = pytest.mark.skipif(ESPEAK is None, reason="espeak-ng is not installed (scripts/setup installs it)")


def _update(*announcements) -> CoreUpdate:
    return CoreUpdate(1, new_session(TableSetup()).game, (), announcements, None, 0)


def _listen(path: Path) -> tuple[float, float]:
    """Seconds of sound in the WAV file, and its RMS level (16-bit mono samples)."""
    with wave.open(str(path)) as recording:
        assert (recording.getnchannels(), recording.getsampwidth()) == (1, 2)
        samples = array.array("h", recording.readframes(recording.getnframes()))
        seconds = recording.getnframes() / recording.getframerate()
    return seconds, math.sqrt(sum(s * s for s in samples) / max(len(samples), 1))


def test_the_command_line_is_built_in_one_place():
    assert espeak_command("/usr/bin/espeak-ng", "ja", "りーち") == ["/usr/bin/espeak-ng", "-v", "ja", "--", "りーち"]
    to_file = espeak_command("espeak-ng", "ja", "りーち", Path("/tmp/a.wav"))
    assert to_file == ["espeak-ng", "-v", "ja", "-w", "/tmp/a.wav", "--", "りーち"]


@needs_espeak
def test_espeak_ng_has_a_japanese_voice():
    assert ESPEAK is not None
    assert has_voice(ESPEAK, "ja")
    assert not has_voice(ESPEAK, "no-such-language")


@needs_espeak
def test_a_riichi_announcement_is_spoken_by_the_real_espeak_ng(tmp_path):
    riichi = announce(AnnouncementKind.RIICHI, Seat.S2)
    speaker = EspeakSpeaker(record_to=tmp_path)
    assert speaker.available
    SpeechListener(speaker).on_update(_update(riichi, announce(AnnouncementKind.HAND_START, round="E1", honba=0)))
    speaker.close()  # speaks what is queued, then stops
    recorded = sorted(tmp_path.glob("*.wav"))
    assert len(recorded) == 1  # the hand's start has no phrase
    seconds, level = _listen(recorded[0])
    assert speech_kana(riichi) == "さんばんせき りーち"
    assert 0.8 < seconds < 4.0  # eight morae and a pause, at espeak-ng's default rate
    assert level > 500  # a voice, not silence (16-bit full scale is 32767)


@needs_espeak
def test_a_longer_phrase_takes_longer_to_say(tmp_path):
    speaker = EspeakSpeaker(record_to=tmp_path)
    short = announce(AnnouncementKind.CALL, Seat.S1, call="pon")
    long = announce(AnnouncementKind.LINK_LOST)
    SpeechListener(speaker).on_update(_update(short, long))
    speaker.close()
    first, second = sorted(tmp_path.glob("*.wav"))
    assert _listen(second)[0] > 2 * _listen(first)[0]


@needs_espeak
def test_a_language_without_a_voice_stays_quiet(tmp_path):
    speaker = EspeakSpeaker(voice="no-such-language", record_to=tmp_path)
    assert not speaker.available
    speaker.say("りーち")
    speaker.close()
    assert list(tmp_path.iterdir()) == []
