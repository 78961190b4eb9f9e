"""`read_policy`: the policy files, read and merged so that a lower file only tightens.

The files, in order (docs/policy.md):

1. the system's: ``satchel/policy.toml`` in the platform's site config directory
   (platformdirs' ``site_config_dir``: ``/etc/xdg/satchel/policy.toml`` on Linux, the
   first of ``$XDG_CONFIG_DIRS`` when set), or in ``$SATCHEL_POLICY_DIR`` when that
   is set (for tests and for images that keep policy elsewhere);
2. the user's: ``{config}/<client>/policy.toml`` (``~/.config/satchel/policy.toml``);
3. the project's: ``{project}/.<client>/policy.toml``, read whether or not the folder
   is trusted, since it can only tighten.

Each file is merged into what the files above it said: deny lists and disabled names
are the union, allow lists intersect (a layer per file), a boolean is true once any
file sets it. A key in a lower file that asks for less than the files above it
(``false`` for a boolean they set, a hook type they do not allow) changes nothing and
is reported (``policy.loosen``). An unknown key is reported (``policy.key.unknown``)
and has no effect. A file that cannot be read, is not TOML or holds a value of the
wrong type makes the policy fail closed (``policy.invalid``, `Policy.closed`).

Reading runs nothing and reads only these files.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from types import MappingProxyType
from typing import Any

from satchel.core._files import FileProblem, read_bounded
from satchel.core._model import model
from satchel.core.diagnostics import Diagnostic, diagnostic
from satchel.foundations.policy._model import (
    COMPONENTS,
    HOOK_TYPES,
    MCP_FIELDS,
    Digests,
    Flag,
    Lists,
    Pattern,
    Policy,
    SignedRule,
    Types,
)

__all__ = [
    "ENV_DIR",
    "POLICY_FILE",
    "PolicyFile",
    "policy_files",
    "read_policy",
    "read_policy_file",
    "system_dir",
]

POLICY_FILE = "policy.toml"
ENV_DIR = "SATCHEL_POLICY_DIR"
MAX_POLICY = 1024 * 1024

FLAGS = (
    "allow_managed_hooks_only",
    "disable_all_hooks",
    "disable_skill_shell_execution",
    "require_pins",
    "require_trust",
)
NAME_LISTS = ("disabled_formats", "disabled_components")
TABLES = ("mcp", "sources", "marketplaces", "skills")
SIGNED = "require_signed"
DIGEST = "require_digest"
SIGNED_FIELDS = ("source", "identities", "issuers")
KEYS = (
    *FLAGS,
    *NAME_LISTS,
    "allowed_hook_types",
    "allowed_http_hook_urls",
    *TABLES,
    SIGNED,
    DIGEST,
)


@model
class PolicyFile:
    """One policy file: its `path` and `level` (``system``, ``user``, ``project``)."""

    path: Path
    level: str


def system_dir(environ: Mapping[str, str] | None = None) -> Path:
    """The directory of the system's policy: ``$SATCHEL_POLICY_DIR`` when set, else
    ``satchel`` in platformdirs' site config directory."""
    env = os.environ if environ is None else environ
    given = env.get(ENV_DIR, "")
    if given:
        return Path(given)
    linux = sys.platform.startswith("linux")
    if linux:  # platformdirs' rule, without importing it
        dirs = env.get("XDG_CONFIG_DIRS", "").strip() or "/etc/xdg"
        return Path(dirs.split(os.pathsep)[0]) / "satchel"
    import platformdirs  # only off Linux

    return Path(platformdirs.site_config_dir("satchel"))


def policy_files(
    environ: Mapping[str, str] | None = None,
    *,
    config_home: Path | None = None,
    project: Path | None = None,
    client: str = "satchel",
) -> tuple[PolicyFile, ...]:
    """The policy files that may exist, the system's first."""
    files = [PolicyFile(system_dir(environ) / POLICY_FILE, "system")]
    if config_home is not None:
        files.append(PolicyFile(config_home / client / POLICY_FILE, "user"))
    if project is not None:
        files.append(PolicyFile(project / f".{client}" / POLICY_FILE, "project"))
    return tuple(files)


def read_policy(
    environ: Mapping[str, str] | None = None,
    *,
    config_home: Path | None = None,
    project: Path | None = None,
    client: str = "satchel",
) -> tuple[Policy, tuple[Diagnostic, ...]]:
    """The policy in force and what was wrong with its files (module docstring).
    `config_home` and `project` name the user's config directory and the project
    root whose files are read below the system's (None: not read)."""
    policy = Policy()
    problems: list[Diagnostic] = []
    for found in policy_files(environ, config_home=config_home, project=project, client=client):
        data = _document(found.path, problems)
        if data is None:
            continue
        if isinstance(data, Diagnostic):
            return _closed(policy, data, found.path), (*problems, data)
        merged = _merge(policy, data, found.path, problems)
        if isinstance(merged, Diagnostic):
            return _closed(policy, merged, found.path), (*problems, merged)
        policy = merged
    return policy, tuple(problems)


def read_policy_file(path: Path) -> tuple[Policy, tuple[Diagnostic, ...]]:
    """The policy of the one file at `path`, as if it were the system's (for
    ``satchel policy export --policy FILE``); a missing file is ``policy.invalid``."""
    problems: list[Diagnostic] = []
    data = _document(path, problems)
    if data is None:
        data = _invalid("there is no such file", path)
    if isinstance(data, Diagnostic):
        return _closed(Policy(), data, path), (data,)
    merged = _merge(Policy(), data, path, problems)
    if isinstance(merged, Diagnostic):
        return _closed(Policy(), merged, path), (*problems, merged)
    return merged, tuple(problems)


def _document(path: Path, problems: list[Diagnostic]) -> dict[str, Any] | Diagnostic | None:
    """The TOML table at `path`; None when there is no file; a ``policy.invalid``
    diagnostic when it cannot be read."""
    if not os.path.lexists(path):
        return None
    try:
        data = read_bounded(path, MAX_POLICY)
    except FileProblem as e:
        return _invalid(f"cannot read it: {e.message}", path)
    from satchel.core import _toml  # only when a policy file exists

    try:
        return _toml.loads(data.decode("utf-8"))
    except ValueError as e:  # not UTF-8, not TOML, or nested too deep
        return _invalid(f"not valid TOML: {e}", path)


def _invalid(why: str, path: Path) -> Diagnostic:
    message = f"policy file {path}: {why}; nothing executable runs until it is fixed"
    return diagnostic("policy.invalid", message, path)


def _closed(policy: Policy, why: Diagnostic, path: Path) -> Policy:
    """`policy` failing closed because of the file at `path`."""
    return replace(
        policy,
        files=(*policy.files, path),
        disable_all_hooks=policy.disable_all_hooks or Flag(True, path),
        disable_skill_shell_execution=policy.disable_skill_shell_execution or Flag(True, path),
        require_pins=policy.require_pins or Flag(True, path),
        closed=why,
    )


def _merge(
    policy: Policy, data: dict[str, Any], path: Path, problems: list[Diagnostic]
) -> Policy | Diagnostic:
    """`policy` tightened by the file at `path` (its table `data`); a ``policy.invalid``
    diagnostic when a value has the wrong type."""
    for key in data:
        if key not in KEYS:
            message = f"policy file {path}: unknown key {key!r}; it has no effect"
            problems.append(diagnostic("policy.key.unknown", message, path))
    changes: dict[str, Any] = {"files": (*policy.files, path)}
    for key in FLAGS:
        if key not in data:
            continue
        value = data[key]
        if not isinstance(value, bool):
            return _invalid(f"`{key}` must be true or false", path)
        current: Flag = getattr(policy, key)
        if value and not current:
            changes[key] = Flag(True, path)
        elif not value and current:
            problems.append(_loosen(key, path, current.path))
    for key in NAME_LISTS:
        if key in data:
            names = _strings(data[key], key, path)
            if isinstance(names, Diagnostic):
                return names
            known = COMPONENTS if key == "disabled_components" else None
            bad = [n for n in names if known is not None and n not in known]
            if bad:
                return _invalid(f"`{key}` names no component kind: {bad[0]!r}", path)
            given: dict[str, Path] = dict(getattr(policy, key))
            for name in names:
                given.setdefault(name, path)
            changes[key] = MappingProxyType(given)
    tightened = _hooks(policy, data, path, problems, changes)
    if tightened is not None:
        return tightened
    for key in TABLES:
        if key in data:
            lists = _lists(getattr(policy, key), data[key], key, path, problems)
            if isinstance(lists, Diagnostic):
                return lists
            changes[key] = lists
    signed = _signed(policy, data, path, problems, changes)
    return signed if signed is not None else replace(policy, **changes)


def _signed(
    policy: Policy,
    data: dict[str, Any],
    path: Path,
    problems: list[Diagnostic],
    changes: dict[str, Any],
) -> Diagnostic | None:
    """``require_signed`` (rules added to those above: each must hold) and
    ``require_digest`` (true, or patterns added to those above) of one file, into
    `changes`; a ``policy.invalid`` diagnostic when a value is wrong."""
    if SIGNED in data:
        rules = _signed_rules(data[SIGNED], path, problems)
        if isinstance(rules, Diagnostic):
            return rules
        changes[SIGNED] = (*policy.require_signed, *rules)
    if DIGEST in data:
        digests = _digests(policy.require_digest, data[DIGEST], path, problems)
        if isinstance(digests, Diagnostic):
            return digests
        changes[DIGEST] = digests
    return None


def _signed_rules(
    value: object, path: Path, problems: list[Diagnostic]
) -> tuple[SignedRule, ...] | Diagnostic:
    """Each ``[[require_signed]]`` table of one file, compiled."""
    if not isinstance(value, list) or not all(isinstance(t, dict) for t in value):
        return _invalid(f"`{SIGNED}` must be an array of tables ([[{SIGNED}]])", path)
    rules = []
    for n, table in enumerate(value, 1):
        where = f"`{SIGNED}` table {n}"
        for name in table:
            if name not in SIGNED_FIELDS:
                message = f"policy file {path}: unknown key '{SIGNED}.{name}'; it has no effect"
                problems.append(diagnostic("policy.key.unknown", message, path))
        source = table.get("source")
        if not isinstance(source, str) or not source:
            return _invalid(f"{where} needs `source`, a source pattern", path)
        if "identities" not in table:
            return _invalid(f"{where} needs `identities`, the signers it allows", path)
        globs: dict[str, list[str]] = {}
        for name in ("identities", "issuers"):
            found = _strings(table.get(name, []), f"{SIGNED}.{name}", path)
            if isinstance(found, Diagnostic):
                return found
            globs[name] = found
        key = f"{SIGNED}.source"
        rules.append(
            SignedRule(
                Pattern.compile(source, (("source", source),), key, path),
                _globs(globs["identities"], "identity", path),
                _globs(globs["issuers"], "issuer", path),
                path,
                n,
            )
        )
    return tuple(rules)


def _globs(texts: list[str], field: str, path: Path) -> tuple[Pattern, ...]:
    return tuple(Pattern.compile(t, ((field, t),), SIGNED, path) for t in texts)


def _digests(
    digests: Digests, value: object, path: Path, problems: list[Diagnostic]
) -> Digests | Diagnostic:
    """`digests` tightened by one file's ``require_digest``: true, or a list of source
    patterns; ``false`` where a file above said true is reported and ignored."""
    if isinstance(value, bool):
        if value and not digests.every:
            return replace(digests, every=Flag(True, path))
        if not value and digests.every:
            problems.append(_loosen(DIGEST, path, digests.every.path))
        return digests
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        return _invalid(f"`{DIGEST}` must be true, false or a list of source patterns", path)
    added = tuple(Pattern.compile(v, (("source", v),), DIGEST, path) for v in value)
    return replace(digests, sources=(*digests.sources, *added))


def _hooks(
    policy: Policy,
    data: dict[str, Any],
    path: Path,
    problems: list[Diagnostic],
    changes: dict[str, Any],
) -> Diagnostic | None:
    """``allowed_hook_types`` and ``allowed_http_hook_urls`` of one file, into
    `changes`; a ``policy.invalid`` diagnostic when a value is wrong."""
    if "allowed_hook_types" in data:
        types = _strings(data["allowed_hook_types"], "allowed_hook_types", path)
        if isinstance(types, Diagnostic):
            return types
        bad = [t for t in types if t not in HOOK_TYPES]
        if bad:
            return _invalid(f"`allowed_hook_types` names no hook type: {bad[0]!r}", path)
        for above in policy.allowed_hook_types:
            for extra in sorted(set(types) - above.types):
                problems.append(_loosen(f"allowed_hook_types ({extra})", path, above.path))
        changes["allowed_hook_types"] = (*policy.allowed_hook_types, Types(frozenset(types), path))
    if "allowed_http_hook_urls" in data:
        key = "allowed_http_hook_urls"
        urls = _strings(data[key], key, path)
        if isinstance(urls, Diagnostic):
            return urls
        layer = tuple(Pattern.compile(u, (("url", u),), key, path) for u in urls)
        changes[key] = (*policy.allowed_http_hook_urls, layer)
    return None


def _lists(
    lists: Lists, table: object, key: str, path: Path, problems: list[Diagnostic]
) -> Lists | Diagnostic:
    """`lists` with the ``allow`` and ``deny`` of the ``[key]`` table of one file."""
    if not isinstance(table, dict):
        return _invalid(f"`{key}` must be a table with `allow` and `deny`", path)
    for name in table:
        if name not in ("allow", "deny"):
            message = f"policy file {path}: unknown key '{key}.{name}'; it has no effect"
            problems.append(diagnostic("policy.key.unknown", message, path))
    allow, deny = lists.allow, lists.deny
    for which in ("allow", "deny"):
        if which not in table:
            continue
        entries = table[which]
        if not isinstance(entries, list):
            return _invalid(f"`{key}.{which}` must be a list", path)
        compiled: list[Pattern] = []
        for entry in entries:
            pattern = _pattern(entry, key, f"{key}.{which}", path)
            if isinstance(pattern, Diagnostic):
                return pattern
            compiled.append(pattern)
        if which == "allow":
            allow = (*allow, tuple(compiled))
        else:
            deny = (*deny, *compiled)
    return Lists(allow, deny)


def _pattern(entry: object, table: str, key: str, path: Path) -> Pattern | Diagnostic:
    """One entry of `key`: a string, or for ``mcp`` a table of name, command, url."""
    if table != "mcp":
        if not isinstance(entry, str):
            return _invalid(f"`{key}` entries must be strings", path)
        field = "name" if table == "skills" else "source"
        return Pattern.compile(entry, ((field, entry),), key, path)
    if isinstance(entry, str):
        for name in ("command", "url"):
            if entry.startswith(f"{name}:"):
                return Pattern.compile(entry, ((name, entry[len(name) + 1 :]),), key, path)
        return Pattern.compile(entry, (("name", entry),), key, path)
    if (
        isinstance(entry, dict)
        and entry
        and all(k in MCP_FIELDS and isinstance(v, str) for k, v in entry.items())
    ):
        fields = tuple((k, entry[k]) for k in MCP_FIELDS if k in entry)
        text = ", ".join(f"{k} = {json.dumps(v)}" for k, v in fields)
        return Pattern.compile("{ " + text + " }", fields, key, path)
    return _invalid(f"`{key}` entries must be strings or tables of name, command, url", path)


def _strings(value: object, key: str, path: Path) -> list[str] | Diagnostic:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        return _invalid(f"`{key}` must be a list of strings", path)
    return list(value)


def _loosen(key: str, path: Path, above: Path | None) -> Diagnostic:
    where = "" if above is None else f" set by {above}"
    message = f"policy file {path}: `{key}` would loosen the policy{where}; it is ignored"
    return diagnostic("policy.loosen", message, path)
