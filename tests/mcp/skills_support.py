"""The skills servers of the consume tests: a FastMCP one over a directory of skills
(stdio or streamable HTTP under uvicorn), a standard-library one whose manifest lies,
and one that serves whatever entries and files a test gives it (`hostile`, the standard
library's too, over stdio or streamable HTTP)."""

from __future__ import annotations

import contextlib
import hashlib
import json
import shlex
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from tests.mcp.supervisor_support import port_printed
from tests.support import skill_md, write_tree

SERVERS = Path(__file__).parent / "servers"
FASTMCP = SERVERS / "skills_server.py"
TAMPERED = SERVERS / "tampered_skills.py"
HOSTILE = SERVERS / "hostile_skills.py"


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


def entry(uri: str, name: str, files: Mapping[str, str]) -> dict[str, Any]:
    """A ``skills/list`` entry for the skill `uri` named `name` (its frontmatter that
    of ``skill_md(name)``) whose manifest lists `files` (URI -> text) with their digests
    and sizes."""
    rows = [
        {
            "uri": file_uri,
            "digest": "sha256:" + hashlib.sha256(text.encode()).hexdigest(),
            "size": len(text.encode()),
        }
        for file_uri, text in files.items()
    ]
    return {
        "uri": uri,
        "frontmatter": {"name": name, "description": "Does a thing."},  # as skill_md's
        "resources": rows,
    }


def hostile(
    spec: Path,
    skills: list[dict[str, Any]],
    files: Mapping[str, str],
    flood: Mapping[str, int] | None = None,
    log: Path | None = None,
) -> list[str]:
    """The argv of the hostile server answering with `skills`, `files` and `flood` (see
    ``servers/hostile_skills.py``), its spec written to `spec`; each URI it is asked to
    read is appended to `log`."""
    served: dict[str, Any] = {"skills": skills, "files": dict(files), "flood": dict(flood or {})}
    if log is not None:
        served["log"] = str(log)
    spec.write_text(json.dumps(served))
    return [sys.executable, str(HOSTILE), str(spec)]


@contextlib.contextmanager
def http_hostile(argv: list[str]) -> Iterator[str]:
    """The hostile server of `argv` over streamable HTTP on 127.0.0.1; yields its URL."""
    with port_printed([*argv, "--http"]) as port:
        yield f"http://127.0.0.1:{port}/mcp"


def hostile_listing(
    outside: Path,
) -> tuple[list[dict[str, Any]], dict[str, str], list[tuple[str, str]]]:
    """A listing of one good skill, ``pdf``, beside skills whose paths would leave the
    tree they are copied to (a ``..`` climb, an absolute path under `outside`, a
    backslash, a manifest file climbing out of its skill); its entries, its files, and
    each hostile entry's URI with why it is refused, in listing order."""
    pdf, climb = "skill://pdf/SKILL.md", "skill://../../evil/SKILL.md"
    absolute, back = f"skill://{outside}/evil/SKILL.md", "skill://..\\evil/SKILL.md"
    nested, escape = "skill://evil/SKILL.md", "skill://evil/../../../evil/SKILL.md"
    files = {
        pdf: skill_md("pdf"),
        climb: skill_md("evil"),
        absolute: skill_md("evil"),
        back: skill_md("..\\evil"),
        nested: skill_md("evil"),
        escape: skill_md("evil"),
    }
    skills = [
        entry(pdf, "pdf", {pdf: files[pdf]}),
        entry(climb, "evil", {climb: files[climb]}),
        entry(absolute, "evil", {absolute: files[absolute]}),
        entry(back, "..\\evil", {back: files[back]}),
        entry(nested, "evil", {nested: files[nested], escape: files[escape]}),
    ]
    why = [
        (climb, "its path '../../evil' has a '..' segment"),
        (absolute, f"its path '{outside}/evil' is absolute"),
        (back, "its path '..\\\\evil' holds a backslash or NUL"),
        (nested, f"{escape} has a '..' segment"),
    ]
    return skills, files, why
