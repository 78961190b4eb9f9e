"""The skills of a load: every root in precedence order, settled by name, with a report
of each root and every skill that lost its name."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import field, replace
from pathlib import Path
from types import MappingProxyType

from satchel.assembly._options import Options, PluginSkillNames
from satchel.assembly._writing import WrittenSkills
from satchel.core._files import same_file
from satchel.core._model import model
from satchel.core.diagnostics import Diagnostic, diagnostic
from satchel.core.layout import EXTRA, PLUGIN, PROJECT, Layout, Root
from satchel.foundations._host_state import host_config
from satchel.foundations.origin import Trust
from satchel.foundations.precedence import (
    UNSEEN,
    Clash,
    Loss,
    Shadowed,
    Source,
    Verdict,
    by_name,
    settle,
)
from satchel.plugins._model import Plugin
from satchel.skills._discover import RootScan, scan_files, scan_root
from satchel.skills._fields import FieldRules
from satchel.skills._host_rules import SkillRules, skill_rules
from satchel.skills._model import Skill
from satchel.skills._names import HostNaming

__all__ = ["RootReport", "SkillPart", "settle_skills", "shadow_diagnostic"]


@model
class RootReport:
    """One root as `doctor` shows it: whether it exists, what loaded, what lost."""

    root: Root
    exists: bool
    loaded: int = 0
    shadowed: int = 0
    skipped: str | None = None


@model
class SkillPart:
    """The skills part of a load: the winners, what went wrong, each root's report and
    every skill that lost its name."""

    skills: Mapping[str, Skill] = field(default_factory=lambda: MappingProxyType({}))
    diagnostics: tuple[Diagnostic, ...] = ()
    roots: tuple[RootReport, ...] = ()
    shadowed: tuple[Shadowed[Skill], ...] = ()


def settle_skills(
    lay: Layout,
    opts: Options,
    trust: Trust,
    plugins: Sequence[Plugin],
    written: WrittenSkills | None,
    name_hosts: Callable[[], tuple[HostNaming, ...]] | None = None,
) -> SkillPart:
    """The skills of a load; `name_hosts` gives what the hosts whose name rule differs
    do with a name, for the note `opts.skill_names` asks for (`NameRule.note_hosts`)."""
    rules = FieldRules(
        strict=opts.strict,
        unicode_names=opts.unicode_names,
        client=lay.client,
        deprecated=opts.deprecated_fields(lay.client),
        names=opts.skill_names,
        hosts=name_hosts if opts.skill_names.note_hosts else None,
    )
    wanted = _wanted(opts, _host_rules(lay, opts))
    parts = list(_skill_sources(lay, opts, trust, rules, plugins, written, wanted))
    settled = settle(
        (Source(opts.catalog, admit=wanted), *(source for source, _ in parts)),
        lost=_skill_lost,
        within=by_name,
    )
    won = {id(s) for s in settled.winners}
    return SkillPart(
        MappingProxyType({s.name: s for s in settled.winners}),
        settled.diagnostics,
        tuple(_report(part, won) for _, part in parts),
        settled.shadowed,
    )


def _skill_sources(
    lay: Layout,
    opts: Options,
    trust: Trust,
    rules: FieldRules,
    plugins: Sequence[Plugin],
    written: WrittenSkills | None,
    wanted: Callable[[Skill], Verdict[Skill]],
) -> Iterator[tuple[Source[Skill], RootScan | RootReport]]:
    """Each root in precedence order as a source of skills (each passing `wanted`), with
    its scan (or, for a root that is skipped, its report); first what `write_skills`
    wrote."""
    if written is not None:
        scan = _read_written(lay, written, rules)
        yield Source(scan.skills, (*written.diagnostics, *scan.diagnostics), wanted), scan
    for root, skipped in _roots(lay, opts, trust):
        if skipped:
            yield _skipped(root, skipped)
            continue
        scan = scan_root(root, rules, lay.walk, cache=opts.cache)
        yield Source(scan.skills, scan.diagnostics, wanted), scan
    # of two plugins holding one skill name, the last wins under some hosts (Gemini CLI)
    ordered = reversed(plugins) if opts.plugin_skill_clash == "last" else iter(plugins)
    for plugin in ordered:
        scan = _plugin_skills(plugin, opts.plugin_skill_names)
        yield Source(scan.skills, scan.diagnostics, wanted), scan


def _skipped(root: Root, why: str) -> tuple[Source[Skill], RootReport]:
    exists = os.path.isdir(root.path)
    found: tuple[Diagnostic, ...] = ()
    if exists:
        message = "project skills here are not loaded: the project is not trusted"
        found = (diagnostic("discovery.untrusted", message, root.path),)
    return Source(diagnostics=found), RootReport(root, exists, skipped=why)


def _report(part: RootScan | RootReport, won: set[int]) -> RootReport:
    """A scanned root's report: how many of its skills loaded (their ids are in
    `won`), how many did not."""
    if isinstance(part, RootReport):
        return part
    loaded = sum(id(s) in won for s in part.skills)
    return RootReport(part.root, part.exists, loaded, len(part.skills) - loaded)


def _read_written(lay: Layout, written: WrittenSkills, rules: FieldRules) -> RootScan:
    """Exactly the skills `write_skills` wrote (never others left there by an earlier
    run); nothing when the layout has no `write_root`."""
    if lay.write_root is None:
        return RootScan(written.root)
    return scan_files(written.root, list(written.paths), rules)


def _plugin_skills(plugin: Plugin, names: PluginSkillNames) -> RootScan:
    """A plugin's skills as one more root of scope ``plugin``, after every other (the
    root shown is the plugin's directory: formats keep skills in different places)."""
    root = Root(plugin.root, PLUGIN, plugin.name)
    skills = list(plugin.skills)  # each carries the plugin's origin already
    if names == "namespaced":
        skills = [replace(s, name=plugin.qualified(s.name)) for s in skills]
    return RootScan(root, exists=True, skills=skills)


def _roots(lay: Layout, opts: Options, trust: Trust) -> Iterable[tuple[Root, str | None]]:
    """The roots to read in precedence order, each with why it is skipped, if it is."""
    if not opts.skip_default_paths:
        for root in lay.skill_roots():
            untrusted = root.scope == PROJECT and not trust.load_project
            yield root, "untrusted" if untrusted else None
    for path in opts.scan:
        yield Root(Path(lay.cwd, path), EXTRA, "scan"), None


def _host_rules(lay: Layout, opts: Options) -> SkillRules:
    """The skills the host turned off in its own config (`Options.host_state`)."""
    state = opts.host_state
    if state is None or state.skill_rules is None:
        return SkillRules()
    return skill_rules(state, host_config(lay, state, trust_project=False))


def _wanted(opts: Options, rules: SkillRules | None = None) -> Callable[[Skill], Verdict[Skill]]:
    """The skills `enabled` and `exclude` let through, and the host's own `rules` (the
    others count as not loaded)."""
    allowed = None if opts.enabled is True else frozenset(opts.enabled or ())
    excluded = frozenset(opts.exclude)

    longest = opts.max_skill_name

    def admit(skill: Skill) -> Verdict[Skill]:
        dropped = skill.name in excluded or (allowed is not None and skill.name not in allowed)
        if not dropped and longest is not None and len(skill.name) > longest:
            return None, _refused_name(skill, longest)
        if not dropped and rules is not None and (off := rules.verdict(skill)) is not None:
            return None, off
        return (None if dropped else skill), None

    return admit


def _refused_name(skill: Skill, longest: int) -> Diagnostic:
    message = (
        f"the host loads no skill whose name is over {longest} characters; "
        f"{skill.name[:20]!r}... has {len(skill.name)}"
    )
    return diagnostic("skill.name.refused", message, skill.path)


def _skill_lost(clash: Clash[Skill]) -> Loss:
    if same_file(clash.winner.path, clash.loser.path):
        return UNSEEN
    return Loss(shadow_diagnostic(clash.winner, clash.loser, same_root=clash.same_source))


def shadow_diagnostic(winner: Skill, loser: Skill, *, same_root: bool = False) -> Diagnostic:
    """Why `loser` is not loaded: `winner`, of higher precedence (or of the same root,
    `same_root`), has its name."""
    if same_root:
        return diagnostic(
            "skill.name.collision",
            f"two skills are named {loser.name!r} in one root; {winner.path} is kept, "
            f"{loser.path} is ignored",
            loser.path,
        )
    return diagnostic(
        "skill.shadowed",
        f"skill {loser.name!r} at {loser.path} ({_where(loser)}) is shadowed by "
        f"{winner.path or 'the host catalog'} ({_where(winner)})",
        loser.path,
    )


def _where(skill: Skill) -> str:
    return f"{skill.scope} {skill.family}".strip() or "catalog"
