"""Turn a frontmatter mapping into a `Skill`, in lenient (loading) or strict mode.

Lenient follows the Agent Skills client guide: warn and load on a name that breaks
the rule, is too long or differs from its directory; skip only when there is no
usable description or no usable name. Strict follows the spec exactly: every
problem is an error and any field outside the spec is an error naming it.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from satchel.core._model import model
from satchel.core._text import hidden_characters
from satchel.core.diagnostics import CODES, Diagnostic, Severity, diagnostic, type_name
from satchel.foundations.origin import NO_ORIGIN, Origin
from satchel.skills._host_fields import NO_HOST_FIELDS, read_host_fields
from satchel.skills._model import Skill
from satchel.skills._names import HostNaming, NameRule, hosts_sentence

__all__ = [
    "DEPRECATED",
    "HOST_EXTRAS",
    "MAX_DESCRIPTION",
    "SPEC_FIELDS",
    "FieldRules",
    "build_skill",
    "name_problem",
    "split_tools",
]

SPEC_FIELDS = frozenset(
    ("name", "description", "license", "compatibility", "metadata", "allowed-tools")
)
# Fields other hosts define (Claude Code, Codex, OpenCode, Kimi, zidane): kept in
# `extras` without comment when loading.
HOST_EXTRAS = frozenset(
    (
        "agent", "argument-hint", "arguments", "background", "context",
        "disable-model-invocation", "disallowed-tools", "disallowedTools", "effort", "hooks",
        "mode", "model", "paths", "shell", "thinking", "user-invocable", "version",
        "when_to_use", "when-to-use",
        # Claude Code 2.1.332's internal keys, and two it reads in any case (2.1.186)
        "fallback", "created_by", "improved_by", "display-name", "display_name",
        "displayName", "default-enabled", "default_enabled", "defaultEnabled",
    )
)  # fmt: skip
# Top-level fields moved into metadata as `<client>.<field>`; which of them the client
# calls deprecated is its definition's (`Host.skill_metadata`): the others Claude Code
# reads as its own fields (typed on `Skill`).
MOVED_TO_METADATA = ("model", "thinking", "paths")
DEPRECATED = ("thinking",)  # the moved fields called deprecated unless a client says more

MAX_NAME = 64
MAX_DESCRIPTION = 1024
MAX_COMPATIBILITY = 500
_ASCII_NAME = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*\Z")
_SEPARATORS = re.compile(r"[\s,]+")
_FLAT_PARENS = re.compile(r"[^()]*(?:\([^()]*\)[^()]*)*")  # balanced, not nested
_TOOL = re.compile(r"(?:[^\s,()]+|\([^()]*\))+")


@model
class FieldRules:
    """How to judge fields: `strict` (authoring) or lenient, ASCII or Unicode names,
    the client name used as the metadata prefix for moved fields, the moved fields
    the client calls deprecated (`deprecated`: its definition's
    `satchel.hosts.MetadataRule`, which `load()` passes for the layout's client), the
    host's rule for `names`, and `hosts`: under the spec's rule, what gives the hosts
    whose rule differs, for the ``skill.name.hosts`` note on a name that breaks it
    (called only then) [None: no note]."""

    strict: bool = False
    unicode_names: bool = False
    client: str = "satchel"
    deprecated: tuple[str, ...] = DEPRECATED
    names: NameRule = field(default_factory=NameRule)
    hosts: Callable[[], tuple[HostNaming, ...]] | None = None


def name_problem(name: str, *, unicode_names: bool = False) -> str | None:
    """Why `name` breaks the name rule (ignoring length), or None."""
    if not unicode_names:
        if _ASCII_NAME.match(name):
            return None
    else:
        name = unicodedata.normalize("NFKC", name)
    if not name:
        return "must not be empty"
    if name != name.lower():
        return "must be lowercase"
    if name.startswith("-") or name.endswith("-"):
        return "must not start or end with a hyphen"
    if "--" in name:
        return "must not contain consecutive hyphens"
    ok = (lambda c: c.isalnum() or c == "-") if unicode_names else _ascii_char
    if not all(ok(c) for c in name):
        letters = "letters" if unicode_names else "a-z"
        return f"may only contain lowercase {letters}, digits and hyphens"
    return None


def _ascii_char(c: str) -> bool:
    return c == "-" or ("a" <= c <= "z") or ("0" <= c <= "9")


class _Builder:
    def __init__(self, fields: Mapping[str, Any], path: Path, rules: FieldRules) -> None:
        self.fields = fields
        self.path = path
        self.rules = rules
        self.diags: list[Diagnostic] = []
        self.failed = False

    def report(
        self, code: str, message: str, *, fatal: bool = False, hint: str | None = None
    ) -> None:
        """Record a problem: an error that rejects the skill when `fatal` or strict,
        else at most a warning (the skill still loads)."""
        severity: Severity
        if fatal or self.rules.strict:
            severity, self.failed = "error", True
        else:
            severity = "warning" if CODES[code].severity == "error" else CODES[code].severity
        self.diags.append(diagnostic(code, message, self.path, hint=hint, severity=severity))

    def type_error(self, field_name: str, expected: str, *, fatal: bool = False) -> None:
        got = type_name(self.fields[field_name])
        self.report(
            "frontmatter.field.type",
            f"field `{field_name}` must be {expected}, not {got}",
            fatal=fatal,
        )


def build_skill(
    fields: Mapping[str, Any],
    path: Path,
    rules: FieldRules,
    *,
    origin: Origin = NO_ORIGIN,
    dir_name: str | None = None,
    stamp: tuple[int, int] | None = None,
    by_dir: bool = False,
) -> tuple[Skill | None, list[Diagnostic]]:
    """Judge `fields` (from `path`, a SKILL.md in `dir_name`) and build the skill when
    it is usable. `stamp` is the file's (size, mtime_ns) as it was read. `by_dir`: the
    host names the skill after its directory (Claude Code's plugin skills), so a name
    field it cannot use is only a warning and the directory's name stands as it is."""
    b = _Builder(fields, path, rules)
    description = _description(b)
    name = _name(b, dir_name if dir_name is not None else path.parent.name, by_dir)
    if (name is None or description is None) and not rules.strict:
        return None, b.diags
    metadata = _metadata(b)
    host = read_host_fields(fields, b.report, split_tools)
    skill = Skill(
        name=name or "",
        description=description or "",
        license=_optional_str(b, "license"),
        compatibility=_compatibility(b),
        metadata=MappingProxyType(metadata),
        allowed_tools=_allowed_tools(b),
        extras=MappingProxyType(_extras(b, metadata)),
        path=path,
        origin=origin,
        stamp=stamp,
        **({} if host is NO_HOST_FIELDS else host.as_fields()),
    )
    _hidden(b, skill.name, skill.description)
    return (None if b.failed else skill), b.diags


_PLACEHOLDER = re.compile(r"\s*(TODO|TBD|FIXME)\b", re.IGNORECASE)


def _description(b: _Builder) -> str | None:
    value = b.fields.get("description")
    if value is None or (isinstance(value, str) and not value.strip()):
        b.report(
            "skill.description.missing",
            "the skill has no description, so no model would know when to use it",
            fatal=True,
            hint="add a description: line saying what the skill does and when to use it",
        )
        return None
    if not isinstance(value, str):
        b.type_error("description", "a string", fatal=True)
        return None
    if len(value) > MAX_DESCRIPTION:
        b.report(
            "skill.description.too-long",
            f"the description is {len(value)} characters; the limit is {MAX_DESCRIPTION}",
        )
    if _PLACEHOLDER.match(value):
        b.report(
            "skill.description.placeholder",
            f"the description {value.strip().splitlines()[0]!r} is a placeholder, not one a "
            "model could choose the skill by",
            hint="say what the skill does and when to use it",
        )
    return value


def _name(b: _Builder, dir_name: str, by_dir: bool = False) -> str | None:
    value = b.fields.get("name")
    if "name" not in b.fields:
        if b.rules.names.required:
            message = "no name: field, and this host names no skill by its folder"
            b.report("skill.name.missing", message, fatal=True)
            return None
        b.report("skill.name.missing", f"no name: field; using the directory name {dir_name!r}")
        return _fallback_name(b, dir_name, by_dir)
    if not isinstance(value, str):
        b.type_error("name", "a string")
        return _fallback_name(b, dir_name, by_dir)
    names = b.rules.names
    if not names.spec and not b.rules.strict:
        value = names.apply(value)
        if not value:
            return _fallback_name(b, dir_name, by_dir)
    problem = name_problem(value, unicode_names=b.rules.unicode_names)
    if problem is not None and not names.spec and not b.rules.strict:
        b.report("skill.name.invalid", f"the name {value!r} {problem}; this host keeps it")
    elif problem is not None:
        b.report("skill.name.invalid", f"the name {value!r} {problem}")
        if b.rules.hosts is not None:
            others = b.rules.hosts()
            if others:
                b.diags.append(
                    diagnostic("skill.name.hosts", hosts_sentence(value, others), b.path)
                )
        return _fallback_name(b, dir_name, by_dir)
    if len(value) > MAX_NAME:
        b.report(
            "skill.name.too-long",
            f"the name is {len(value)} characters; the limit is {MAX_NAME}",
        )
    if _nfkc(value) != _nfkc(dir_name):
        b.report(
            "skill.name.mismatch",
            f"the name {value!r} differs from its directory name {dir_name!r}",
            hint=f"rename the directory to {value} or set name: {dir_name}",
        )
    return value


def _fallback_name(b: _Builder, dir_name: str, by_dir: bool = False) -> str | None:
    """Lenient loading names a skill after its directory; strict mode has no fallback.
    A host that names skills by their directory (`by_dir`) takes the directory's name
    whatever its characters (``extract_learnings``), as Claude Code does."""
    if b.rules.strict:
        return None
    if by_dir:
        return dir_name
    problem = name_problem(dir_name, unicode_names=b.rules.unicode_names)
    if problem is None and len(dir_name) <= MAX_NAME:
        return dir_name
    b.report(
        "skill.name.invalid",
        f"the directory name {dir_name!r} cannot stand in for the name either",
        fatal=True,
    )
    return None


def _nfkc(text: str) -> str:
    return text if text.isascii() else unicodedata.normalize("NFKC", text)


def _optional_str(b: _Builder, key: str) -> str | None:
    value = b.fields.get(key)
    if value is None or isinstance(value, str):
        return value
    b.type_error(key, "a string")
    return None


def _compatibility(b: _Builder) -> str | None:
    value = _optional_str(b, "compatibility")
    if value is None:
        return None
    if not value.strip() or len(value) > MAX_COMPATIBILITY:
        b.report(
            "skill.compatibility.invalid",
            f"compatibility must be 1-{MAX_COMPATIBILITY} characters; it is {len(value)}",
        )
    return value or None


def _metadata(b: _Builder) -> dict[str, str]:
    value = b.fields.get("metadata")
    if value is None:
        return {}
    if not isinstance(value, dict):
        b.type_error("metadata", "a mapping of strings to strings")
        return {}
    if all(type(k) is str and type(v) is str for k, v in value.items()):
        return dict(value)  # the common case, without a message per entry
    out: dict[str, str] = {}
    for key, item in value.items():
        if isinstance(item, str):
            out[str(key)] = item
        elif isinstance(item, bool | int | float) and not b.rules.strict:
            out[str(key)] = _yaml_text(item)
            b.report(
                "skill.metadata.invalid",
                f"metadata.{key} is {type_name(item)}; read as the string {out[str(key)]!r}",
                hint="quote the value to keep it exactly as written",
            )
        else:
            b.report(
                "skill.metadata.invalid",
                f"metadata.{key} must be a string, not {type_name(item)}",
            )
    return out


def _yaml_text(value: bool | int | float) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _allowed_tools(b: _Builder) -> tuple[str, ...]:
    value = b.fields.get("allowed-tools")
    if value is None:
        return ()
    if isinstance(value, str):
        return tuple(split_tools(value))
    if b.rules.strict:
        b.report(
            "skill.allowed-tools.invalid",
            f"allowed-tools must be a space-separated string (the spec's form), "
            f"not {type_name(value)}",
        )
        return ()
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return tuple(t for v in value for t in split_tools(v))
    b.report(
        "skill.allowed-tools.invalid",
        f"allowed-tools must be a space-separated string or a list of strings, "
        f"not {type_name(value)}",
    )
    return ()


def split_tools(text: str) -> list[str]:
    """Split an allowed-tools string on blanks and commas outside parentheses, so
    ``Bash(git add:*), Read`` gives ``Bash(git add:*)`` and ``Read``."""
    if "(" not in text:
        return [tool for tool in _SEPARATORS.split(text) if tool]
    if _FLAT_PARENS.fullmatch(text):
        return _TOOL.findall(text)
    return _split_nested(text)


def _split_nested(text: str) -> list[str]:
    """The definition of `split_tools`, one character at a time (nested parentheses)."""
    tools: list[str] = []
    depth, start = 0, 0
    for i, ch in enumerate(text):
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth = max(0, depth - 1)
        elif depth == 0 and (ch.isspace() or ch == ","):
            if i > start:
                tools.append(text[start:i])
            start = i + 1
    if len(text) > start:
        tools.append(text[start:])
    return tools


def _extras(b: _Builder, metadata: dict[str, str]) -> dict[str, Any]:
    extras = {k: v for k, v in b.fields.items() if k not in SPEC_FIELDS}
    if not extras:
        return extras
    for key in extras:
        if b.rules.strict:
            b.report(
                "skill.field.unknown",
                f"`{key}` is not an Agent Skills field; allowed: {', '.join(sorted(SPEC_FIELDS))}",
            )
        elif key not in HOST_EXTRAS:
            b.report("skill.field.unknown", f"`{key}` is not a field satchel knows; kept in extras")
    for key in MOVED_TO_METADATA:
        if key in extras and not b.rules.strict:
            _move(b, key, extras[key], metadata)
    return extras


def _move(b: _Builder, key: str, value: Any, metadata: dict[str, str]) -> None:
    target = f"{b.rules.client}.{key}"
    text = ",".join(map(str, value)) if isinstance(value, list) else str(value)
    metadata.setdefault(target, text)
    if key not in b.rules.deprecated:
        return
    b.diags.append(
        diagnostic(
            "skill.field.deprecated",
            f"top-level `{key}` is deprecated; also exposed as metadata[{target!r}]",
            b.path,
            hint=f"move it under metadata as {target}",
        )
    )


def _hidden(b: _Builder, name: str, description: str) -> None:
    for label, text in (("name", name), ("description", description)):
        found = hidden_characters(text)
        if found:
            listed = ", ".join(f"{cp} at {offset}" for offset, cp in found[:8])
            more = f" and {len(found) - 8} more" if len(found) > 8 else ""
            message = f"the {label} holds invisible or control characters: {listed}{more}"
            b.diags.append(diagnostic("skill.text.hidden-unicode", message, b.path))
