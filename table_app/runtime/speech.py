"""Speech through espeak-ng (Debian's ``espeak-ng``), reading the catalogue's kana phrases.

Optional: with no espeak-ng on the PATH, or one without a voice for the language (``espeak-ng
--voices=ja`` lists none), the speaker says so once and stays quiet. Speaking runs on its own
thread so a slow synthesiser never holds the core thread up. The command line is built in one
place (:func:`espeak_command`); ``record_to`` sends each phrase to a WAV file instead of the
speakers (``-w``), through the same thread and command: what the tests listen to.
"""

from __future__ import annotations

import logging
import queue
import shutil
import subprocess
import threading
from pathlib import Path
from typing import Protocol

from table_app.announce.catalogue import speech_kana
from table_app.runtime.ports import CoreUpdate

logger = logging.getLogger(__name__)

SPEAK_TIMEOUT_S = 30.0


class Speaker(Protocol):
    def say(self, kana: str) -> None: ...


class RecordingSpeaker:
    """The fake: remembers what it was asked to say."""

    def __init__(self) -> None:
        self.said: list[str] = []

    def say(self, kana: str) -> None:
        self.said.append(kana)


def espeak_command(executable: str, voice: str, kana: str, wav: Path | None = None) -> list[str]:
    """The command that speaks ``kana`` with ``voice`` (to the speakers, or into ``wav``)."""
    return [executable, "-v", voice, *(("-w", str(wav)) if wav is not None else ()), "--", kana]


def has_voice(executable: str, voice: str) -> bool:
    """Whether espeak-ng has a voice for the language ``voice`` (``espeak-ng --voices=ja``)."""
    try:
        listed = subprocess.run(
            [executable, f"--voices={voice}"], check=False, capture_output=True, text=True, timeout=SPEAK_TIMEOUT_S
        )
    except (OSError, subprocess.TimeoutExpired) as error:
        logger.warning("%s --voices=%s failed: %s", executable, voice, error)
        return False
    # Under the header: "Pty Language Age/Gender VoiceName File ...". espeak-ng lists the voices
    # whose language starts with the one asked for ("no" finds "nb" too): keep exact matches.
    languages = [line.split()[1] for line in listed.stdout.splitlines()[1:] if len(line.split()) > 1]
    return any(language == voice or language.startswith(f"{voice}-") for language in languages)


class EspeakSpeaker:
    def __init__(self, voice: str = "ja", executable: str = "espeak-ng", record_to: Path | None = None) -> None:
        self.path = shutil.which(executable)
        self._voice = voice
        self._record_to = record_to
        self._recorded = 0
        self._queue: queue.Queue[str | None] = queue.Queue()
        self._thread: threading.Thread | None = None
        if self.path is None:
            logger.warning("%s not found: announcements are not spoken (Debian: apt install espeak-ng)", executable)
        elif not has_voice(self.path, voice):
            logger.warning("%s has no %r voice: announcements are not spoken", executable, voice)
            self.path = None
        else:
            self._thread = threading.Thread(target=self._run, name="speech", daemon=True)
            self._thread.start()

    @property
    def available(self) -> bool:
        return self.path is not None

    def say(self, kana: str) -> None:
        if self.path is not None:
            self._queue.put(kana)

    def close(self) -> None:
        """Speak what is queued, then stop."""
        if self._thread is not None:
            self._queue.put(None)
            self._thread.join(SPEAK_TIMEOUT_S)

    def _run(self) -> None:
        while (kana := self._queue.get()) is not None:
            assert self.path is not None
            command = espeak_command(self.path, self._voice, kana, self._next_wav())
            try:
                done = subprocess.run(command, check=False, capture_output=True, timeout=SPEAK_TIMEOUT_S)
            except (OSError, subprocess.TimeoutExpired) as error:
                logger.warning("espeak-ng failed: %s", error)
                continue
            if done.returncode != 0:
                logger.warning("espeak-ng exited %d: %s", done.returncode, done.stderr.decode(errors="replace").strip())

    def _next_wav(self) -> Path | None:
        if self._record_to is None:
            return None
        self._recorded += 1
        return self._record_to / f"{self._recorded:04d}.wav"


class SpeechListener:
    """Speaks each announcement that has a kana phrase."""

    def __init__(self, speaker: Speaker) -> None:
        self._speaker = speaker

    def on_update(self, update: CoreUpdate) -> None:
        seats = update.state.seat_naming()
        for announcement in update.announcements:
            kana = speech_kana(announcement, seats)
            if kana is not None:
                self._speaker.say(kana)
