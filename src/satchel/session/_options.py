"""What a host can set on a `Session`, each with the default its host documents."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import field
from types import MappingProxyType
from typing import Any, Literal, TypedDict, Unpack

from satchel.core._model import model
from satchel.index._budget import Budget
from satchel.index._render import FORMATS, IndexFormat

__all__ = [
    "ALL_TOOLS",
    "SessionOptions",
    "SessionOverrides",
    "SKILL_SEARCH_TOOLS",
    "TOOLSETS",
]

ALL_TOOLS = ("load_skill", "skills_use", "skills_read", "skills_run_script")
SKILL_SEARCH_TOOLS = ("list_skills", "search_skills")  # offered when the index is cut
TOOLSETS: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {
        "load_skill": ("load_skill",),  # caveman
        "skills": ("skills_use", "skills_read", "skills_run_script"),  # zidane
        "all": ALL_TOOLS,
    }
)
_TOOL_NAME = re.compile(r"[A-Za-z0-9_-]{1,64}")  # what OpenAI and Anthropic both accept
_EMPTY: Mapping[str, str] = MappingProxyType({})

Enforce = Literal["auto", "on", "off"]
SlashOrder = Literal["command", "skill"]
Wrap = Literal["plugin", "all", "none"]


@model
class SessionOptions:
    """Settings of a `Session`. Build with `SessionOptions.build(**kw)`; defaults in brackets.

    * `tools`: which tools the model gets [``"load_skill"``, caveman]: a toolset name
      (``"load_skill"``, ``"skills"`` for zidane's three, ``"all"``), a list of tool
      names, True for the default, or False for none (the host activates skills itself).
    * `tool_names`: a host name for any tool, e.g. ``{"load_skill": "open_skill"}``
      (``list_skills`` and ``search_skills`` too).
    * `skill_search`: offer ``list_skills`` and ``search_skills`` when the index
      cannot list every skill, and end the index with a line naming them [True].
    * `max_active`: how many skills may be active at once [no limit].
    * `index_format`: the index in the context [``tool`` with `load_skill`, ``xml``
      with zidane's tools, ``paths`` with no tools].
    * `index_budget`: the `Budget` the index never exceeds [the host profile's for
      `model` (`Host.budget`) when it sets one, else 64 skills in 8 KiB].
    * `index_style`: the host's own listing style the index takes when no
      `index_format` is given and the tools are not zidane's (``skills_use`` reads the
      ``xml`` index) (``claude-code``: `satchel.hosts`) [the host profile's].
    * `model`: the model the host runs, whose context window sizes the host's skill
      listing [the one `load(model=...)` was given, else the host's default model].
    * `enforce_allowed_tools`: ``auto`` [enforce when the model can deactivate a skill,
      that is when it has `skills_use`], ``on`` or ``off``.
    * `max_body_tokens` [10,000] and `max_resource_tokens` [25,000]: text budgets;
      `resource_cap`: bytes a resource may have on disk [4 MiB].
    * `read_areas`: the top-level folders `skills_read` may read [None: any regular file
      in the skill directory, as real skills keep references at their root];
      ``("references", "assets")`` is zidane's rule. Every path rule holds either way.
    * `script_timeout`: seconds a script may run [60, zidane]; the model may ask for
      less, never more. `script_interpreters`: extension -> argv prefix for scripts
      without an exec bit; it comes before the ``#!`` line and the built-in suffix table
      (see `satchel.session._interpreter`) [none].
    * `allow_shell_interpolation` [True, zidane], `shell_scopes`: the scopes whose
      skills may interpolate [every scope `load()` trusted], `shell` [``sh -c``],
      `shell_timeout` [60], `max_shell_commands`: commands run per activation [32;
      the rest are left with a note]. `disable_skill_shell_execution`: Claude Code's
      ``disableSkillShellExecution``: no command runs and each leaves Claude Code's
      placeholder, ``[shell command execution disabled by policy]`` [False].
    * `max_output`: bytes kept per output stream of a script or command [1 MiB].
    * `env_passthrough`: names copied from the host environment into scripts and
      commands, beyond the base set (PATH, HOME, LANG, ...).
    * `slash_order`: what ``/<name>`` resolves first when a command and a skill share
      the name [``command``, caveman; ``skill`` is zidane].
    * `argument_numbering`: ``$1`` is the first word [1, mermaid and caveman] or ``$0``
      is (0, Claude Code since 2.1.19, with ``$ARGUMENTS[N]``).
    * `wrap_commands`: which expanded commands go inside ``<agent-plugin-command>``
      [``plugin``: plugin commands, caveman; ``all``; ``none``, mermaid].
    * `include_instructions`: put the instruction files (AGENTS.md, CLAUDE.md, ...) in
      `context()` [True].
    * `hooks`: run the environment's ``before_tool_use`` hooks in `before_tool_use`
      [True]; `hook_timeout`: seconds for a hook that sets none [None: Claude Code's
      default for its handler type, 600 for a command]; `session_id` and
      `transcript_path`: the hooks' common payload fields [under a host profile with
      a payload dialect (`satchel.runtime.hooks._payload`), a new uuid and the host's
      transcript path for it; else ""]; `permission_mode`: the hooks'
      ``permission_mode`` [the dialect's, ``default`` for Claude Code].
    * `effort`: the session's effort level, what ``${CLAUDE_EFFORT}`` gives a skill that
      sets no ``effort`` of its own, and the hooks' ``effort`` [None: left as written;
      hooks get the dialect's, ``medium`` for Claude Code with its default model].
    * `output_style`: the id of one of `Environment.output_styles` whose text
      `context()` puts first (``agent.output-style``) [None: a plugin's
      ``force-for-plugin`` style if there is one, else none].
    """

    tools: tuple[str, ...] = TOOLSETS["load_skill"]
    tool_names: Mapping[str, str] = field(default_factory=lambda: _EMPTY)
    skill_search: bool = True
    max_active: int | None = None
    index_format: IndexFormat | None = None
    index_budget: Budget | None = None
    index_style: str | None = None
    model: str | None = None
    enforce_allowed_tools: Enforce = "auto"
    max_body_tokens: int = 10_000
    max_resource_tokens: int = 25_000
    resource_cap: int = 4 * 1024 * 1024
    read_areas: tuple[str, ...] | None = None
    script_timeout: float = 60.0
    script_interpreters: Mapping[str, tuple[str, ...]] = field(
        default_factory=lambda: MappingProxyType({})
    )
    allow_shell_interpolation: bool = True
    shell_scopes: tuple[str, ...] | None = None
    shell: tuple[str, ...] = ("sh", "-c")
    shell_timeout: float = 60.0
    max_shell_commands: int = 32
    disable_skill_shell_execution: bool = False
    max_output: int = 1024 * 1024
    env_passthrough: tuple[str, ...] = ()
    slash_order: SlashOrder = "command"
    argument_numbering: Literal[1, 0] = 1
    wrap_commands: Wrap = "plugin"
    include_instructions: bool = True
    output_style: str | None = None
    hooks: bool = True
    hook_timeout: float | None = None
    session_id: str = ""
    transcript_path: str = ""
    effort: str | None = None
    permission_mode: str | None = None

    @classmethod
    def build(cls, **options: Unpack[SessionOverrides]) -> SessionOptions:
        """Options from keywords; unknown keywords and bad values are `TypeError`/`ValueError`."""
        return cls._coerce(dict(options))

    @classmethod
    def _coerce(cls, options: dict[str, Any]) -> SessionOptions:
        unknown = sorted(set(options) - set(cls.__dataclass_fields__))
        if unknown:
            raise TypeError(f"unknown Session option(s): {', '.join(unknown)}")
        if "tools" in options:
            options["tools"] = _toolset(options["tools"])
        if "tool_names" in options:
            options["tool_names"] = _frozen_map("tool_names", options["tool_names"], str)
        if "script_interpreters" in options:
            options["script_interpreters"] = _frozen_map(
                "script_interpreters", options["script_interpreters"], _argv
            )
        if options.get("read_areas") is not None:
            options["read_areas"] = _areas(options["read_areas"])
        for key in ("shell_scopes", "shell", "env_passthrough"):
            if options.get(key) is not None:
                options[key] = tuple(options[key])
        built = cls(**options)
        built._check()
        return built

    def name_of(self, tool: str) -> str:
        """The name the model sees for one of satchel's tools."""
        return self.tool_names.get(tool, tool)

    def _check(self) -> None:
        if self.max_active is not None and self.max_active < 1:
            raise ValueError("max_active must be at least 1 (or None for no limit)")
        if self.index_format is not None and self.index_format not in FORMATS:
            raise ValueError(f"index_format must be one of {', '.join(FORMATS)}")
        if self.enforce_allowed_tools not in ("auto", "on", "off"):
            raise ValueError("enforce_allowed_tools must be 'auto', 'on' or 'off'")
        if self.slash_order not in ("command", "skill"):
            raise ValueError("slash_order must be 'command' or 'skill'")
        if self.argument_numbering not in (0, 1):
            raise ValueError("argument_numbering must be 1 ($1 is the first word) or 0")
        if self.wrap_commands not in ("plugin", "all", "none"):
            raise ValueError("wrap_commands must be 'plugin', 'all' or 'none'")
        for key in ("script_timeout", "shell_timeout", "hook_timeout"):
            value = getattr(self, key)
            if value is not None and not value > 0:
                raise ValueError(f"{key} must be a positive number of seconds")
        if self.max_shell_commands < 0:
            raise ValueError("max_shell_commands must be 0 or more")
        if not self.shell:
            raise ValueError("shell must name a program, e.g. ('sh', '-c')")
        self._check_names()

    def _check_names(self) -> None:
        known = (*ALL_TOOLS, *SKILL_SEARCH_TOOLS)
        for tool, name in self.tool_names.items():
            if tool not in known:
                raise ValueError(f"tool_names: {tool!r} is not one of {', '.join(known)}")
            if not _TOOL_NAME.fullmatch(name):
                raise ValueError(
                    f"tool_names: {name!r} must be 1 to 64 letters, digits, '_' or '-'"
                )
        offered = (*self.tools, *SKILL_SEARCH_TOOLS) if self.tools and self.skill_search else ()
        names = [self.name_of(t) for t in offered]
        if len(set(names)) != len(names):
            raise ValueError(f"tool_names gives two tools one name: {', '.join(names)}")


class SessionOverrides(TypedDict, total=False):
    """The keywords `Session()` takes, as the caller may give them: each is the
    `SessionOptions` field of that name (see there), a sequence where the field is a
    tuple; `tools` may also be a toolset name, True or False (None: no tools)."""

    tools: str | bool | Iterable[str] | None
    tool_names: Mapping[str, str]
    skill_search: bool
    max_active: int | None
    index_format: IndexFormat | None
    index_budget: Budget | None
    index_style: str | None
    model: str | None
    enforce_allowed_tools: Enforce
    max_body_tokens: int
    max_resource_tokens: int
    resource_cap: int
    read_areas: str | Iterable[str] | None
    script_timeout: float
    script_interpreters: Mapping[str, str | Sequence[str]]
    allow_shell_interpolation: bool
    shell_scopes: Iterable[str] | None
    shell: Iterable[str]
    shell_timeout: float
    max_shell_commands: int
    disable_skill_shell_execution: bool
    max_output: int
    env_passthrough: Iterable[str]
    slash_order: SlashOrder
    argument_numbering: Literal[1, 0]
    wrap_commands: Wrap
    include_instructions: bool
    output_style: str | None
    hooks: bool
    hook_timeout: float | None
    session_id: str
    transcript_path: str
    effort: str | None
    permission_mode: str | None


def _toolset(value: Any) -> tuple[str, ...]:
    if value is True:
        return TOOLSETS["load_skill"]
    if value is False or value is None:
        return ()
    if isinstance(value, str):
        if value not in TOOLSETS:
            raise ValueError(f"tools: unknown toolset {value!r}; use one of {', '.join(TOOLSETS)}")
        return TOOLSETS[value]
    chosen = tuple(value)
    for tool in chosen:
        if tool not in ALL_TOOLS:
            raise ValueError(f"tools: {tool!r} is not one of {', '.join(ALL_TOOLS)}")
    return tuple(t for t in ALL_TOOLS if t in chosen)


def _areas(value: Any) -> tuple[str, ...]:
    """Folder names at the top of a skill directory: one segment each, none empty."""
    areas = (value,) if isinstance(value, str) else tuple(value)
    for area in areas:
        if not isinstance(area, str) or not area or area in (".", "..") or "/" in area:
            raise ValueError(f"read_areas: {area!r} must be a folder name such as 'references'")
    return areas


def _frozen_map(key: str, value: Any, item: Callable[[Any], Any]) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise TypeError(f"{key} must be a mapping")
    items: dict[str, Any] = {}
    for k, v in value.items():
        try:
            items[str(k)] = item(v)
        except TypeError:
            raise TypeError(f"{key}: the value for {k!r} has the wrong type") from None
    return MappingProxyType(items)


def _argv(value: Iterable[str] | Sequence[str]) -> tuple[str, ...]:
    argv = (value,) if isinstance(value, str) else tuple(value)
    if not argv or not all(isinstance(a, str) for a in argv):
        raise TypeError("an argv must be a non-empty list of strings")
    return argv
