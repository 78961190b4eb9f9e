"""What the CLI tests share: where the example is, a run result, golden files.

Golden files live in tests/cli/golden/. Regenerate them with
``SATCHEL_UPDATE_GOLDEN=1 .venv/bin/pytest tests/cli``; otherwise a mismatch fails.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
WORKSPACE = REPO / "examples" / "workspace"
HOME = REPO / "examples" / "home"
GOLDEN = Path(__file__).parent / "golden"
# Where the example is, relative to the repository root; the README's first command
# also trusts the example workspace for its run (EXAMPLE).
WHERE = ("--project", "examples/workspace", "--home", "examples/home")
EXAMPLE = (*WHERE, "--trust")


@dataclass(frozen=True)
class Run:
    code: int
    out: str
    err: str

    def json(self) -> Any:
        return json.loads(self.out)


def placeholders(text: str) -> str:
    """The example's machine paths written as <workspace> and <home>."""
    return text.replace(str(WORKSPACE), "<workspace>").replace(str(HOME), "<home>")


def normalised(text: str) -> str:
    """rich pads table cells with blanks; trailing blanks are not what a golden pins."""
    return "\n".join(line.rstrip() for line in text.split("\n"))


def check_golden(name: str, text: str, golden: Path = GOLDEN) -> None:
    """Compare with <golden>/<name>; SATCHEL_UPDATE_GOLDEN=1 rewrites the file first."""
    text = normalised(placeholders(text))
    assert str(REPO) not in text, "a machine path would leak into a golden file"
    path = golden / name
    if os.environ.get("SATCHEL_UPDATE_GOLDEN") == "1":
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8", newline="\n")
    assert path.exists(), f"no golden/{name}; run with SATCHEL_UPDATE_GOLDEN=1 to create it"
    assert text == path.read_text(encoding="utf-8"), f"output differs from golden/{name}"
