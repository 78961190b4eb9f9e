"""A host's own settings that change what loads (Gemini CLI's ``settings.json`` and
``extension-enablement.json``), read where the host profile says (`HostSettings`,
`satchel.hosts.Host.settings`), never written.

* `HostSettings.files`: the settings files, weakest first (Gemini CLI: the user's
  ``~/.gemini/settings.json``, then the working directory's ``.gemini/settings.json``,
  read only in a trusted folder, as Gemini CLI ignores a workspace's settings in a
  folder it does not trust).
* `disabled_skills`: the keys of a list of skill names the host turns off (Gemini CLI's
  ``skills.disabled``); the lists of every file count together (observed: a name in the
  user's list and one in the workspace's are both off), compared without case, as
  Gemini CLI compares them. satchel lists such a skill as ``off``: out of the index and
  not invocable, as Gemini CLI's ``[Disabled]``.
* `context_names`: the keys of the instruction file names (Gemini CLI's
  ``context.fileName``, a string or a list); the strongest file that sets it wins.
* `plugin_enablement`: the file that enables or disables each plugin by folder
  (Gemini CLI's ``~/.gemini/extensions/extension-enablement.json``:
  ``{"<extension>": {"overrides": ["/abs/path/*", "!/abs/path/"]}}``). Rules are read
  in order and the last that matches the working directory decides; ``!`` disables,
  a trailing ``*`` takes in every folder below; an extension with no matching rule is
  enabled (gemini-cli ``packages/cli/src/config/extensions/extensionEnablement.ts``).
* `plugin_link`: the install record a plugin folder may hold that makes it a link to a
  folder elsewhere (`PluginLink`; Gemini CLI's ``.gemini-extension-install.json``,
  ``{"type": "link", "source": "/abs/folder"}``, which ``gemini extensions link``
  writes alone in ``~/.gemini/extensions/<name>/``): the plugin is read from that
  folder (`satchel.plugins._links`).

A file that cannot be read is reported (``config.invalid``) and counts as empty.
Gemini CLI reads settings files with comments; satchel reads strict JSON, so a
settings file with comments is reported and not read.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import field
from pathlib import Path
from types import MappingProxyType
from typing import Any, Literal

from satchel.core._model import model
from satchel.core.diagnostics import Diagnostic, diagnostic, type_name
from satchel.core.layout import Layout
from satchel.foundations._host_files import dig, expand, read_state

__all__ = [
    "HostSettings",
    "PluginLink",
    "SettingsRead",
    "PluginEnablement",
    "SettingsFile",
    "read_host_settings",
]

Owner = Literal["user", "project"]
_NO_RULES: Mapping[str, tuple[str, ...]] = MappingProxyType({})


@model
class SettingsFile:
    """One settings file: a path template (``{home}``, ``{cwd}``, ``{project}``,
    ``{config}``) and whose it is (``project``: read only in a trusted folder)."""

    path: str
    owner: Owner = "user"


@model
class PluginLink:
    """A plugin folder's install record (`file`, in the folder) whose `type_key` is
    `link` makes the folder a link: the plugin is the folder its `source_key` names."""

    file: str
    type_key: str = "type"
    link: str = "link"
    source_key: str = "source"


@model
class HostSettings:
    """Where a host keeps the settings satchel reads, and their keys (see the module
    docstring)."""

    files: tuple[SettingsFile, ...] = ()
    disabled_skills: tuple[str, ...] | None = None
    context_names: tuple[str, ...] | None = None
    plugin_enablement: str | None = None
    plugin_link: PluginLink | None = None


@model
class PluginEnablement:
    """The enablement rules of each plugin by name, and the file they came from."""

    path: Path | None = None
    rules: Mapping[str, tuple[str, ...]] = field(default_factory=lambda: _NO_RULES)

    def enabled(self, name: str, cwd: Path) -> bool:
        """Whether the rules leave plugin `name` enabled in `cwd` (the last rule that
        matches decides; none: enabled)."""
        here = _slashed(str(cwd))
        state = True
        for rule in self.rules.get(name, ()):
            off = rule.startswith("!")
            if _pattern(rule[1:] if off else rule).fullmatch(here):
                state = not off
        return state


@model
class SettingsRead:
    """What a host's settings say: the skill names it turns off (folded), the raw
    `context_names` value (None: not set), the plugin enablement, and the files read."""

    disabled_skills: frozenset[str] = frozenset()
    context_names: Any = None
    enablement: PluginEnablement = field(default_factory=PluginEnablement)
    files: tuple[Path, ...] = ()


def read_host_settings(
    settings: HostSettings, layout: Layout, *, trust_project: bool
) -> tuple[SettingsRead, tuple[Diagnostic, ...]]:
    """The host state `settings` point at for `layout` (the project's files when
    `trust_project`), and the problems met reading it."""
    problems: list[Diagnostic] = []
    disabled: set[str] = set()
    names: Any = None
    read: list[Path] = []
    for row in settings.files:
        if row.owner == "project" and not trust_project:
            continue
        path = Path(_expanded(row.path, layout))
        document, problem = read_state(path)
        if problem is not None:
            problems.append(problem)
            continue
        if document:
            read.append(path)
        if settings.disabled_skills is not None:
            disabled |= _names(dig(document, settings.disabled_skills), path, problems)
        if settings.context_names is not None:
            value = dig(document, settings.context_names)
            names = value if value is not None else names
    enablement = PluginEnablement()
    if settings.plugin_enablement is not None:
        enablement = _enablement(Path(_expanded(settings.plugin_enablement, layout)), problems)
    state = SettingsRead(frozenset(disabled), names, enablement, tuple(read))
    return state, tuple(problems)


def _expanded(template: str, layout: Layout) -> str:
    return expand(template, layout.values())


def _names(value: Any, path: Path, problems: list[Diagnostic]) -> set[str]:
    if value is None:
        return set()
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        why = f"the list of disabled skills is {type_name(value)}, not a list of names"
        problems.append(diagnostic("config.invalid", f"{why}; it is ignored", path))
        return set()
    return {v.lower() for v in value}


def _enablement(path: Path, problems: list[Diagnostic]) -> PluginEnablement:
    document, problem = read_state(path)
    if problem is not None:
        problems.append(problem)
        return PluginEnablement(path)
    rules: dict[str, tuple[str, ...]] = {}
    for name, entry in document.items():
        overrides = entry.get("overrides") if isinstance(entry, dict) else None
        if isinstance(overrides, list) and all(isinstance(r, str) for r in overrides):
            rules[name] = tuple(overrides)
        else:
            message = f"the rules of {name!r} are not an object with a list of overrides"
            problems.append(diagnostic("config.invalid", f"{message}; they are ignored", path))
    return PluginEnablement(path, MappingProxyType(rules))


def _slashed(path: str) -> str:
    """`path` with ``/`` separators and a ``/`` at each end."""
    text = path.replace("\\", "/")
    return ("" if text.startswith("/") else "/") + text + ("" if text.endswith("/") else "/")


def _pattern(glob: str) -> re.Pattern[str]:
    """Gemini CLI's glob: regex characters escaped, each ``*`` (with the ``/`` before
    it, if any) an optional group matching anything."""
    escaped = re.sub(r"[.+?^${}()|\[\]\\]", lambda m: "\\" + m.group(), glob)
    return re.compile(re.sub(r"(/?)\*", lambda m: f"({m.group(1)}.*)?", escaped))
