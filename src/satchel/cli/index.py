"""`satchel index`: the skills index exactly as a model would read it."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from satchel._ranking import rank
from satchel._render import FORMATS, MAX_BYTES, MAX_SKILLS, IndexFormat, build_index
from satchel._text import escape
from satchel.cli import _output as out
from satchel.cli._exit import OK
from satchel.cli._params import json_option, located
from satchel.cli._workspace import environment
from satchel.session._conditional import Conditional
from satchel.tokens import token_bill

PARAMS = (
    *located(),
    click.Option(
        ["--format", "index_format"],
        type=click.Choice(FORMATS),
        default="tool",
        show_default=True,
        help="tool: for a load_skill tool; xml: <available_skills>; paths: SKILL.md paths.",
    ),
    click.Option(
        ["--max-skills"], type=click.IntRange(min=0), default=MAX_SKILLS, show_default=True
    ),
    click.Option(["--max-bytes"], type=click.IntRange(min=0), default=MAX_BYTES, show_default=True),
    click.Option(["--tool-name"], default="load_skill", show_default=True),
    click.Option(
        ["--touch", "touches"],
        multiple=True,
        type=click.Path(path_type=Path),
        help="A file the agent has read or edited (repeatable): the conditional skills "
        "(paths:) it matches, and the nested skills roots above it, join the index.",
    ),
    click.Option(
        ["--query"],
        default=None,
        help="The user's message: list the skills most relevant to it first (BM25).",
    ),
    json_option(),
)


def run(
    *,
    directory: Path | None,
    project: Path | None,
    home: Path | None,
    client: str,
    host: str | None,
    trust: bool | None,
    plugin_dirs: tuple[Path, ...],
    index_format: IndexFormat,
    max_skills: int,
    max_bytes: int,
    tool_name: str,
    touches: tuple[Path, ...],
    query: str | None,
    as_json: bool,
) -> int:
    """Print the index text a model would read.

    The text is printed exactly as it would go into a system prompt (on a terminal,
    with control characters escaped); nothing at all is printed when no skill
    loads. Each skill the caps leave out is named on stderr (skill.index.omitted).
    As at a session's start, a conditional skill (paths:) is left out until a --touch
    file matches it. With --query, the skills most relevant to it come first."""
    env = environment(directory, project, home, client, trust, plugin_dirs, host)
    held = Conditional(env)
    problems = [d for path in touches for d in held.touch(path)[1]]
    skills = held.skills()
    built = build_index(
        rank(skills, query),
        format=index_format,
        max_skills=max_skills,
        max_bytes=max_bytes,
        tool_name=tool_name,
    )
    text = built.text
    if as_json:
        size = {
            "bytes": len(text.encode("utf-8")),
            "tokens": token_bill({"skills": text})["skills"],
        }
        document = {"project": str(env.layout.project), "format": index_format, "text": text}
        out.print_json({**document, **size}, (*problems, *built.diagnostics))
        return OK
    if problems or built.diagnostics:
        shown = (*problems, *built.diagnostics)
        out.console(stderr=True).print(out.diagnostic_grid(shown))
    if sys.stdout.isatty():
        sys.stdout.write(escape(text))  # a terminal gets no raw control characters
    else:
        sys.stdout.write(text)
    return OK
