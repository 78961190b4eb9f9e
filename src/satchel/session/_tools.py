"""The model-facing tools: `load_skill` (caveman) and `skills_use`, `skills_read`,
`skills_run_script` (zidane), each a plain `Tool` value bound to a session's
`Activation` (the skills it offers and the calls that enter and release one); and
`list_skills` and `search_skills` when the index cannot list every skill
(`satchel.session._search`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from satchel.core.diagnostics import diagnostic
from satchel.core.errors import ResourceError, SkillBodyError, SkillInactive
from satchel.foundations.tokens import truncate
from satchel.index._render import MAX_SKILLS, model_visible
from satchel.kinds.resources import quote, read_resource
from satchel.mcp._served import ServedSkill
from satchel.session._activation import Activation
from satchel.session._arguments import bad_arguments, parse_arguments
from satchel.session._content import offers_search
from satchel.session._model import Tool, ToolResult
from satchel.session._search import search_tools
from satchel.skills._model import Skill

__all__ = ["build_tools", "parse_arguments"]


Handler = Callable[[Activation, Mapping[str, Any]], ToolResult]
MAX_ENUM = MAX_SKILLS
_MAX_SECONDS = 86_400


def build_tools(activation: Activation) -> tuple[Tool, ...]:
    """The session's tools, named as the host asked; none without visible skills."""
    names = [n for n, s in activation.skills.items() if model_visible(s)]
    if not names or not activation.enabled:
        return ()
    options = activation.options
    built = []
    for kind in options.tools:
        description, schema, handler = _SPECS[kind]
        if kind == "skills_read":
            description = _read_description(options.read_areas)
        bound = _bind(activation, handler)
        name = options.name_of(kind)
        built.append(Tool(name, description, _schema(schema, names), bound, kind))
    if built and offers_search(options, activation.skills, activation.environment.skill_overrides):
        load = "load_skill" if "load_skill" in options.tools else "skills_use"
        built.extend(
            search_tools(lambda: activation.skills, options.name_of(load), options.name_of)
        )
    return tuple(built)


def _bind(activation: Activation, handler: Handler) -> Callable[[Mapping[str, Any]], ToolResult]:
    def call(arguments: Mapping[str, Any]) -> ToolResult:
        return handler(activation, arguments)

    return call


# -- argument checks ------------------------------------------------------------------


def _text(arguments: Mapping[str, Any], key: str, *, required: bool = True) -> str | None:
    value = arguments.get(key)
    if value is None and not required:
        return None
    if not isinstance(value, str) or (required and not value):
        wanted = "a non-empty string" if required else "a string"
        raise _ArgumentError(f"{key!r} must be {wanted}")
    return value


def _strings(arguments: Mapping[str, Any], key: str) -> list[str]:
    value = arguments.get(key, [])
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise _ArgumentError(f"{key!r} must be a list of strings")
    return value


def _seconds(arguments: Mapping[str, Any], key: str) -> float | None:
    value = arguments.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not value > 0:
        raise _ArgumentError(f"{key!r} must be a positive number of seconds")
    return float(min(value, _MAX_SECONDS))  # min() first: a huge int overflows float()


class _ArgumentError(Exception):
    pass


def _checked(handler: Handler) -> Handler:
    def run(activation: Activation, arguments: Mapping[str, Any]) -> ToolResult:
        try:
            return handler(activation, arguments)
        except _ArgumentError as e:
            return bad_arguments(str(e))
        except (ResourceError, SkillBodyError) as e:
            return ToolResult.error(e.diagnostic)

    return run


# -- the tools ---------------------------------------------------------------------


@_checked
def _load_skill(activation: Activation, arguments: Mapping[str, Any]) -> ToolResult:
    skill = activation.find(_text(arguments, "name") or "", for_model=True)
    resource = _text(arguments, "resource", required=False)
    if resource:
        return _read(activation, skill, resource, None)
    return ToolResult(activation.enter(skill, "tool"))


@_checked
def _skills_use(activation: Activation, arguments: Mapping[str, Any]) -> ToolResult:
    name = _text(arguments, "name") or ""
    mode = arguments.get("mode")
    if mode == "deactivate":
        return _release(activation, name)
    if mode not in (None, "activate"):  # a strict schema sends null for the default
        raise _ArgumentError("'mode' must be 'activate' or 'deactivate'")
    skill = activation.find(name, for_model=True)
    if activation.is_active(skill.name):
        return ToolResult(f"Skill {skill.name!r} is already active; its instructions are above.")
    return ToolResult(activation.enter(skill, "tool"))


def _release(activation: Activation, name: str) -> ToolResult:
    """Any active skill may be released, even one the model cannot see (the host
    activated it), so the gate's advice always works."""
    held = activation.active_skill(name)
    if held is None:
        skill = activation.find(name, for_model=True)
        return ToolResult(f"Skill {skill.name!r} was not active; nothing to release.")
    activation.deactivate(held.name, via="tool")
    return ToolResult(f"Skill {held.name!r} is released; its tool limits no longer apply.")


@_checked
def _skills_read(activation: Activation, arguments: Mapping[str, Any]) -> ToolResult:
    skill = _active(activation, arguments)
    path = _text(arguments, "path") or ""
    return _read(activation, skill, path, activation.options.read_areas)


@_checked
def _skills_run_script(activation: Activation, arguments: Mapping[str, Any]) -> ToolResult:
    skill = _active(activation, arguments)
    script = _text(arguments, "script") or ""
    args = _strings(arguments, "args")
    return activation.runner.script(skill, script, args, _seconds(arguments, "timeout"))


def _active(activation: Activation, arguments: Mapping[str, Any]) -> Skill:
    skill = activation.find(_text(arguments, "name") or "", for_model=True)
    if not activation.is_active(skill.name):
        use = activation.options.name_of("skills_use")
        message = f"skill {skill.name!r} is not active; call {use} with its name first"
        raise SkillInactive(diagnostic("session.skill.inactive", message))
    return skill


def _read(
    activation: Activation, skill: Skill, path: str, areas: tuple[str, ...] | None
) -> ToolResult:
    if isinstance(skill, ServedSkill):  # a skills server's: fetched and verified now
        return _text_result(
            activation, skill.file(path, activation.options.resource_cap), path, None
        )
    directory = skill.directory
    if directory is None:
        message = f"skill {skill.name!r} was defined in code and has no files"
        return ToolResult.error(diagnostic("resource.missing", message))
    found = read_resource(directory, path, cap=activation.options.resource_cap, areas=areas)
    return _text_result(activation, found.data, found.relative, found.real)


def _text_result(activation: Activation, data: bytes, shown: str, real: Path | None) -> ToolResult:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        message = f"{quote(shown)} is not UTF-8 text ({len(data):,} bytes)"
        return ToolResult.error(diagnostic("resource.not-text", message, real))
    return ToolResult(truncate(text, activation.options.max_resource_tokens, activation.counter))


# -- schemas ---------------------------------------------------------------------------

_NAME = {"type": "string", "description": "The skill's name, as listed."}

_SPECS: Mapping[str, tuple[str, Mapping[str, Any], Handler]] = {
    "load_skill": (
        "Load a skill's instructions by name. With resource, read another file from the "
        "skill's directory instead (a path relative to it, such as references/guide.md).",
        {
            "properties": {
                "name": _NAME,
                "resource": {
                    "type": "string",
                    "description": "A file in the skill's directory, relative to it.",
                },
            },
            "required": ["name"],
        },
        _load_skill,
    ),
    "skills_use": (
        "Activate a skill by name to get its instructions (mode 'activate', the default), "
        "or release it and its tool limits when done (mode 'deactivate').",
        {
            "properties": {
                "name": _NAME,
                "mode": {"type": "string", "enum": ["activate", "deactivate"]},
            },
            "required": ["name"],
        },
        _skills_use,
    ),
    "skills_read": (
        "Read a file from an active skill's directory, such as one its instructions name.",
        {
            "properties": {
                "name": _NAME,
                "path": {
                    "type": "string",
                    "description": "Relative to the skill directory, e.g. reference.md.",
                },
            },
            "required": ["name", "path"],
        },
        _skills_read,
    ),
    "skills_run_script": (
        "Run a script from an active skill's scripts/ folder with arguments (passed as "
        "they are, never through a shell). Returns its exitCode, stdout and stderr.",
        {
            "properties": {
                "name": _NAME,
                "script": {
                    "type": "string",
                    "description": "The script, e.g. scripts/extract.py or extract.py.",
                },
                "args": {"type": "array", "items": {"type": "string"}},
                "timeout": {
                    "type": "number",
                    "description": "Seconds to wait at most; the session sets the ceiling.",
                },
            },
            "required": ["name", "script"],
        },
        _skills_run_script,
    ),
}


def _read_description(areas: tuple[str, ...] | None) -> str:
    if areas is None:
        return "Read a file from an active skill's directory, such as one its instructions name."
    folders = " or ".join(f"{a}/" for a in areas)
    return f"Read a file from an active skill's {folders} folder."


def _schema(spec: Mapping[str, Any], names: list[str]) -> Mapping[str, Any]:
    """The input schema; `name` is an enum of the skills while they are few enough to
    list (as many as the index lists), a plain string after that."""
    properties = dict(spec["properties"])
    if len(names) <= MAX_ENUM:
        properties["name"] = {**properties["name"], "enum": names}
    return {
        "type": "object",
        "properties": properties,
        "required": list(spec["required"]),
        "additionalProperties": False,
    }
