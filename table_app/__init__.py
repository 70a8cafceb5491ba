"""jantaku: referee, score keeper and broadcast feed for real riichi mahjong tables."""

__version__ = "0.1.0"
