"""Exit codes. `main()` maps exceptions to them; verbs return OK or PROBLEMS."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from satchel.core.diagnostics import Diagnostic

OK = 0
PROBLEMS = 1  # validate or doctor found errors; a name or a path the user gave is wrong
USAGE = 2
BUG = 3
POLICY_CLOSED = 4  # satchel policy check / export: a policy file cannot be read (fail closed)
INTERRUPTED = 130

# Every exit code satchel gives, with what it means: `satchel --help` ends with this
# table and docs/cli.md shows it (scripts/cli_reference.py), so the two cannot differ.
MEANINGS = (
    (OK, "success: the verb did what was asked and found nothing to fail on"),
    (PROBLEMS, "problems found (validate, doctor, --fail-on), or a name or source is wrong"),
    (USAGE, "usage error: an unknown verb or option, a bad value, a missing argument"),
    (BUG, "a bug in satchel: one line says what to report, never a traceback"),
    (POLICY_CLOSED, "policy check / export: a policy file cannot be read (fail closed)"),
    (INTERRUPTED, "interrupted (Ctrl-C, SIGINT): one line, no traceback"),
)


def for_diagnostics(diagnostics: Iterable[Diagnostic], fail_on: str | None = None) -> int:
    """PROBLEMS when any diagnostic is at `fail_on` or above (None: an error), else OK."""
    from satchel.core.diagnostics import SEVERITIES

    failing = SEVERITIES[: SEVERITIES.index(fail_on or "error") + 1]
    return PROBLEMS if any(d.severity in failing for d in diagnostics) else OK
