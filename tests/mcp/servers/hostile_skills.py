"""A skills server that serves whatever a test tells it to.

Its one argument is a JSON file: ``{"skills": [...], "files": {uri: text}, "flood":
{uri: count}, "log": path}``. ``skills/list`` answers with the ``skills`` entries as
given (URIs with ``..``, absolute paths, backslashes: nothing is checked here),
``skills/get`` with the entry of that URI, and ``resources/read`` of a URI in ``files``
with its text; a URI in ``flood`` is answered with ``count`` bytes of ``x``, whatever
its manifest lists. With ``log``, each URI ``resources/read`` asks for is appended to
that file, one a line.

It serves stdio, or with ``--http`` streamable HTTP on 127.0.0.1 (printing ``port=N``
once it listens), with the standard library (``_skills_stdlib.py``: it starts in
milliseconds, not the second the SDK's import takes), declaring
``io.modelcontextprotocol/skills``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from _skills_stdlib import Refused, contents, serve, serve_http

SPEC = json.loads(Path(sys.argv[1]).read_text())
SKILLS: list[dict[str, Any]] = SPEC.get("skills", [])
FILES: dict[str, str] = SPEC.get("files", {})
FLOOD: dict[str, int] = SPEC.get("flood", {})
LOG: str | None = SPEC.get("log")


def _read(uri: str) -> dict[str, Any]:
    if LOG is not None:
        with open(LOG, "a", encoding="utf-8") as out:
            out.write(uri + "\n")
    if uri in FLOOD:
        return contents(uri, "x" * FLOOD[uri], "text/plain")
    if uri in FILES:
        return contents(uri, FILES[uri], "text/markdown")
    raise Refused(-32603, f"no resource {uri}", {"uri": uri})


if __name__ == "__main__":
    (serve_http if "--http" in sys.argv else serve)("hostile", SKILLS, SKILLS, _read)
