"""`satchel compat`: what every agent host does with a skill, a plugin or a project
(see docs/compat.md).

`compat(path)` loads `path` once per host profile (`satchel.hosts`) and returns a
`Report`: per host, what it loads under the ids it gives (`Loads`), what it drops and
the rule that drops it (`Drop`, a ``compat.*`` diagnostic), and the always-on token
cost of its skill index and instruction files against its budget (`Tokens`). For a
plugin, each host `satchel port` writes for is also shown as it reads the plugin once
ported (`Ported`, worked out in a scratch copy), and judged on both (`Verdict`).

It may import: `core`, `foundations`, `skills`, `index`, `hosts`, `kinds`, `hooks`,
`mcp`, `agents`, `plugins`, `trust`, `assembly`, `runtime`, `session`, `server`,
`audit`, `install`, `port`.
"""

import typing as _typing

if _typing.TYPE_CHECKING:
    from satchel.compat._budget import CONTEXT_TOKENS
    from satchel.compat._model import (
        COMPONENTS,
        Drop,
        HostReport,
        Loads,
        Ported,
        Report,
        Tokens,
        Verdict,
    )
    from satchel.compat._report import compat
else:
    from satchel.core import _lazy

    __getattr__, __dir__ = _lazy.attach(
        __name__,
        {
            "satchel.compat._budget": ("CONTEXT_TOKENS",),
            "satchel.compat._model": (
                "COMPONENTS",
                "Drop",
                "HostReport",
                "Loads",
                "Ported",
                "Report",
                "Tokens",
                "Verdict",
            ),
            "satchel.compat._report": ("compat",),
        },
    )

__all__ = [
    "COMPONENTS",
    "CONTEXT_TOKENS",
    "Drop",
    "HostReport",
    "Loads",
    "Ported",
    "Report",
    "Tokens",
    "Verdict",
    "compat",
]
