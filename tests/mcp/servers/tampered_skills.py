"""A skills server whose one skill's manifest lies.

It declares ``io.modelcontextprotocol/skills`` and lists the skill ``pdf`` with two files;
``refs/a.md`` is served with bytes other than those its manifest digest and size cover
(``--size`` keeps the size right, so only the digest differs); with ``--skill-md`` it is
``SKILL.md`` whose bytes differ (same size). With ``--unlisted`` its listing is empty
and ``skills/get`` still answers for ``pdf`` (an error for any other URI); with
``--clash`` the manifest also lists a file ``refs`` beside ``refs/a.md``, every file
served as promised. Serves stdio, with the standard library's loop of
``_skills_stdlib.py`` (answering as the ``mcp`` SDK's server does).
"""

from __future__ import annotations

import hashlib
import sys
from typing import Any

from _skills_stdlib import Refused, contents, serve

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
FILES = {
    "skill://pdf/SKILL.md": (SKILL_SERVED, "text/markdown"),
    "skill://pdf/refs/a.md": (SERVED, "text/markdown"),
    "skill://pdf/refs": (REFS, "text/plain"),
}


def _read(uri: str) -> dict[str, Any]:
    if uri not in FILES:
        raise Refused(0, f"Unknown resource: {uri}")
    data, mime = FILES[uri]
    return contents(uri, data.decode(), mime)


if __name__ == "__main__":
    serve("tampered", [] if "--unlisted" in sys.argv else [ENTRY], [ENTRY], _read)
