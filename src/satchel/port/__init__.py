"""Port a plugin to every host: read it with satchel's reader, write each host's manifests.

    report = port("plugins/deploy-kit", ["claude-code", "codex", "kimi"])

`TARGETS` names the hosts (``claude-code``, ``codex``, ``cursor``, ``gemini``,
``kimi``, ``vibe``, ``agent-plugins``); each `TargetReport` lists the files written
and every component the target cannot hold (`Drop`, a ``port.*`` diagnostic). See
docs/port.md.

It may import: `core`, `foundations`, `skills`, `index`, `hosts`, `kinds`, `hooks`,
`mcp`, `agents`, `plugins`, `trust`, `assembly`, `runtime`, `session`, `server`.
"""

import typing as _typing

if _typing.TYPE_CHECKING:
    from satchel.port._model import Drop, PortReport, TargetReport, Written
    from satchel.port._port import port, targets_named
    from satchel.port._targets import TARGETS, Target, hook_key
    from satchel.port._write import RECORD
else:
    from satchel.core import _lazy

    __getattr__, __dir__ = _lazy.attach(
        __name__,
        {
            "satchel.port._model": ("Drop", "PortReport", "TargetReport", "Written"),
            "satchel.port._port": ("port", "targets_named"),
            "satchel.port._targets": ("TARGETS", "Target", "hook_key"),
            "satchel.port._write": ("RECORD",),
        },
    )

__all__ = [
    "Drop",
    "hook_key",
    "port",
    "PortReport",
    "RECORD",
    "Target",
    "TARGETS",
    "TargetReport",
    "targets_named",
    "Written",
]
