"""Claude Code's skills-directory plugins: a folder of ``~/.claude/skills/`` that holds
``.claude-plugin/plugin.json`` loads as a plugin too, ``<name>@skills-dir``.

    found = skills_dir_plugins(layout, trust_project=True)

Claude Code 2.1.337 (``claude plugin init|new <name>`` scaffolds one at
``~/.claude/skills/<name>/``; ``claude plugin list --json`` lists it as
``<name>@skills-dir``, scope ``user``; its own binary's loader, read from its strings):

- every entry of the user's skills directory that is a folder (or a link to one), not
  hidden (a name starting with ``.`` is never adopted), and holds
  ``.claude-plugin/plugin.json`` is read as a Claude Code plugin; a folder with a
  ``.claude-plugin`` but no ``plugin.json`` stays a skill folder only;
- its id is the manifest's name (not the folder's) ``@skills-dir``, so its skills are
  namespaced by that name (``named-y:inner``);
- the folder's own ``SKILL.md`` stays the plain skill it was (listed as ``demo``): the
  plugin does not load its root as a skill again, even where its manifest's ``skills``
  names ``./`` (``claude plugin init`` writes that; ``claude plugin validate`` lists
  ``demo:demo``, a turn does not);
- the project's ``.claude/skills/`` folders load so only once the workspace is trusted
  (``claude plugin list`` in an untrusted one says they were skipped), and the user's
  folder wins a name both have ("your ... shadowed the project's").

Any lock of Claude Code's managed ``strictPluginOnlyCustomization`` turns the scan off
(`load_plugins(skills_dir=False)`, decided in `load()`). Not followed: Claude Code's
claude.ai sync manifest (``~/.claude/skills/manifest.json``) that claims some folders,
and a managed ``strictKnownMarketplaces`` without ``{"source": "skills-dir"}``, which
also turns the scan off. Reading runs nothing.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

from satchel.core._model import model
from satchel.core.diagnostics import Diagnostic, diagnostic
from satchel.core.layout import PROJECT, USER, Layout
from satchel.plugins._model import Plugin

__all__ = ["MARKETPLACE", "SkillsDirPlugin", "adopt", "skills_dir_plugins"]

MARKETPLACE = "skills-dir"
MANIFEST = Path(".claude-plugin") / "plugin.json"
MAX_FOLDERS = 256


@model
class SkillsDirPlugin:
    """One folder of a skills directory that loads as a plugin: where it is and the
    satchel scope of the skills directory it is in."""

    root: Path
    scope: str


def skills_dir_plugins(
    layout: Layout, *, trust_project: bool
) -> tuple[tuple[SkillsDirPlugin, ...], tuple[Diagnostic, ...]]:
    """The folders of the user's (and, in a trusted project, the project's) Claude Code
    skills directory that load as plugins, the user's first, and what is held back."""
    found = [SkillsDirPlugin(p, USER) for p in _folders(layout.home / ".claude" / "skills")]
    problems: list[Diagnostic] = []
    project = layout.project / ".claude" / "skills"
    if _same(project, layout.home / ".claude" / "skills"):
        return tuple(found), ()
    folders = list(_folders(project))
    if folders and not trust_project:
        message = (
            f"{len(folders)} plugin folder(s) of the project's .claude/skills are not "
            "loaded as plugins: the project is not trusted"
        )
        problems.append(diagnostic("discovery.untrusted", message, project))
        return tuple(found), tuple(problems)
    found += [SkillsDirPlugin(p, PROJECT) for p in folders]
    return tuple(found), tuple(problems)


def adopt(plugin: Plugin, root: Path) -> Plugin:
    """`plugin` as Claude Code loads a skills-directory plugin: its id
    ``<name>@skills-dir``, without a skill read from the folder's own ``SKILL.md``."""
    own = root / "SKILL.md"
    skills = tuple(s for s in plugin.skills if s.path is None or not _same(s.path, own))
    return replace(plugin, skills=skills, installed=f"{plugin.name}@{MARKETPLACE}")


def _folders(skills: Path) -> Iterator[Path]:
    try:
        with os.scandir(skills) as listing:
            names = sorted(e.name for e in listing if not e.name.startswith("."))
    except OSError:
        return
    for name in names[:MAX_FOLDERS]:
        folder = skills / name
        if os.path.isdir(folder) and os.path.isfile(folder / MANIFEST):
            yield folder


def _same(a: Path, b: Path) -> bool:
    try:
        return os.path.realpath(a) == os.path.realpath(b)
    except OSError:
        return False
