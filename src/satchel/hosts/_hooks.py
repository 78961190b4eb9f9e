"""`HookDialect`: everything a host does differently with hooks, as one frozen value
(`Host.hooks`).

A dialect has two halves. The files: which hook format is the host's own (`format`:
the hook files written in it are read and run in this dialect), the host's event
names and satchel's event each stands for (`events`), how a matcher is read
(`matcher`), which fields of a JSON answer carry the decision (`answer_fields`) and the
variables a hook gets (`variables`). The host loop: what a hook reads on stdin (the
payload fields: `always` ... `defaults`), how the host reads a hook's run (`answers`,
`blocking`), what it tells its model of the answers (`words`), where it keeps a
session's transcript (`transcript`) and the variables it sets from its session
(`HookVariables.session`).

The loaders (`satchel.hooks`) and the runtime (`satchel.runtime.hooks`) read these
fields and never a host's name; where a rule is code (reading Codex's JSON answer), the
field names the mechanism (`AnswerRule`) and the runtime holds one reader per mechanism.
A host with no dialect of its own gets `HookDialect()`: Claude Code's words, the three
common payload fields, exit-code answers.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import field
from types import MappingProxyType
from typing import Any, Literal, Protocol

from satchel.core._model import model
from satchel.hosts._vocabulary import (
    AnswerFields,
    AnswerRule,
    Format,
    HookFormat,
    MatcherStyle,
)

__all__ = [
    "CLAUDE_WORDS",
    "COMMON",
    "CONTEXT",
    "HookDialect",
    "HookOffList",
    "HookSwitch",
    "HookVariables",
    "PayloadValues",
    "Words",
    "reverse",
]

COMMON = ("session_id", "transcript_path", "cwd")
"""The common fields every host's payload carries."""
CONTEXT = ("prompt_id", "permission_mode", "agent_id", "agent_type", "effort")
"""The context fields a host loop may know beside the common ones."""
_NONE: Mapping[str, Any] = MappingProxyType({})


def reverse(table: Mapping[str, str], skip: tuple[str, ...] = ()) -> Mapping[str, str]:
    """`table` (a host's name -> satchel's event) turned round: satchel's event -> the
    first of the host's names for it, leaving out the names in `skip`."""
    found: dict[str, str] = {}
    for name, event in table.items():
        if name not in skip:
            found.setdefault(event, name)
    return MappingProxyType(found)


@model
class Words:
    """What a host tells its model of its hooks' answers. Each text is a template
    (`str.format`) filled with ``event`` (the event's Claude Code name: ``PreToolUse``),
    ``tool`` (the tool's name), ``reason`` (the hooks' reason), ``command`` (the refused
    shell command), ``hook`` (the refusing hook's command) and ``text`` (the hooks'
    ``additionalContext``).

    * `blocked`: the result of a call a hook refused.
    * `blocked_by_exit`: the same when the first refusing hook exited 2 (None: as
      `blocked`).
    * `blocked_after`: the result a hook refused after the call ran (None: as
      `blocked`).
    * `asked`: the result of a call a hook would ask about, with nobody to ask (None:
      as a refusal).
    * `context`: a hook's context on an event with no tool.
    * `tool_context`: a hook's context on a tool event."""

    blocked: str = "{event}:{tool} hook error: {reason}"
    blocked_by_exit: str | None = "{event}:{tool} hook error: [{hook}]: {reason}"
    blocked_after: str | None = None
    asked: str | None = "{reason}"
    context: str = "{event} hook additional context: {text}"
    tool_context: str = "{event}:{tool} hook additional context: {text}"


CLAUDE_WORDS = Words()
"""Claude Code 2.1.332 and 2.1.337 (tests/hooks/test_claude_hook_loop.py): the
refused call's result names the event and the tool (and the hook's command after an
exit 2); an ``ask`` print mode cannot put to anyone is the reason alone; a context
names the event (and the tool, on a tool event). A host with no words of its own is
spoken for as Claude Code speaks."""


@model
class HookVariables:
    """The variables a host sets for a hook.

    * `project`: set to the project's root for every hook of the dialect's format
      (``CLAUDE_PROJECT_DIR``).
    * `plugin_root`, `plugin_data`: set to a plugin's root and data directory for its
      hooks, beside satchel's own ``PLUGIN_ROOT`` and ``PLUGIN_DATA``
      (``CLAUDE_PLUGIN_ROOT``; Kimi's ``KIMI_PLUGIN_ROOT``); for the MCP servers of a
      plugin of the dialect's `HookDialect.server_format` too.
    * `placeholders`: what the host's own placeholders in a hook's command are
      written as when the file is read (Gemini CLI's ``${extensionPath}``:
      ``${PLUGIN_ROOT}``).
    * `session`: the variables the host sets for every hook from its session, each a
      template filled with ``cwd``, ``cwd_name`` (its last part), ``home`` and
      ``session_id``; a template holding a ``/`` is a path."""

    project: tuple[str, ...] = ()
    plugin_root: tuple[str, ...] = ()
    plugin_data: tuple[str, ...] = ()
    placeholders: Mapping[str, str] = field(default_factory=lambda: _NONE)
    session: Mapping[str, str] = field(default_factory=lambda: _NONE)


@model
class HookSwitch:
    """A host setting that turns every hook off: the settings files it is read in,
    weakest first (templates of ``{home}``, ``{project}`` and ``{cwd}``, a ``{cwd}``
    outside the project read as the project; a ``.toml`` file is TOML, else JSON: the
    last that sets the key decides), or with `in_config`
    the host's own config files (`HostState`: the user's, then each project folder's
    it reads, from the root down to cwd), its dotted `key` and the value that turns
    the hooks `off` (Claude Code's ``disableAllHooks: true``, Codex's ``[features]
    hooks = false``, Gemini CLI's ``hooksConfig.enabled: false``)."""

    files: tuple[str, ...]
    key: str
    off: bool
    in_config: bool = False


@model
class HookOffList:
    """A host setting that lists hooks it does not run: the settings files it is read
    in (as `HookSwitch`'s, `in_config` too; the lists of every file count together) and the dotted
    `key` of the list, whose items name a hook by its name, or else by its command
    (Gemini CLI's ``hooksConfig.disabled``)."""

    files: tuple[str, ...]
    key: str
    in_config: bool = False


class PayloadValues(Protocol):
    """What the host loop knows when it fires an event
    (`satchel.runtime.hooks.PayloadContext`): the value of each common field."""

    def value(self, name: str) -> Any: ...


@model
class HookDialect:
    """One host's hook rules (see the module docstring).

    The files:

    * `format`: the hook format that is this host's own (its hook files are read and
      run in this dialect) [None: the host writes another's, or none].
    * `server_format`: the plugin format whose MCP servers get `variables`'
      ``plugin_root`` and ``plugin_data`` [None: none].
    * `events`: the host's event names -> satchel's [None: satchel's own names].
    * `also`: names a file in this format may also use (Kimi's: Claude Code's).
    * `told`: satchel's event -> the name a hook of this format is told in
      ``hook_event_name`` and a port writes [None: `events` and `also` turned round,
      without `tools`]; an event with none there takes satchel's dialect's.
    * `kept`: the host's events with no satchel event, kept by name.
    * `tools`: events of one kind of tool -> the tools they stand for, as a matcher on
      Claude Code's tool names (Cursor's ``beforeShellExecution``: ``Bash``).
    * `named`: a user may name an event in this spelling (``satchel hooks run
      BeforeTool``).
    * `tells_declared`: a hook is told the event it was declared for, not satchel's
      event in this spelling (several of the host's events stand for one of satchel's).
    * `matcher`: how a matcher is read (`MatcherStyle`).
    * `answer_fields`: which fields of a JSON answer carry the decision.
    * `variables`: the variables a hook gets (`HookVariables`).
    * `switches`: the settings that turn every hook of the host off (`HookSwitch`);
      `off_lists` those that list hooks it does not run (`HookOffList`).
    * `same_hook`: what the host does with one hook (same event, matcher and command)
      that several of its files register: ``once`` (it runs it once, the first copy
      in the order its files are read), ``per-plugin`` (once for all its settings
      files, and once more for each plugin's copy: a plugin's hook runs in its own
      root) or ``each`` (it runs every copy). `same_key`: beside the event and the
      command, what makes two copies one hook: ``matcher`` (copies under different
      matchers are different hooks) and ``name`` (copies of different names are
      different hooks, each run: Gemini CLI's ``name:command``, its matcher ignored).

    The host loop:

    * `answers`: how the host reads a hook's run (`AnswerRule`); `blocking`: the
      events whose answers refuse under it [None: satchel's, `satchel.hooks.BLOCKING`];
      `stricter`: where satchel's runner refuses a call the host runs, in words.
    * `always`: the common fields every payload carries, even empty.
    * `when_known`: the context fields every event carries when the loop has a value
      (Claude Code's ``prompt_id``, ``agent_id``, ``agent_type``).
    * `extras`: by the host's event name, the further context fields that event
      carries (Claude Code's ``permission_mode`` and ``effort``); an event not named
      carries none.
    * `order`: the order of the common fields in the payload; those in `late` come
      after ``hook_event_name`` (Codex's ``model``, Gemini CLI's ``timestamp``).
    * `only`: by the host's event name, the event's own fields the host sends; any
      other field the loop passes is left out (an event not named keeps every field).
    * `renames`: by the host's event name, a loop's field name (satchel's, Claude
      Code's) -> the host's (Gemini CLI's ``prompt_response`` for
      ``last_assistant_message``).
    * `objects`: by the host's event name, a field the host sends as an object whose
      keys a loop's plain string fills (Gemini CLI's ``tool_response``:
      ``llmContent`` and ``returnDisplay``).
    * `defaults`: the value of a context field the host always has when the loop
      gives none (Claude Code's ``permission_mode`` ``default``, and the ``effort``
      of its default model, ``medium``).
    * `waits_declared_timeout`: the host lets a hook run as long as it declares,
      with no ceiling; satchel's runner stops every hook at its ``max_timeout`` (600
      s), a safety rule `satchel compat` reports for such a host.
    * `words`: what the host tells its model of its hooks' answers (`Words`).
    * `transcript`: where the host keeps a session's transcript, a template filled
      with ``home``, ``cwd``, ``cwd_name``, ``cwd_dashed`` (Claude Code's folder name
      for the cwd), ``session_id``, ``session_short`` (its first 8 characters) and
      ``now`` (a `datetime`) [None: satchel does not know; a session under the host
      then makes no session id of its own].
    * `sources`: where the rules were established."""

    format: HookFormat | None = None
    server_format: Format | None = None
    events: Mapping[str, str] | None = field(default_factory=lambda: _NONE)
    also: Mapping[str, str] = field(default_factory=lambda: _NONE)
    told: Mapping[str, str] | None = None
    kept: tuple[str, ...] = ()
    tools: Mapping[str, str] = field(default_factory=lambda: _NONE)
    named: bool = True
    tells_declared: bool = False
    matcher: MatcherStyle = "names-or-regex"
    answer_fields: AnswerFields = "hook-specific-output"
    variables: HookVariables = field(default_factory=HookVariables)
    switches: tuple[HookSwitch, ...] = ()
    off_lists: tuple[HookOffList, ...] = ()
    same_hook: Literal["once", "per-plugin", "each"] = "each"
    same_key: tuple[Literal["matcher", "name"], ...] = ("matcher",)
    answers: AnswerRule = "exit-code"
    blocking: frozenset[str] | None = None
    stricter: str | None = None
    always: tuple[str, ...] = COMMON
    when_known: tuple[str, ...] = ()
    extras: Mapping[str, tuple[str, ...]] = field(default_factory=lambda: _NONE)
    order: tuple[str, ...] = (*COMMON, *CONTEXT)
    late: tuple[str, ...] = ()
    only: Mapping[str, tuple[str, ...]] = field(default_factory=lambda: _NONE)
    renames: Mapping[str, Mapping[str, str]] = field(default_factory=lambda: _NONE)
    objects: Mapping[str, Mapping[str, tuple[str, ...]]] = field(default_factory=lambda: _NONE)
    defaults: Mapping[str, str] = field(default_factory=lambda: _NONE)
    waits_declared_timeout: bool = False
    words: Words = CLAUDE_WORDS
    transcript: str | None = None
    sources: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """Every rule as JSON (mappings as objects, tuples and sets as lists)."""

        def plain(value: Any) -> Any:
            if isinstance(value, Mapping):
                return {k: plain(v) for k, v in value.items()}
            if isinstance(value, frozenset):
                return sorted(value)
            if isinstance(value, tuple):
                return [plain(v) for v in value]
            if isinstance(value, (Words, HookVariables, HookSwitch, HookOffList)):
                return {f: plain(getattr(value, f)) for f in value.__dataclass_fields__}
            return value

        return {name: plain(getattr(self, name)) for name in self.__dataclass_fields__}

    def names(self) -> Mapping[str, str]:
        """Every event name a file in this format may use -> satchel's (`also`, then
        `events`); empty for satchel's own names."""
        return MappingProxyType({**self.also, **(self.events or {})})

    def spelling(self) -> Mapping[str, str]:
        """Satchel's event -> the name this dialect gives it (`told`)."""
        if self.told is not None:
            return self.told
        return reverse(self.names(), tuple(self.tools))

    def fields_of(self, event: str) -> tuple[str, ...]:
        """The common fields `event` (the host's name) may carry, in payload order."""
        wanted = {*self.always, *self.when_known, *self.extras.get(event, ())}
        return tuple(f for f in self.order if f in wanted)

    def payload(
        self, event: str, context: PayloadValues, fields: Mapping[str, Any]
    ) -> dict[str, Any]:
        """The JSON object a hook of `event` (the host's name) reads: the common
        fields, ``hook_event_name``, then the event's `fields`; an event field that is
        a common one (``agent_id`` on ``SubagentStart``) takes its value and place."""
        fields = self._own(event, fields)
        common: dict[str, Any] = {}
        named = {*self.fields_of(event), *(f for f in fields if f in self.order)}
        for name in (f for f in self.order if f in named):
            value = fields[name] if name in fields else context.value(name)
            if value is None and name in self.always:
                value = ""
            if value is not None:
                common[name] = value
        out = {k: v for k, v in common.items() if k not in self.late}
        out["hook_event_name"] = event
        out.update((k, v) for k, v in common.items() if k in self.late)
        for key, value in fields.items():
            if key not in out and key != "hook_event_name":
                out[key] = value
        return out

    def _own(self, event: str, fields: Mapping[str, Any]) -> Mapping[str, Any]:
        """The loop's `fields` under the host's names, only those the host sends."""
        renames = self.renames.get(event, _NONE)
        named = {renames.get(k, k): v for k, v in fields.items()}
        for name, keys in self.objects.get(event, _NONE).items():
            if isinstance(named.get(name), str):
                named[name] = dict.fromkeys(keys, named[name])
        kept = self.only.get(event)
        if kept is None:
            return named
        return {k: v for k, v in named.items() if k in kept or k in self.order}
