"""Compare text with a golden file; SATCHEL_UPDATE_GOLDEN=1 rewrites them instead."""

from __future__ import annotations

import os
from pathlib import Path

GOLDEN = Path(__file__).parent / "golden"


def check(name: str, text: str) -> None:
    path = GOLDEN / name
    if os.environ.get("SATCHEL_UPDATE_GOLDEN") == "1":
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.read_text(encoding="utf-8") == text, f"output differs from {path.name}"
