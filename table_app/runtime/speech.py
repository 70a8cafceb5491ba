"""Speech through espeak-ng (Debian's ``espeak-ng``), reading the catalogue's kana phrases.

Optional: with no espeak-ng on the PATH the speaker says so once and stays quiet. Speaking
runs on its own thread so a slow synthesiser never holds the core thread up.
"""

from __future__ import annotations

import logging
import queue
import shutil
import subprocess
import threading
from typing import Protocol

from table_app.announce.catalogue import speech_kana
from table_app.runtime.ports import CoreUpdate

logger = logging.getLogger(__name__)


class Speaker(Protocol):
    def say(self, kana: str) -> None: ...


class RecordingSpeaker:
    """The fake: remembers what it was asked to say."""

    def __init__(self) -> None:
        self.said: list[str] = []

    def say(self, kana: str) -> None:
        self.said.append(kana)


class EspeakSpeaker:
    def __init__(self, voice: str = "ja", executable: str = "espeak-ng") -> None:
        self.path = shutil.which(executable)
        self._voice = voice
        self._queue: queue.Queue[str | None] = queue.Queue()
        self._thread: threading.Thread | None = None
        if self.path is None:
            logger.warning("%s not found: announcements are not spoken", executable)
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
        if self._thread is not None:
            self._queue.put(None)
            self._thread.join(5.0)

    def _run(self) -> None:
        while (kana := self._queue.get()) is not None:
            assert self.path is not None
            try:
                subprocess.run([self.path, "-v", self._voice, kana], check=False, capture_output=True, timeout=30)
            except (OSError, subprocess.TimeoutExpired) as error:
                logger.warning("espeak-ng failed: %s", error)


class SpeechListener:
    """Speaks each announcement that has a kana phrase."""

    def __init__(self, speaker: Speaker) -> None:
        self._speaker = speaker

    def on_update(self, update: CoreUpdate) -> None:
        for announcement in update.announcements:
            kana = speech_kana(announcement)
            if kana is not None:
                self._speaker.say(kana)
