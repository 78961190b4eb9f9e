"""A skills server written with the ``mcp`` SDK whose one skill's manifest lies.

It declares ``io.modelcontextprotocol/skills`` and lists the skill ``pdf`` with two files;
``refs/a.md`` is served with bytes other than those its manifest digest and size cover
(``--size`` keeps the size right, so only the digest differs); with ``--skill-md`` it is
``SKILL.md`` whose bytes differ (same size). With ``--unlisted`` its listing is empty
and ``skills/get`` still answers for ``pdf`` (an error for any other URI); with
``--clash`` the manifest also lists a file ``refs`` beside ``refs/a.md``, every file
served as promised. Serves stdio.
"""

from __future__ import annotations

import hashlib
import sys
from typing import Any

from _loopback import complete, skills_extension
from mcp.server.context import ServerRequestContext
from mcp.server.mcpserver import MCPServer
from mcp.shared.exceptions import MCPError

SKILL = b"---\nname: pdf\ndescription: Work with PDFs\n---\n\n# PDF\n"
SKILL_SERVED = SKILL.replace(b"# PDF", b"# FDP") if "--skill-md" in sys.argv else SKILL
PROMISED = b"ref A\n"
SERVED = b"ref B\n" if "--size" in sys.argv else b"ref A, and more\n"
CLASH = "--clash" in sys.argv  # a file `refs` beside `refs/a.md`, each as promised
if CLASH:
    SERVED = PROMISED
REFS = b"a file where a directory is\n"


def _file(uri: str, data: bytes) -> dict[str, Any]:
    return {"uri": uri, "digest": "sha256:" + hashlib.sha256(data).hexdigest(), "size": len(data)}


ENTRY = {
    "uri": "skill://pdf/SKILL.md",
    "frontmatter": {"name": "pdf", "description": "Work with PDFs"},
    "resources": [
        _file("skill://pdf/SKILL.md", SKILL),
        _file("skill://pdf/refs/a.md", PROMISED),
        *([_file("skill://pdf/refs", REFS)] if CLASH else []),
    ],
}


async def _list(ctx: ServerRequestContext[Any, Any], params: Any) -> dict[str, Any]:
    listed = [] if "--unlisted" in sys.argv else [ENTRY]
    return complete(skills=listed)


async def _get(ctx: ServerRequestContext[Any, Any], params: Any) -> dict[str, Any]:
    if params.uri != ENTRY["uri"]:
        raise MCPError(-32602, f"no skill at {params.uri}")
    return complete(skill=ENTRY)


app = MCPServer("tampered", extensions=[skills_extension(_list, _get)])


@app.resource("skill://pdf/SKILL.md", mime_type="text/markdown")
def skill_file() -> str:
    return SKILL_SERVED.decode()


@app.resource("skill://pdf/refs/a.md", mime_type="text/markdown")
def ref_a() -> str:
    return SERVED.decode()


@app.resource("skill://pdf/refs", mime_type="text/plain")
def refs_file() -> str:
    return REFS.decode()


if __name__ == "__main__":
    app.run("stdio")
