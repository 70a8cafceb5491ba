"""Data only: the game ``jantaku demo`` plays when no ``--log`` is given.

``demo-game.mjlog`` is a real Tenhou 鳳南喰赤 (Houou, East-South, red fives) game of 2010-08-17,
a public test fixture of the MIT-licensed mjx project (mjx-project/mjx,
``tests_py/resources/mjlog/2010081709gm-00a9-0000-fe3371ad.mjlog``): 15 hands, no bust.
"""

from pathlib import Path

DEMO_LOG = Path(__file__).resolve().parent / "demo-game.mjlog"
