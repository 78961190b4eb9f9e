"""Agent Plugins 1.0 (``plugin.json``) with Mistral Vibe's ``ai.mistral.vibe`` extension.

The manifest (spec §5) is a closed object: ``$schema`` (exactly the 1.0.0 URL),
``name`` (1-64 of ``a-z 0-9 - .``, alphanumeric at both ends, no ``--`` or ``..``),
``version``, ``description``, ``homepage``, ``repository``, ``license`` (strings),
``author`` (only ``name``, ``email``, ``url``, strings), ``keywords`` (strings) and
``extensions`` (an object). An unknown top-level field is reported
(``plugin.manifest.field.unknown``) and ignored, as the spec says; with `strict` it is
fatal ``plugin.manifest.invalid``, as in Vibe. A non-object ``extensions`` is
reported (``plugin.extension.invalid``) and ignored. Any other violation is fatal.
Extension namespaces other than ``ai.mistral.vibe`` are ignored unread.

The Vibe extension (Vibe): ``schemaVersion`` must be 1 and ``toolNamespace`` a
TypeScript identifier (``[A-Za-z_$][A-Za-z0-9_$]*``, at most 64); breaking either
voids the extension (``plugin.extension.invalid``: no Vibe component loads). The
namespace defaults to `typescript_identifier` of the name, as Vibe derives it: every
character outside ``[A-Za-z0-9_$]`` becomes ``_`` and a leading digit gets a ``_``
in front (``my-plugin`` → ``my_plugin``, ``a.b`` → ``a_b``, ``1up`` → ``_1up``). A
namespace in `RESERVED_NAMESPACES` (compared case-insensitively; the given or the
derived one) is fatal ``plugin.namespace.reserved``: Vibe lists ``file_system``,
``self``, ``process``, ``agent`` and ``vibe``, and Vibe 3.0.3 also reserves
``agents``, ``collaboration``, ``skill`` and ``subagent``. ``toolOverrides`` maps a
tool name to ``{name?, exposure?}``, exposure one of `EXPOSURES`; a bad entry is
dropped with ``plugin.extension.invalid``.

Components at fixed locations: ``skills/<dir>/SKILL.md`` (the name must equal the
directory) and ``mcp.json``, always; with the extension only,
``ai.mistral.vibe/hooks.toml``, ``ai.mistral.vibe/knowledge/``,
``ai.mistral.vibe/agents/*.toml`` (at most 128, ``<namespace>:<stem>``),
``libraries.json`` and ``connectors.json``. Without it those are not read, and not
reported (as in Vibe). ``INSTRUCTIONS.md`` is noted, never loaded.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal, cast

from satchel.agents import MAX_AGENTS, AgentType
from satchel.core._model import model
from satchel.core.diagnostics import type_name
from satchel.foundations._contain import contained, is_dir, is_file, str_list
from satchel.hooks._parse import parse_vibe_hooks
from satchel.mcp._parse import parse_mcp_json
from satchel.plugins._context import Ctx, Fatal, fatal, listdir
from satchel.plugins._detect import NATIVE_MANIFEST, NATIVE_SCHEMA, other_version
from satchel.plugins._model import Plugin, ToolOverride
from satchel.plugins.components._connectors import load_connectors
from satchel.plugins.components._knowledge import load_knowledge
from satchel.plugins.components._libraries import load_libraries
from satchel.plugins.components._parts import load_agent_file, load_skills
from satchel.plugins.formats._base import adapter, manifest_object

__all__ = [
    "EXPOSURES",
    "MANIFEST_FIELDS",
    "RESERVED_NAMESPACES",
    "VIBE_EXTENSION",
    "load",
    "typescript_identifier",
]

MANIFEST_FIELDS = (
    "$schema", "name", "version", "description", "author", "homepage", "repository",
    "license", "keywords", "extensions",
)  # fmt: skip
AUTHOR_FIELDS = ("name", "email", "url")
STRING_FIELDS = ("version", "description", "homepage", "repository", "license")
NAME = re.compile(r"(?!.*(?:--|\.\.))[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?\Z")
MAX_NAME = 64
VIBE_EXTENSION = "ai.mistral.vibe"
VIBE_FIELDS = ("schemaVersion", "toolNamespace", "toolOverrides")
RESERVED_NAMESPACES = frozenset(
    ("file_system", "self", "process", "agent", "vibe", "agents", "collaboration", "skill",
     "subagent")
)  # fmt: skip
EXPOSURES = ("programmatic", "direct", "direct_and_programmatic")
Exposure = Literal["programmatic", "direct", "direct_and_programmatic"]
IDENTIFIER = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*\Z")
_NOT_IDENT = re.compile(r"[^A-Za-z0-9_$]")


def typescript_identifier(name: str) -> str:
    """The namespace Vibe derives from a plugin name: `name` as a TypeScript
    identifier (``my-plugin`` → ``my_plugin``)."""
    ident = _NOT_IDENT.sub("_", name)
    return f"_{ident}" if not ident or ident[0].isdigit() else ident


@model
class _Vibe:
    """The ``ai.mistral.vibe`` extension once judged."""

    namespace: str | None
    overrides: tuple[ToolOverride, ...]


@adapter
def load(ctx: Ctx, scope: str, strict: bool) -> Plugin:
    """The Agent Plugins plugin at `root`, or None and the fatal diagnostic."""
    path = ctx.root / NATIVE_MANIFEST
    manifest = _manifest(ctx, path, strict)
    ctx.name = manifest["name"]
    vibe = _vibe(ctx, manifest.get("extensions"), path)
    ctx.namespace = _namespace(ctx, vibe, path)
    parts = {**_portable(ctx), **(_vibe_parts(ctx) if vibe is not None else {})}
    return ctx.plugin(
        "agent-plugins",
        scope,
        manifest,
        vibe=vibe is not None,
        instructions=_instructions(ctx),
        tool_overrides=() if vibe is None else vibe.overrides,
        **parts,
    )


# -- the manifest ------------------------------------------------------------------


def _manifest(ctx: Ctx, path: Path, strict: bool) -> dict[str, Any]:
    """The manifest, judged: unknown fields reported (fatal with `strict`), any other
    violation raised as `Fatal`."""
    value = manifest_object(ctx, path, NATIVE_MANIFEST)
    _schema(value, path)
    _unknown(ctx, value, path, strict)
    _name(value.get("name"), path)
    for key in STRING_FIELDS:
        if key in value and not isinstance(value[key], str):
            raise _invalid(f"`{key}` must be a string, not {type_name(value[key])}", path)
    _author(value, path)
    _keywords(value, path)
    if "extensions" in value and not isinstance(value["extensions"], dict):
        got = type_name(value["extensions"])
        message = f"`extensions` must be an object, not {got}; it is ignored"
        ctx.add("plugin.extension.invalid", message, path)
    return value


def _schema(value: Mapping[str, Any], path: Path) -> None:
    schema = value.get("$schema")
    if schema == NATIVE_SCHEMA:
        return
    other = other_version(schema, path)
    if other is not None:
        raise Fatal(other)
    given = "missing" if schema is None else f"{schema!r}"
    raise _invalid(f"$schema must be {NATIVE_SCHEMA}, it is {given}", path)


def _unknown(ctx: Ctx, value: Mapping[str, Any], path: Path, strict: bool) -> None:
    unknown = [key for key in value if key not in MANIFEST_FIELDS]
    if unknown and strict:
        listed = ", ".join(f"`{key}`" for key in unknown)
        raise _invalid(f"fields Agent Plugins 1.0 does not define: {listed} (strict)", path)
    for key in unknown:
        message = f"`{key}` is not an Agent Plugins 1.0 manifest field; it is ignored"
        ctx.add("plugin.manifest.field.unknown", message, path)


def _name(name: Any, path: Path) -> None:
    if not isinstance(name, str):
        got = "missing" if name is None else type_name(name)
        raise _invalid(f"`name` is required and must be a string ({got})", path)
    if not 1 <= len(name) <= MAX_NAME or not NAME.match(name):
        raise _invalid(
            f"the name {name!r} must be 1-{MAX_NAME} characters of a-z, 0-9, '-' and '.', "
            "start and end with a letter or digit, with no '--' or '..'",
            path,
        )


def _author(value: Mapping[str, Any], path: Path) -> None:
    if "author" not in value:
        return
    author = value["author"]
    if not isinstance(author, dict):
        raise _invalid(f"`author` must be an object, not {type_name(author)}", path)
    for key, item in author.items():
        if key not in AUTHOR_FIELDS:
            raise _invalid(f"`author.{key}` is not allowed (only name, email, url)", path)
        if not isinstance(item, str):
            raise _invalid(f"`author.{key}` must be a string, not {type_name(item)}", path)


def _keywords(value: Mapping[str, Any], path: Path) -> None:
    keywords = value.get("keywords", [])
    if not str_list(keywords):
        raise _invalid("`keywords` must be an array of strings", path)


def _invalid(message: str, path: Path) -> Fatal:
    return fatal("plugin.manifest.invalid", message, path)


# -- the Vibe extension ------------------------------------------------------------


def _vibe(ctx: Ctx, extensions: Any, path: Path) -> _Vibe | None:
    """The ``ai.mistral.vibe`` extension when present and valid, else None."""
    if not isinstance(extensions, dict) or VIBE_EXTENSION not in extensions:
        return None
    ext = extensions[VIBE_EXTENSION]
    where = f"extensions[{VIBE_EXTENSION!r}]"
    if not isinstance(ext, dict):
        return _void(ctx, f"{where} must be an object, not {type_name(ext)}", path)
    for key in ext:
        if key not in VIBE_FIELDS:
            message = f"{where}.{key} is not a field of the extension; it is ignored"
            ctx.add("plugin.extension.invalid", message, path)
    version = ext.get("schemaVersion")
    if type(version) is not int or version != 1:
        got = "missing" if version is None else repr(version)
        return _void(ctx, f"{where}.schemaVersion must be 1 ({got})", path)
    namespace = ext.get("toolNamespace")
    if namespace is not None and (
        not isinstance(namespace, str)
        or len(namespace) > MAX_NAME
        or not IDENTIFIER.match(namespace)
    ):
        message = f"{where}.toolNamespace must be a TypeScript identifier, not {namespace!r}"
        return _void(ctx, message, path)
    return _Vibe(namespace, _overrides(ctx, ext.get("toolOverrides"), path))


def _void(ctx: Ctx, message: str, path: Path) -> _Vibe | None:
    """Report an invalid extension: it is treated as absent."""
    ctx.add("plugin.extension.invalid", f"{message}; no Vibe component is loaded", path)
    return None


def _overrides(ctx: Ctx, value: Any, path: Path) -> tuple[ToolOverride, ...]:
    if value is None:
        return ()
    if not isinstance(value, dict):
        message = f"toolOverrides must be an object, not {type_name(value)}; it is ignored"
        ctx.add("plugin.extension.invalid", message, path)
        return ()
    out: list[ToolOverride] = []
    for key, entry in value.items():
        problem = _override_problem(entry)
        if problem is not None:
            message = f"toolOverrides[{key!r}] {problem}; the override is dropped"
            ctx.add("plugin.extension.invalid", message, path)
            continue
        exposure = cast("Exposure | None", entry.get("exposure"))
        out.append(ToolOverride(key, entry.get("name"), exposure))
    return tuple(out)


def _override_problem(entry: Any) -> str | None:
    if not isinstance(entry, dict):
        return f"must be an object, not {type_name(entry)}"
    extra = [k for k in entry if k not in ("name", "exposure")]
    if extra:
        return f"has unknown field {extra[0]!r} (only name and exposure)"
    name = entry.get("name")
    if name is not None and (not isinstance(name, str) or not name.strip()):
        return "name must be a non-empty string"
    exposure = entry.get("exposure")
    if exposure is not None and exposure not in EXPOSURES:
        return f"exposure must be one of {', '.join(EXPOSURES)}, not {exposure!r}"
    return None


def _namespace(ctx: Ctx, vibe: _Vibe | None, path: Path) -> str:
    given = None if vibe is None else vibe.namespace
    namespace = given or typescript_identifier(ctx.name)
    if namespace.lower() in RESERVED_NAMESPACES:
        origin = "toolNamespace" if given else f"the namespace derived from the name {ctx.name!r}"
        raise fatal(
            "plugin.namespace.reserved",
            f"{origin} {namespace!r} is reserved",
            path,
            hint="set extensions['ai.mistral.vibe'].toolNamespace to another identifier",
        )
    return namespace


# -- components --------------------------------------------------------------------


def _instructions(ctx: Ctx) -> Path | None:
    path = ctx.root / "INSTRUCTIONS.md"
    return path if is_file(path) and contained(path, ctx.root) else None


def _portable(ctx: Ctx) -> dict[str, Any]:
    """Skills and MCP servers: read whether or not the extension is there."""
    parts: dict[str, Any] = {}
    skills = ctx.fixed("skills")
    if skills is not None:
        parts["skills"] = tuple(load_skills(ctx, skills, match_dir=True))
    mcp = ctx.fixed("mcp.json")
    if mcp is not None and ctx.runs("mcp", [mcp]):
        parts["mcp_servers"] = ctx.keep(parse_mcp_json(mcp, ctx.root, ctx.name, resolved=True))
    return parts


def _vibe_parts(ctx: Ctx) -> dict[str, Any]:
    """The components only the Vibe extension turns on."""
    parts: dict[str, Any] = {}
    hooks = ctx.fixed(f"{VIBE_EXTENSION}/hooks.toml")
    if hooks is not None and ctx.runs("hooks", [hooks]):
        parts["hooks"] = ctx.keep(parse_vibe_hooks(hooks, ctx.root, ctx.name, resolved=True))
    knowledge = ctx.fixed(f"{VIBE_EXTENSION}/knowledge")
    if knowledge is not None:
        parts["knowledge"] = ctx.keep(
            load_knowledge(knowledge, ctx.root, ctx.name, ctx.namespace, resolved=True)
        )
    agents = ctx.fixed(f"{VIBE_EXTENSION}/agents")
    if agents is not None and ctx.runs("agents", [agents]):
        parts["agents"] = tuple(_vibe_agents(ctx, agents))
    parts.update(_declared(ctx))
    return parts


def _declared(ctx: Ctx) -> dict[str, Any]:
    """libraries.json and connectors.json."""
    parts: dict[str, Any] = {}
    libraries = ctx.fixed("libraries.json")
    if libraries is not None:
        parts["libraries"] = ctx.keep(load_libraries(libraries, ctx.root, ctx.name, resolved=True))
    connectors = ctx.fixed("connectors.json")
    if connectors is not None:
        parts["connectors"] = ctx.keep(load_connectors(connectors, ctx.name, resolved=True))
    return parts


def _vibe_agents(ctx: Ctx, directory: Path) -> list[AgentType]:
    """``ai.mistral.vibe/agents/*.toml``: at most 128 files, in name order."""
    if not is_dir(directory):
        message = f"{ctx.rel(directory)} is not a directory, so no agents load from it"
        ctx.add("plugin.agent.invalid", message, directory)
        return []
    files = [
        directory / e.name
        for e in listdir(ctx, directory, "plugin.agent.invalid")
        if e.name.endswith(".toml") and not e.name.startswith(".")
    ]
    if len(files) > MAX_AGENTS:
        message = f"{len(files)} agent files; only the first {MAX_AGENTS} (in name order) load"
        ctx.add("agent.limit", message, directory)
        files = files[:MAX_AGENTS]
    inside = {path: contained(path, ctx.root) for path in files}
    agents = [load_agent_file(ctx, path) for path in files if inside[path]]
    for path in files:
        if not inside[path]:
            message = "the agent file resolves outside the plugin root; it is skipped"
            ctx.add("plugin.agent.invalid", message, path)
    return [a for a in agents if a is not None]
