"""The skills servers of the consume tests: a FastMCP one over a directory of skills
(stdio or streamable HTTP under uvicorn) and the SDK one whose manifest lies."""

from __future__ import annotations

import contextlib
import shlex
import sys
from collections.abc import Iterator
from pathlib import Path

from tests.mcp.supervisor_support import port_printed
from tests.support import skill_md, write_tree

SERVERS = Path(__file__).parent / "servers"
FASTMCP = SERVERS / "skills_server.py"
TAMPERED = SERVERS / "tampered_skills.py"


def skills_root(root: Path) -> Path:
    """Three skills below `root`: ``pdf`` (with ``refs/a.md``) and two named ``refunds``
    at ``acme/refunds`` and ``beta/refunds``."""
    return write_tree(
        root,
        {
            "pdf/SKILL.md": skill_md("pdf", "Work with PDFs.", "# PDF\nSee refs/a.md.\n"),
            "pdf/refs/a.md": "ref A\n",
            "acme/refunds/SKILL.md": skill_md("refunds", "Refunds the acme way."),
            "beta/refunds/SKILL.md": skill_md("refunds", "Refunds the beta way."),
        },
    )


def stdio_command(script: Path, *args: str | Path) -> str:
    """The command line that serves `script` over stdio."""
    return shlex.join([sys.executable, str(script), *map(str, args)])


@contextlib.contextmanager
def http_skills(root: Path) -> Iterator[str]:
    """The FastMCP skills server over `root` on 127.0.0.1; yields its /mcp URL."""
    with port_printed([sys.executable, str(FASTMCP), str(root), "--http"]) as port:
        yield f"http://127.0.0.1:{port}/mcp"
