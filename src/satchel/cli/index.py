"""`satchel index`: the skills index exactly as a model would read it."""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

import click

from satchel._budget import Budget
from satchel._environment import Environment
from satchel._ranking import rank
from satchel._render import FORMATS, OVERRIDES, Index, IndexFormat, build_index
from satchel._text import escape
from satchel.cli import _output as out
from satchel.cli._exit import OK
from satchel.cli._explain import entries_json, explain_lines
from satchel.cli._held import held_back
from satchel.cli._held import say as say_held
from satchel.cli._params import Choice, json_option, located, model_option
from satchel.cli._workspace import environment, model_problems
from satchel.session._conditional import Conditional
from satchel.session._discovery import search_line, with_search_line
from satchel.session._options import SessionOptions
from satchel.tokens import token_bill

PLAIN = True  # only lines, tables and diagnostics: no rich when piped (cli._plain)
RUNS_NOTHING = True  # loads and checks only: no signal handling needed (cli._run)

PARAMS = (
    *located(),
    model_option(),
    click.Option(
        ["--format", "index_format"],
        type=Choice(FORMATS),
        default=None,
        help="tool: for a load_skill tool; xml: <available_skills>; paths: SKILL.md paths "
        "[the host's own listing under a profile that has one (claude-code), else tool].",
    ),
    click.Option(
        ["--max-skills"],
        type=click.IntRange(min=0),
        help="At most this many skills [the profile's budget; satchel: 64].",
    ),
    click.Option(
        ["--max-bytes"],
        type=click.IntRange(min=0),
        help="At most this many UTF-8 bytes [the profile's budget; satchel: 8,192].",
    ),
    click.Option(
        ["--budget-chars"],
        type=click.IntRange(min=0),
        help="At most this many characters [the profile's budget].",
    ),
    click.Option(
        ["--budget-tokens"],
        type=click.IntRange(min=0),
        help="At most this many tokens, as satchel estimates them (4 bytes a token).",
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
    directory: Path | None,
    project: Path | None,
    home: Path | None,
    client: str,
    host: str | None,
    trust: bool | None,
    plugin_dirs: tuple[Path, ...],
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
    trusted, a line on stderr names what it holds back and the command that trusts it."""
    env = environment(directory, project, home, client, trust, plugin_dirs, host, model=model)
    held = Conditional(env)
    problems = [*model_problems(env), *(d for path in touches for d in held.touch(path)[1])]
    limits = _budget(env, max_skills, max_bytes, budget_chars, budget_tokens)
    skills, chosen = rank(held.skills(), query), {**env.skill_overrides, **_pairs(overrides)}
    style = env.host.index.style if env.host is not None and index_format is None else None
    searched = style is None if search is None else search
    line = search_line(SessionOptions()) if searched else None

    def build(within: Budget) -> Index:
        if style is not None:
            from satchel.hosts._listing import host_listing  # only under a host profile

            found = host_listing(
                env.host,
                skills,
                budget=within,
                commands=env.commands.commands.values(),
                overrides=chosen,
                known=env.skills,
                model=env.options.model,
                shadowed=[s.loser for s in env.shadowed],
                usage=env.listing.usage,
            )
            if found is not None:
                return found
        return build_index(
            skills,
            format=index_format or "tool",
            tool_name=tool_name,
            budget=within,
            overrides=chosen,
            known=env.skills,
        )

    built = with_search_line(build, limits, line)
    ending = line if line is not None and built.omitted and built.text else None
    text = built.text
    untrusted = held_back(env)
    if as_json:
        size = {
            "bytes": len(text.encode("utf-8")),
            "tokens": token_bill({"skills": text})["skills"],
        }
        shape = style or index_format or "tool"
        document: dict[str, object] = {
            "project": str(env.layout.project),
            "format": shape,
            "text": text,
        }
        if env.host is not None:  # the model whose window sized the budget
            resolved = env.host.model(env.options.model)
            window = resolved.window
            document["model"] = {
                "id": resolved.model,
                "window": window.tokens,
                "chars_per_token": window.chars_per_token,
                "known": resolved.known,
            }
        explained = {
            "budget": limits.to_json(),
            "entries": entries_json(built),
            "search_line": ending,
        }
        found = (*problems, *built.diagnostics, *untrusted)
        out.print_json({**document, **size, **explained}, found)
        return OK
    if problems or built.diagnostics:
        shown = (*problems, *built.diagnostics)
        out.console(stderr=True).print(out.diagnostic_grid(shown))
    say_held(untrusted)
    if explain:
        text = "".join(f"{line}\n" for line in explain_lines(built, limits, ending))
    if sys.stdout.isatty():
        sys.stdout.write(escape(text))  # a terminal gets no raw control characters
    else:
        sys.stdout.write(text)
    return OK


def _budget(
    env: Environment,
    max_skills: int | None,
    max_bytes: int | None,
    chars: int | None,
    tokens: int | None,
) -> Budget:
    """The profile's budget for the model asked for (satchel's 64 skills in 8 KiB when
    it sets none), with each bound the options give in its place."""
    base = env.index_budget()
    given = {"skills": max_skills, "bytes": max_bytes, "chars": chars, "tokens": tokens}
    return replace(base, **{k: v for k, v in given.items() if v is not None})


def _pairs(given: tuple[str, ...]) -> dict[str, str]:
    """``NAME=STATE`` options as a mapping (a bad state is reported by the index)."""
    found: dict[str, str] = {}
    for pair in given:
        name, sep, state = pair.partition("=")
        if not sep or not name:
            raise click.BadParameter(f"{pair!r} is not NAME=STATE", param_hint="--override")
        found[name] = state
    return found
