"""Generate the small tile PNGs the web pages use from the CC0 FluffyStuff tile art.

    .venv/bin/python scripts/make_tile_images.py [ART_FOLDER]

ART_FOLDER defaults to the vendored art, vision/art/fluffystuff/Export/Regular.
Each face is laid on the blank tile front and shrunk to 60x80 pixels (RGBA), then written as
``table_app/web/static/tiles/<code>.png`` with the compact code the API uses ("1m", "0p" for a
red five, "7z", "back"). The art is public domain (CC0); the PNGs are committed so the app
needs neither the art nor OpenCV at run time.
"""

from __future__ import annotations

import sys
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_ART = ROOT / "vision" / "art" / "fluffystuff" / "Export" / "Regular"
OUT = ROOT / "table_app" / "web" / "static" / "tiles"
SIZE = (60, 80)  # width, height: 3:4 like the art, crisp enough at twice the display size

HONOURS = ("Ton", "Nan", "Shaa", "Pei", "Haku", "Hatsu", "Chun")
SUITS = (("m", "Man"), ("p", "Pin"), ("s", "Sou"))


def faces() -> dict[str, str]:
    """Compact code → art file stem."""
    names: dict[str, str] = {}
    for letter, stem in SUITS:
        for number in range(1, 10):
            names[f"{number}{letter}"] = f"{stem}{number}"
        names[f"0{letter}"] = f"{stem}5-Dora"
    for number, stem in enumerate(HONOURS, start=1):
        names[f"{number}z"] = stem
    return names


def read_rgba(path: Path) -> np.ndarray:
    image = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
    if image is None or image.shape[2] != 4:
        raise SystemExit(f"{path}: not an RGBA PNG")
    return image.astype(np.float32) / 255.0


def over(top: np.ndarray, bottom: np.ndarray) -> np.ndarray:
    """Porter-Duff 'over' of two straight-alpha images of the same size."""
    alpha_top = top[..., 3:4]
    alpha_bottom = bottom[..., 3:4]
    alpha = alpha_top + alpha_bottom * (1 - alpha_top)
    colour = (top[..., :3] * alpha_top + bottom[..., :3] * alpha_bottom * (1 - alpha_top)) / np.maximum(alpha, 1e-6)
    return np.concatenate([colour, alpha], axis=2)


def shrink(image: np.ndarray) -> np.ndarray:
    small = cv2.resize(image, SIZE, interpolation=cv2.INTER_AREA)
    return np.clip(small * 255.0 + 0.5, 0, 255).astype(np.uint8)


def main() -> int:
    art = Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT_ART
    front = read_rgba(art / "Front.png")
    OUT.mkdir(parents=True, exist_ok=True)
    for code, stem in faces().items():
        cv2.imwrite(str(OUT / f"{code}.png"), shrink(over(read_rgba(art / f"{stem}.png"), front)))
    cv2.imwrite(str(OUT / "back.png"), shrink(read_rgba(art / "Back.png")))
    print(f"wrote {len(faces()) + 1} tiles to {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
