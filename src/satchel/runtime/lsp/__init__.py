"""Running language servers: `LspSupervisor(environment)` starts a trusted plugin's
server for a file's extension and speaks LSP to it; `check_lsp` starts one, reads its
capabilities and stops it. See docs/plugins.md, "LSP servers"."""

import typing as _typing

if _typing.TYPE_CHECKING:
    from satchel.runtime.lsp._client import LspClient, LspFailure, LspReport, check_lsp, start_lsp
    from satchel.runtime.lsp._supervisor import LspSupervisor, server_for
else:
    from satchel.core import _lazy

    __getattr__, __dir__ = _lazy.attach(
        __name__,
        {
            "satchel.runtime.lsp._client": (
                "LspClient",
                "LspFailure",
                "LspReport",
                "check_lsp",
                "start_lsp",
            ),
            "satchel.runtime.lsp._supervisor": ("LspSupervisor", "server_for"),
        },
    )

__all__ = [
    "check_lsp",
    "LspClient",
    "LspFailure",
    "LspReport",
    "LspSupervisor",
    "server_for",
    "start_lsp",
]
