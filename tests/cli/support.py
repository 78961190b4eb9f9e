"""What the CLI tests share: where the example is, a run result, golden files.

Golden files live in tests/cli/golden/. Regenerate them with
``SATCHEL_UPDATE_GOLDEN=1 .venv/bin/pytest tests/cli``; otherwise a mismatch fails.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from tests.support import golden
from tests.support.checkout import examples_root

# The example is read from a copy of what git tracks of examples/ (tests/support/checkout.py),
# whose root stands for the checkout's: whatever was run in the checkout, it is the same.
REPO = examples_root()
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


def cli_text(text: str) -> str:
    """CLI output as a golden file holds it: the example's paths as placeholders, no
    trailing blanks; a path of this checkout left in it fails the test."""
    text = normalised(placeholders(text))
    assert str(REPO) not in text, "a machine path would leak into a golden file"
    return text


# The one golden comparison, against tests/cli/golden/, of the output as `cli_text` has it.
check_golden = partial(golden.check_golden, directory=GOLDEN, clean=cli_text)
