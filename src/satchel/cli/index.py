"""`satchel index`: the skills index exactly as a model would read it."""

from __future__ import annotations

import sys
from functools import partial
from pathlib import Path

import click

from satchel.cli import _index as index
from satchel.cli import _output as out
from satchel.cli._context import Here
from satchel.cli._exit import OK
from satchel.cli._explain import explain_lines
from satchel.cli._held import held_back
from satchel.cli._held import say as say_held
from satchel.cli._params import Choice, json_option, located, model_option
from satchel.cli._workspace import loaded
from satchel.core._text import escape
from satchel.hosts._ranking import rank
from satchel.index._render import FORMATS, OVERRIDES, IndexFormat
from satchel.session._conditional import Conditional
from satchel.session._discovery import search_line, with_search_line
from satchel.session._options import SessionOptions

PLAIN = True  # only lines, tables and diagnostics: no rich when piped (cli._plain)
RUNS_NOTHING = True  # loads and checks only: no signal handling needed (cli._run)

PARAMS = (
    located(),
    model_option(),
    click.Option(
        ["--format", "index_format"],
        type=Choice(FORMATS),
        default=None,
        help="tool: for a load_skill tool; xml: <available_skills>; paths: SKILL.md paths "
        "[the host's own listing under a profile that has one (claude-code, codex, gemini), "
        "else tool].",
    ),
    click.Option(
        ["--max-skills"],
        type=click.IntRange(min=0),
        help="At most this many skills [the profile's budget; satchel: 64]. Not under a "
        "host's own listing (claude-code, codex, gemini), which has no such bound.",
    ),
    click.Option(
        ["--max-bytes"],
        type=click.IntRange(min=0),
        help="At most this many UTF-8 bytes [the profile's budget; satchel: 8,192]. Not "
        "under a host's own listing (claude-code, codex, gemini).",
    ),
    click.Option(
        ["--budget-chars"],
        type=click.IntRange(min=0),
        help="At most this many characters [the profile's budget]. Under claude-code, "
        "Claude Code's own character budget (as SLASH_COMMAND_TOOL_CHAR_BUDGET sets it); "
        "refused under codex and gemini, which budget their listings themselves.",
    ),
    click.Option(
        ["--budget-tokens"],
        type=click.IntRange(min=0),
        help="At most this many tokens, as satchel estimates them (4 bytes a token). Not "
        "under a host's own listing (claude-code, codex, gemini).",
    ),
    click.Option(
        ["--override", "overrides"],
        multiple=True,
        metavar="NAME=STATE",
        help=f"List a skill as STATE ({', '.join(OVERRIDES)}); over config.toml's "
        "[index.overrides] (repeatable).",
    ),
    click.Option(
        ["--explain"],
        is_flag=True,
        help="Show each skill's line, its cost, and why the budget cut or shortened it.",
    ),
    click.Option(["--tool-name"], default="load_skill", show_default=True),
    click.Option(
        ["--touch", "touches"],
        multiple=True,
        type=click.Path(path_type=Path),
        help="A file the agent has read or edited (repeatable): the conditional skills "
        "(paths:) it matches, and the nested skills roots above it, join the index.",
    ),
    click.Option(
        ["--search/--no-search"],
        default=None,
        help="End an index that leaves skills out with the line naming list_skills and "
        "search_skills, as a session does (--no-search: skill_search=False). Default: "
        "on, but off under a host's own listing (--host claude-code, codex, gemini), "
        "which the host sends without it.",
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
    here: Here,
    model: str | None,
    index_format: IndexFormat | None,
    max_skills: int | None,
    max_bytes: int | None,
    budget_chars: int | None,
    budget_tokens: int | None,
    overrides: tuple[str, ...],
    explain: bool,
    tool_name: str,
    touches: tuple[Path, ...],
    search: bool | None,
    query: str | None,
    as_json: bool,
) -> int:
    """Print the index text a model would read.

    The text is printed exactly as it would go into a system prompt (on a terminal,
    with control characters escaped); nothing at all is printed when no skill
    loads. The index never exceeds its budget (the host profile's, with the options
    given); what does not fit is shortened, then listed by name only, then left out,
    and each such skill is named on stderr (skill.index.shortened, skill.index.name-only,
    skill.index.omitted). --explain shows why, skill by skill. As at a session's start,
    a conditional skill (paths:) is left out until a --touch file matches it. With
    --query, the skills most relevant to it come first. An index that leaves skills
    out ends, as a session's does, with the line naming the search tools, whose room
    comes out of the budget (--no-search: without it; a host's own listing is printed
    as the host sends it, without it, unless --search). When the project is not
    trusted, a line on stderr names what it holds back and the command that trusts it.

    Under a host's own listing the budget is the host's: Claude Code's characters
    (--budget-chars replaces them, as its SLASH_COMMAND_TOOL_CHAR_BUDGET does),
    Codex's 2% of the model's window in tokens, none for Gemini CLI; a bound the host
    has not is a usage error (--format tool gives satchel's own index, which takes
    every bound), and --json reports the budget the host applies. The load's problems
    that change what is listed go to stderr (a setting ignored, config.invalid; a
    host's managed lock, host.*; in full; the others counted, with the satchel doctor
    that shows them) and into --json's diagnostics."""
    env = loaded(here, model=model)
    held = Conditional(env)
    style = env.host.index.style if env.host is not None and index_format is None else None
    given = {"skills": max_skills, "bytes": max_bytes, "chars": budget_chars}
    limits = index.budget(env, style, {**given, "tokens": budget_tokens})
    touched = tuple(d for path in touches for d in held.touch(path)[1])
    skills, chosen = rank(held.skills(), query), {**env.skill_overrides, **_pairs(overrides)}
    line = search_line(SessionOptions()) if (style is None if search is None else search) else None
    built = with_search_line(
        partial(index.build, env, skills, style, chosen, index_format, tool_name), limits, line
    )
    ending = line if line is not None and built.omitted and built.text else None
    found = index.shown((*index.listing_problems(env, style), *touched), built)
    untrusted = held_back(env)
    if as_json:
        shape = style or index_format or "tool"
        out.print_json(index.document(env, built, limits, shape, ending), (*found, *untrusted))
        return OK
    index.say(found, built)
    say_held(untrusted)
    text = built.text
    if explain:
        text = "".join(f"{line}\n" for line in explain_lines(built, limits, ending))
    sys.stdout.write(escape(text) if sys.stdout.isatty() else text)  # no raw controls on a tty
    return OK


def _pairs(given: tuple[str, ...]) -> dict[str, str]:
    """``NAME=STATE`` options as a mapping (a bad state is reported by the index)."""
    found: dict[str, str] = {}
    for pair in given:
        name, sep, state = pair.partition("=")
        if not sep or not name:
            raise click.BadParameter(f"{pair!r} is not NAME=STATE", param_hint="--override")
        found[name] = state
    return found
