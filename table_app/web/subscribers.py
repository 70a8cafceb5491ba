"""The listeners of a view feed, safe to add, remove and call from any thread."""

from __future__ import annotations

import threading

from table_app.view.ports import Unsubscribe, ViewListener


class Subscribers:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._listeners: list[ViewListener] = []

    def add(self, listener: ViewListener) -> Unsubscribe:
        with self._lock:
            self._listeners.append(listener)

        def unsubscribe() -> None:
            with self._lock:
                if listener in self._listeners:
                    self._listeners.remove(listener)

        return unsubscribe

    def snapshot(self) -> tuple[ViewListener, ...]:
        """The listeners now: call them outside any lock (a listener may unsubscribe)."""
        with self._lock:
            return tuple(self._listeners)
