"""What the target names each skill, command and agent port points it at, read by the
same component readers the target's format reader uses (`satchel.plugins.components`).

The source names a component by its own format's rule: a Claude Code plugin's skill
in ``skills/<dir>/`` by its folder (its frontmatter ``name`` aside, and loaded with no
frontmatter at all), a command by its file's path. A target that reads the same file
may name it otherwise (by its frontmatter ``name``) or refuse it (no frontmatter, a
name it refuses, a name not its folder's). Each is said: ``port.name.changed`` with
the name the target gives, or ``port.skill.refused`` with the reader's reason. A
component port already dropped is not read again.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Protocol

from satchel.core.diagnostics import Diagnostic
from satchel.plugins._context import Ctx
from satchel.plugins.components._parts import load_agent_file, load_command_file, load_skill_dir
from satchel.port._model import Kind
from satchel.port._plan import Plan
from satchel.skills._names import NameRule

__all__ = ["named_agents", "named_commands", "named_skills"]

_RENAMED = "port.name.changed"


class _Named(Protocol):
    """A component a reader loaded: its name."""

    @property
    def name(self) -> str: ...


def _ctx(plan: Plan) -> Ctx:
    """The target's reading of the plugin: its host's plugin skill rule, the plugin's
    name and namespace."""
    rule = plan.target.profile.plugin_skill_rule or "claude-code"
    ctx = Ctx.of(plan.plugin.root, executable=True, skill_rule=rule)
    return replace(ctx, name=plan.plugin.name, namespace=plan.plugin.namespace)


def _dropped(plan: Plan, kind: Kind) -> set[str]:
    return {d.name for d in plan.drops if d.kind == kind}


def _why(found: Sequence[Diagnostic], code: str | None = None) -> str:
    """The reader's reason for leaving a component out: its last `code`, else its last
    error."""
    said = [d for d in found if d.code == code] or [d for d in found if d.severity == "error"]
    return said[-1].message if said else "the target's reader does not load it"


def named_skills(
    plan: Plan,
    *,
    by_dir: Callable[[str | None], bool] = lambda _: False,
    match_dir: bool = False,
    names: NameRule | None = None,
) -> None:
    """Each kept skill as the target reads it: `by_dir` (of the skill's folder,
    plugin-relative) says whether the target names it by its folder (Claude Code's
    ``skills/<dir>/``); `match_dir`, whether its name must be its folder's; `names`, the
    target format's own rule for a ``name:`` field (Gemini CLI's)."""
    ctx, gone = _ctx(plan), _dropped(plan, "skill")
    for skill in plan.plugin.skills:
        if skill.name in gone or skill.directory is None:
            continue
        rel = plan.rel(skill.directory)
        ctx.diags.clear()
        read = load_skill_dir(
            ctx,
            skill.directory,
            match_dir=match_dir,
            quiet=True,
            by_dir=by_dir(rel),
            name=plan.plugin.name if rel == "." else None,
            names=names,
        )
        if read is None:
            why = _why(ctx.diags, "plugin.skill.invalid")
            message = f"skill {skill.name!r}: {plan.target.title} does not load it: {why}"
            plan.drop("skill", skill.name, "port.skill.refused", message, skill.path)
        elif read.name != skill.name:
            message = f"skill {skill.name!r} is {read.name!r} in {plan.target.title}"
            plan.drop("skill", skill.name, _RENAMED, message, skill.path, to=read.name)


def named_commands(plan: Plan) -> None:
    """Each kept Markdown command as a target that names it by its frontmatter (or its
    file's stem) reads it: Cursor's rule."""
    files = [(c.name, c.path) for c in plan.plugin.commands]
    _named_files(plan, "command", files, load_command_file, "port.command.unsupported", None)


def named_agents(plan: Plan) -> None:
    """Each kept Markdown agent as a target that names it by its own name, with no
    folder in it, reads it: Cursor's rule."""
    files = [(a.name, a.path) for a in plan.plugin.agents]
    code, invalid = "port.agent.unsupported", "plugin.agent.invalid"
    _named_files(plan, "agent", files, load_agent_file, code, invalid)


def _named_files(
    plan: Plan,
    kind: Kind,
    files: Sequence[tuple[str, Path | None]],
    load: Callable[[Ctx, Path], _Named | None],
    code: str,
    invalid: str | None,
) -> None:
    """Each of `files` (a component's name and file) not already dropped, read by the
    target's `load`: left out with `code` (the reader's `invalid` reason, else its last
    error) when it does not load, said renamed when it loads under another name."""
    ctx, gone = _ctx(plan), _dropped(plan, kind)
    for name, path in files:
        if name in gone or path is None:
            continue
        ctx.diags.clear()
        read = load(ctx, path)
        if read is None:
            message = f"{kind} {name!r}: {plan.target.title} does not load it: "
            plan.drop(kind, name, code, message + _why(ctx.diags, invalid), path)
        elif read.name != name:
            _renamed(plan, kind, name, read.name, path)


def _renamed(plan: Plan, kind: Kind, name: str, to: str, path: Path | None) -> None:
    """`name` is `to` in the target: it puts no folder in a name, and reads a name the
    file gives (its frontmatter's) where the source names it by its path."""
    message = f"{kind} {name!r} is {to!r} in {plan.target.title}, which puts no folder in a name"
    stem = path.stem if path is not None else None
    if to.rsplit(":", 1)[-1] != stem and name.rsplit(":", 1)[-1] == stem:
        message += " and reads the name its frontmatter gives"
    plan.drop(kind, name, _RENAMED, message, path, to=to)
