"""`satchel audit`: every executable or risky construct in a skill, a tree of skills,
a plugin or a workspace, found without running anything (see docs/audit.md).

`audit_path(path)` returns a `Report` of `Finding` values, each named by a rule of
`RULES`; `to_sarif` writes one as SARIF 2.1.0. `audit_change(old, new)` audits two
versions of a tree and returns the `Delta`: each `NewRisk` the new one brings.

It may import: `core`, `foundations`, `skills`, `index`, `hosts`, `kinds`, `hooks`,
`mcp`, `agents`, `plugins`, `trust`, `assembly`, `runtime`, `session`, `server`.
"""

import typing as _typing

if _typing.TYPE_CHECKING:
    from satchel.audit._delta import Delta, NewRisk, audit_change, delta
    from satchel.audit._grants import Grant
    from satchel.audit._model import LEVELS, RULES, TRUST_STATES, Finding, Report, Rule, at_least
    from satchel.audit._sarif import to_sarif
    from satchel.audit._scan import audit_path, kind_of
    from satchel.audit._tree import Limits
else:
    from satchel.core import _lazy

    __getattr__, __dir__ = _lazy.attach(
        __name__,
        {
            "satchel.audit._delta": ("Delta", "NewRisk", "audit_change", "delta"),
            "satchel.audit._grants": ("Grant",),
            "satchel.audit._model": (
                "LEVELS",
                "RULES",
                "TRUST_STATES",
                "Finding",
                "Report",
                "Rule",
                "at_least",
            ),
            "satchel.audit._sarif": ("to_sarif",),
            "satchel.audit._scan": ("audit_path", "kind_of"),
            "satchel.audit._tree": ("Limits",),
        },
    )

__all__ = [
    "at_least",
    "audit_change",
    "audit_path",
    "delta",
    "Delta",
    "Finding",
    "Grant",
    "kind_of",
    "LEVELS",
    "Limits",
    "NewRisk",
    "Report",
    "Rule",
    "RULES",
    "to_sarif",
    "TRUST_STATES",
]
