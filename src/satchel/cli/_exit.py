"""Exit codes. `main()` maps exceptions to them; verbs return OK or PROBLEMS."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from satchel.diagnostics import Diagnostic

OK = 0
PROBLEMS = 1  # validate or doctor found errors; a name or a path the user gave is wrong
USAGE = 2
BUG = 3
POLICY_CLOSED = 4  # satchel policy check / export: a policy file cannot be read (fail closed)
INTERRUPTED = 130


def for_diagnostics(diagnostics: Iterable[Diagnostic]) -> int:
    """PROBLEMS when any diagnostic is an error, else OK."""
    return PROBLEMS if any(d.severity == "error" for d in diagnostics) else OK
