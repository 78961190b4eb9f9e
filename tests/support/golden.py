"""The one golden-file comparison: text against a file below a golden directory;
``SATCHEL_UPDATE_GOLDEN=1`` rewrites the file from the text first."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

GOLDEN = Path(__file__).resolve().parent.parent / "golden"
UPDATE = "SATCHEL_UPDATE_GOLDEN"  # the switch that rewrites golden files


def check_golden(
    name: str,
    text: str,
    directory: Path = GOLDEN,
    *,
    clean: Callable[[str], str] | None = None,
) -> None:
    """Compare `text` (passed through `clean` first, when given) with `directory/name`."""
    if clean is not None:
        text = clean(text)
    path = directory / name
    if os.environ.get(UPDATE) == "1":
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8", newline="\n")
    assert path.exists(), f"no golden/{name}; run with SATCHEL_UPDATE_GOLDEN=1 to create it"
    assert text == path.read_text(encoding="utf-8"), f"output differs from golden/{name}"
