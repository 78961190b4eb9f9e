"""The text a session gives the model: activation blocks, the index, the context bill."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence

import satchel.session._discovery as discovery
from satchel.assembly._environment import Environment
from satchel.assembly.listings._listing import host_listing
from satchel.core._xml import escape as _xml
from satchel.core._xml import quoteattr
from satchel.core.diagnostics import Diagnostic
from satchel.foundations.tokens import Counter, truncate
from satchel.index._budget import Budget
from satchel.index._render import DEFAULT_BUDGET, Index, build_index
from satchel.kinds._instructions import instruction_segments
from satchel.kinds.commands import CONTEXT_ID as COMMANDS_ID
from satchel.kinds.commands import render_commands
from satchel.kinds.commands._arguments import Filler
from satchel.kinds.commands._model import Command
from satchel.kinds.resources import is_readable_text, list_resources
from satchel.plugins.components._styles import select_output_style
from satchel.session._model import ActiveSkill, ContextSegment, Tool, Via
from satchel.session._options import SessionOptions
from satchel.session._run import Runner
from satchel.skills._model import Skill

__all__ = [
    "INDEX_ID",
    "activation_body",
    "attribute",
    "bill",
    "offers_search",
    "read_hint",
    "segments",
    "skill_block",
]

INDEX_ID = "agent.skills"
MAX_LISTED = 50


def activation_body(
    skill: Skill,
    runner: Runner,
    options: SessionOptions,
    counter: Counter,
    filler: Filler | None = None,
    via: Via = "explicit",
) -> tuple[str, tuple[Diagnostic, ...]]:
    """The body as the model gets it on activation: placeholders filled by `filler`
    and commands run, in one pass, then cut at the token budget. Raises
    `SkillBodyError` when the file cannot be read."""
    body = skill.body()
    body, problems = runner.interpolate(skill, body, filler, via)
    return truncate(body.strip("\n"), options.max_body_tokens, counter), problems


def skill_block(
    skill: Skill, body: str, hint: str, keep: Callable[[str], bool] | None = None
) -> str:
    """The Agent Skills client guide's ``<skill_content>`` block; its resource list
    holds the files `keep` accepts (all of them without it)."""
    served = f" server={attribute(skill.family)}" if skill.scope == "mcp" else ""
    lines = [f"<skill_content name={attribute(skill.name)}{served}>", body, ""]
    directory = skill.directory
    if directory is not None:
        lines.append(f"Skill directory: {directory}")
        lines.append("Relative paths in this skill are relative to the skill directory.")
        listed, omitted = list_resources(directory, limit=MAX_LISTED, keep=keep)
        if listed:
            lines.append(hint)
            lines.append("<skill_resources>")
            lines.extend(f"  <file>{_xml(path)}</file>" for path in listed)
            if omitted:
                lines.append(f"  <!-- {omitted} more files not listed -->")
            lines.append("</skill_resources>")
    lines.append("</skill_content>")
    return "\n".join(lines)


def reachable(
    options: SessionOptions, runner: Runner, skill: Skill
) -> Callable[[str], bool] | None:
    """Which files of `skill` the model can reach with the session's tools: any with
    `load_skill` or without tools (the host's file tools; None), else the text files
    `skills_read` may read (a binary asset is refused as not text, so it is left out)
    and the `scripts/` files `skills_run_script` (run by `runner`) can start."""
    tools = options.tools
    if "load_skill" in tools or not tools or skill.directory is None:
        return None
    directory = skill.directory
    areas = options.read_areas

    def keep(path: str) -> bool:
        top = path.split("/", 1)[0]
        readable = "skills_read" in tools and (areas is None or top in areas)
        if readable and is_readable_text(directory, path, cap=options.resource_cap):
            return True
        if "skills_run_script" not in tools or top != "scripts":
            return False
        return not isinstance(runner.argv(skill, directory / path), Diagnostic)

    return keep


def read_hint(options: SessionOptions) -> str:
    """One line telling the model how to reach the files listed."""
    if "load_skill" in options.tools:
        name = options.name_of("load_skill")
        return f'Read one with {name}({{"name": ..., "resource": "<file>"}}).'
    parts = []
    areas = options.read_areas
    if "skills_read" in options.tools:
        which = "any of them" if areas is None else " and ".join(f"{a}/" for a in areas) + " files"
        parts.append(f"read {which} with {options.name_of('skills_read')}")
    if "skills_run_script" in options.tools:
        parts.append(f"run scripts/ files with {options.name_of('skills_run_script')}")
    if not parts:
        return "Read them with your file tools."
    line = " and ".join(parts)
    return line[0].upper() + line[1:] + "."


def segments(
    env: Environment,
    options: SessionOptions,
    active: Sequence[ActiveSkill],
    *,
    skills: Mapping[str, Skill] | None = None,
) -> tuple[tuple[ContextSegment, ...], Index]:
    """The output style (`agent.output-style`), the instruction files, `agent.skills`,
    `agent.plugin-commands`, and one segment per skill the host activated (of the
    `active` ones), in that order (the stable ones first); and the index of `skills`
    (default: the environment's), whose diagnostics name the skills its caps left out."""
    found: list[ContextSegment] = []
    style = select_output_style(env.output_styles, options.output_style)
    if style is not None:
        found.append(style.segment())
    if options.include_instructions:
        found.extend(instruction_segments(env.instructions))
    listed = env.skills if skills is None else skills
    index = build_session_index(
        options,
        listed,
        env.skill_overrides,
        known=env.skills,
        commands=tuple(env.commands.commands.values()),
        shadowed=tuple(s.loser for s in env.shadowed),
        usage=env.listing.usage,
    )
    if index.text:
        found.append(ContextSegment(INDEX_ID, "skill", "build", index.text))
    commands = render_commands(env.commands.commands)
    if commands:
        found.append(ContextSegment(COMMANDS_ID, "command", "build", commands))
    for held in active:
        if held.in_context:
            found.append(
                ContextSegment(f"agent.skill.{held.name}", "skill", "session", held.content)
            )
    return tuple(found), index


def build_session_index(
    options: SessionOptions,
    skills: Mapping[str, Skill],
    overrides: Mapping[str, object] | None = None,
    *,
    known: Iterable[str] | None = None,
    commands: Sequence[Command] = (),
    shadowed: Sequence[Skill] = (),
    usage: Mapping[str, float] | None = None,
) -> Index:
    """The session's index of `skills` within `options.index_budget`, listed as the
    `overrides` say, with what its budget cut; when it leaves skills out, it ends with
    the line naming the search tools (`_discovery`), whose room comes out of the
    budget. Under a host's own listing style (`options.index_style`, when no
    `index_format` is given and the tools are not zidane's) it is that host's
    listing, `commands` placed as the host places them (and the copies `shadowed`
    for a host that lists every copy), and the descriptions of the skills most
    `usage`d kept first."""
    budget = options.index_budget or DEFAULT_BUDGET

    def build(within: Budget) -> Index:
        if _styled(options):
            found = host_listing(
                options.index_style,
                skills.values(),
                budget=within,
                commands=commands,
                overrides=overrides,
                known=() if known is None else known,
                model=options.model,
                shadowed=shadowed,
                usage=usage,
            )
            if found is not None:
                return found
        return _session_index(options, skills, overrides, known, within)

    return discovery.with_search_line(build, budget, discovery.line_for(options))


def _styled(options: SessionOptions) -> bool:
    """Whether the index is the host's own listing: a style, no format asked for, and
    not zidane's skill tools (whose ``skills_use`` reads the ``xml`` index)."""
    chosen = options.index_style is not None and options.index_format is None
    return chosen and "skills_use" not in options.tools


def offers_search(
    options: SessionOptions,
    skills: Mapping[str, Skill],
    overrides: Mapping[str, object] | None = None,
) -> bool:
    """Whether the session offers `list_skills` and `search_skills`: its full index
    of `skills` leaves some out."""
    budget = options.index_budget or DEFAULT_BUDGET
    return discovery.offers(options, _session_index(options, skills, overrides, None, budget))


def _session_index(
    options: SessionOptions,
    skills: Mapping[str, Skill],
    overrides: Mapping[str, object] | None,
    known: Iterable[str] | None,
    budget: Budget,
) -> Index:
    tools = options.tools
    if "load_skill" in tools:
        fmt = options.index_format or "tool"
        head = None if fmt == "tool" else _head(options)
    else:
        fmt = options.index_format or ("xml" if "skills_use" in tools else "paths")
        head = _head(options) if "skills_use" in tools else None
    return build_index(
        skills,
        format=fmt,
        tool_name=options.name_of("load_skill") if "load_skill" in tools else "load_skill",
        head=head,
        budget=budget,
        overrides=overrides,
        known=known,
    )


def _head(options: SessionOptions) -> str:
    if "load_skill" in options.tools:
        call = options.name_of("load_skill")
    else:
        call = options.name_of("skills_use")
    return (
        "Skills available to this agent. Activate one only when its description matches "
        f'the task: call {call}({{"name":"<skill>"}}) for its instructions.'
    )


def bill(
    found: Sequence[ContextSegment], tools: Sequence[Tool], counter: Counter
) -> dict[str, int]:
    """Tokens by kind: the segments' text, and the tools' definitions as JSON."""
    totals: dict[str, int] = {}
    for segment in found:
        totals[segment.kind] = totals.get(segment.kind, 0) + counter(segment.text)
    if tools:
        schema = json.dumps([t.definition() for t in tools], separators=(",", ":"))
        totals["tool_schema"] = counter(schema)
    return totals


def attribute(text: str) -> str:
    """`text` as a quoted XML attribute value."""
    return quoteattr(text)
