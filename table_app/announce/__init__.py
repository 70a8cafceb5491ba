"""Announcements: values the referee core produces; the JA/EN catalogue renders them at the edge."""

from table_app.announce.announcement import Announcement, AnnouncementKind, announce
from table_app.announce.catalogue import Language, render, speech_kana

__all__ = ["Announcement", "AnnouncementKind", "Language", "announce", "render", "speech_kana"]
