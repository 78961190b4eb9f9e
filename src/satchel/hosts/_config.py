"""Finding a host profile by name: the built-in ones, and the user's own, defined as
``[hosts.<name>]`` tables of the user's ``config.toml`` (``{config}/satchel/config.toml``;
a project's config cannot define one, since a profile decides what is read).

A table starts from ``base`` (a built-in profile, default ``satchel``) and replaces
the keys it names::

    [hosts.acme]
    base = "claude-code"
    title = "Acme agent"
    client = "acme"
    skills = [
      { scope = "project", family = ".acme", template = "{project}/.acme/skills" },
      { scope = "user", family = ".acme", template = "{home}/.acme/skills" },
    ]
    argument_numbering = 1
    plugin_formats = ["claude", "agent-plugins"]

A key that is unknown or of the wrong type is reported (``host.config.invalid``) and
left out; a table that is not a table, names an unknown base or a built-in profile's
name is left out whole.
"""

from __future__ import annotations

import re
import string
from collections.abc import Callable, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any, get_args

from satchel.core._text import did_you_mean
from satchel.core.diagnostics import Diagnostic, diagnostic, type_name
from satchel.core.errors import UnknownHost
from satchel.core.layout import SCOPES, RootSpec
from satchel.foundations._config import CONFIG_FILE, read_config
from satchel.hosts._model import Host
from satchel.hosts._profiles import PROFILES
from satchel.hosts._rules import TRUST_LIST_NAMES
from satchel.hosts._vocabulary import (
    AMBIGUITY,
    FORMATS,
    InstructionMode,
    Naming,
    PluginSkillNames,
    SkillRule,
    Untrusted,
)

__all__ = ["get", "names", "resolve", "user_profiles"]

_NAME = re.compile(r"[a-z0-9][a-z0-9-]{0,63}\Z")
_TABLES = ("skills", "commands", "agents", "plugins")
_WALK = (
    "nested", "max_depth", "max_dirs", "max_entries", "follow_symlinks", "follow_symlinked_dirs",
    "hidden_dirs", "skip_dirs", "skills_in_skills", "root_skill", "linked_skill_files",
    "resolve_root",
)  # fmt: skip


def names() -> tuple[str, ...]:
    """The built-in profiles' names, satchel's first."""
    return tuple(PROFILES)


def get(name: str) -> Host:
    """The built-in profile `name`; `UnknownHost` when there is none."""
    host = PROFILES.get(name)
    if host is None:
        raise UnknownHost(_unknown(name, PROFILES))
    return host


def resolve(host: str | Host, *, config_home: Path) -> tuple[Host, tuple[Diagnostic, ...]]:
    """`host` as a profile: itself, a built-in one, else one of the user's
    ``config.toml`` (with what was wrong in that file); `UnknownHost` when none is."""
    if isinstance(host, Host):
        return host, ()
    if host in PROFILES:
        return PROFILES[host], ()
    found, problems = user_profiles(config_home)
    if host not in found:
        raise UnknownHost(_unknown(host, {**PROFILES, **found}))
    return found[host], problems


def user_profiles(config_home: Path) -> tuple[dict[str, Host], tuple[Diagnostic, ...]]:
    """The profiles the user's ``config.toml`` defines, and what was wrong there."""
    path = config_home / "satchel" / CONFIG_FILE
    problems: list[Diagnostic] = []
    tables = read_config(path, problems).get("hosts", {})
    if not isinstance(tables, dict):
        problems.append(_invalid(f"[hosts] must be a table, not {type_name(tables)}", path))
        return {}, tuple(problems)
    found: dict[str, Host] = {}
    for name, table in tables.items():
        host = _profile(name, table, _Report(path, name, problems))
        if host is not None:
            found[name] = host
    return found, tuple(problems)


class _Report:
    """Where the problems of one ``[hosts.<name>]`` table go."""

    def __init__(self, path: Path, name: str, problems: list[Diagnostic]) -> None:
        self.path, self.name, self.problems = path, name, problems

    def __call__(self, message: str) -> None:
        self.problems.append(_invalid(f"[hosts.{self.name}]: {message}", self.path))


def _profile(name: str, table: Any, report: _Report) -> Host | None:
    if not _NAME.match(name):
        report("a profile name is lowercase letters, digits and '-'; left out")
        return None
    if name in PROFILES:
        report(f"{name!r} is a built-in profile and cannot be redefined; left out")
        return None
    if not isinstance(table, dict):
        report(f"must be a table, not {type_name(table)}; left out")
        return None
    base = table.get("base", "satchel")
    if base not in PROFILES:
        report(f"base {base!r} is not a built-in profile ({', '.join(PROFILES)}); left out")
        return None
    changes: dict[str, Any] = {"name": name, "title": name}
    walk: dict[str, Any] = {}
    for key, value in table.items():
        if key == "base":
            continue
        if key in _WALK:
            _take(walk, key, value, _CHECKS[key], report)
        elif key in _CHECKS:
            _take(changes, key, value, _CHECKS[key], report)
        else:
            report(f"unknown key {key!r}; left out")
    host = replace(PROFILES[base], **changes)
    if walk:
        host = replace(host, walk=replace(host.walk, **walk))
    return host


Check = Callable[[Any], tuple[Any, str | None]]


def _take(into: dict[str, Any], key: str, value: Any, check: Check, report: _Report) -> None:
    converted, problem = check(value)
    if problem is not None:
        report(f"{key} {problem}; left out")
    else:
        into[key] = converted


def _is(kind: type, what: str) -> Check:
    def check(value: Any) -> tuple[Any, str | None]:
        if isinstance(value, kind) and not (kind is int and isinstance(value, bool)):
            return value, None
        return None, f"must be {what}, not {type_name(value)}"

    return check


def _one_of(*allowed: object) -> Check:
    def check(value: Any) -> tuple[Any, str | None]:
        if value in allowed:
            return value, None
        return None, f"must be one of {', '.join(map(str, allowed))}, not {value!r}"

    return check


def _instructions(value: Any) -> tuple[Any, str | None]:
    if value is False:
        return None, None
    return _one_of(*get_args(InstructionMode))(value)


def _formats(value: Any) -> tuple[Any, str | None]:
    if not isinstance(value, list) or not all(f in FORMATS for f in value):
        return None, f"must be a list of plugin formats ({', '.join(FORMATS)})"
    return tuple(dict.fromkeys(value)), None


def _folder_names(value: Any) -> tuple[Any, str | None]:
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        return None, "must be a list of folder names"
    return tuple(dict.fromkeys(value)), None


def _table(value: Any) -> tuple[Any, str | None]:
    problem = f"must be a list of {{scope, family, template}} tables, scope one of {SCOPES}"
    if not isinstance(value, list):
        return None, problem
    rows: list[RootSpec] = []
    for row in value:
        if not isinstance(row, dict) or set(row) != {"scope", "family", "template"}:
            return None, problem
        if row["scope"] not in SCOPES or not all(isinstance(v, str) for v in row.values()):
            return None, problem
        unknown = _placeholders(row["template"]) - _PLACEHOLDERS
        if unknown:
            names = ", ".join(sorted(f"{{{n}}}" for n in unknown))
            return (
                None,
                f"template {row['template']!r} names {names}; "
                "use {project}, {cwd}, {home} or {config}",
            )
        rows.append(RootSpec(row["scope"], row["family"], row["template"]))
    return tuple(rows), None


_PLACEHOLDERS = frozenset(("project", "cwd", "home", "config"))


def _placeholders(template: str) -> set[str]:
    """The ``{name}`` fields of `template` ("" for ``{}``, and a stray brace)."""
    try:
        return {
            name or "" for _, name, _, _ in string.Formatter().parse(template) if name is not None
        }
    except ValueError:  # a single { or }
        return {""}


_CHECKS: Mapping[str, Check] = {
    "title": _is(str, "a string"),
    "client": _is(str, "a string"),
    **{table: _table for table in _TABLES},
    "ancestors": _is(bool, "true or false"),
    "nested": _is(bool, "true or false"),
    "follow_symlinks": _is(bool, "true or false"),
    "max_depth": _is(int, "a whole number"),
    "max_dirs": _is(int, "a whole number"),
    "max_entries": _is(int, "a whole number"),
    "follow_symlinked_dirs": _is(bool, "true or false"),
    "hidden_dirs": _is(bool, "true or false"),
    "skip_dirs": _folder_names,
    "skills_in_skills": _is(bool, "true or false"),
    "root_skill": _is(bool, "true or false"),
    "linked_skill_files": _is(bool, "true or false"),
    "resolve_root": _is(bool, "true or false"),
    "plugin_formats": _formats,
    "ambiguous_plugins": _one_of(*AMBIGUITY),
    "plugin_skill_names": _one_of(*get_args(PluginSkillNames)),
    "plugin_skill_rule": _one_of(*get_args(SkillRule)),
    "strict_plugins": _is(bool, "true or false"),
    "command_naming": _one_of(*get_args(Naming)),
    "argument_numbering": _one_of(0, 1),
    "instructions": _instructions,
    "untrusted": _one_of(*get_args(Untrusted)),
    "trust_list": _one_of(*TRUST_LIST_NAMES),
    "hook_files": _is(bool, "true or false"),
    "claude_settings_hooks": _is(bool, "true or false"),
    "include_workspace_plugin": _is(bool, "true or false"),
    "claude_installed_plugins": _is(bool, "true or false"),
    "executable": _is(bool, "true or false"),
}


def _invalid(message: str, path: Path) -> Diagnostic:
    return diagnostic("host.config.invalid", message, path)


def _unknown(name: str, known: Mapping[str, Host]) -> Diagnostic:
    message = (
        f"no host profile is named {name!r}{did_you_mean(name, known)}; known: {', '.join(known)}"
    )
    hint = "define one as a [hosts.<name>] table in config.toml (docs/hosts.md)"
    return diagnostic("host.unknown", message, hint=hint)
