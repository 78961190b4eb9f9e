"""satchel as an MCP server (`satchel serve`): skills, commands and resources over MCP.

It may import: `core`, `foundations`, `skills`, `index`, `hosts`, `kinds`, `hooks`,
`mcp`, `agents`, `plugins`, `trust`, `assembly`, `runtime`, `session`.
"""

import typing as _typing

if _typing.TYPE_CHECKING:
    from satchel.server._http import run_http
    from satchel.server._serve import SkillServer, build_server, run_stdio
else:
    from satchel.core import _lazy

    __getattr__, __dir__ = _lazy.attach(
        __name__,
        {
            "satchel.server._http": ("run_http",),
            "satchel.server._serve": ("SkillServer", "build_server", "run_stdio"),
        },
    )

__all__ = ["SkillServer", "build_server", "run_http", "run_stdio"]
