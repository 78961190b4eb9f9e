"""What a hook reads on stdin, per host: each host's payload dialect in one table.

A payload is the common fields, then ``hook_event_name``, then the event's own fields
(``tool_name``, ``prompt``...: the host loop's, passed to `HookRunner.run`). Which
common fields an event carries is the host's dialect (`Dialect`): every host sends
``session_id``, ``transcript_path`` and ``cwd``; Claude Code adds ``prompt_id`` (once a
prompt was submitted), ``permission_mode`` and ``effort`` on some events, and
``agent_id`` / ``agent_type`` inside a subagent. The values come from the host loop
(`PayloadContext`: a `Session` fills it from its options and its current prompt).

`DIALECTS` maps a host profile's name to its dialect; a host with none there gets
`PLAIN` (the three common fields only, satchel's own rule). Another host's dialect is
one more `Dialect` there (a common field no host has yet is a `PayloadContext` field
named in its `order`; what it tells its model of the hooks' answers its `Words`), its
transcript rule one more entry of `_TRANSCRIPTS` and the variables it sets for its
hooks one more of `_VARIABLES`.

Codex 0.171.0 (`CODEX`) and Gemini CLI 0.61.0 (`GEMINI`) are such dialects, each
observed by running the host with every event's hook writing its stdin
(tests/hooks/test_codex_hook_loop.py, test_gemini_hook_loop.py): Codex adds
``turn_id`` (the prompt's id), ``model`` and ``permission_mode`` by event; Gemini CLI
a ``timestamp`` on every event, and names some event fields its own way (`renames`,
`objects`). Both send only their own fields for an event (`only`).

Claude Code 2.1.332 and 2.1.337 (the same dialect; observed by running each with
every event's hook writing its stdin to a file, tests/hooks/test_claude_hook_loop.py,
and read from the binaries' base-input builder for the events print mode does not
fire): the common fields, in this order, are ``session_id``, ``transcript_path``,
``cwd``, ``prompt_id`` (a uuid per user prompt, absent before the first),
``permission_mode``, ``agent_id``, ``agent_type``, ``effort`` (``{"level": ...}``);
which of ``permission_mode`` and ``effort`` an event carries is `CLAUDE_CODE.extras`.
The transcript is ``~/.claude/projects/<cwd, every character not a letter or digit
made "-">/<session_id>.jsonl`` (`claude_transcript_path`).
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Mapping
from dataclasses import field
from datetime import UTC, datetime
from pathlib import Path
from types import MappingProxyType
from typing import Any

from satchel._model import model
from satchel.runtime.hooks._words import CLAUDE_WORDS, Words

__all__ = [
    "CLAUDE_CODE",
    "CODEX",
    "DIALECTS",
    "GEMINI",
    "PLAIN",
    "Dialect",
    "PayloadContext",
    "claude_project_dir",
    "claude_transcript_path",
    "codex_transcript_path",
    "dialect_for",
    "gemini_hook_variables",
    "gemini_transcript_path",
    "hook_variables",
    "new_id",
    "transcript_path",
]

COMMON = ("session_id", "transcript_path", "cwd")
_NONE: Mapping[str, Any] = MappingProxyType({})
CONTEXT = ("prompt_id", "permission_mode", "agent_id", "agent_type", "effort")


@model
class PayloadContext:
    """What the host loop knows when it fires an event: the values of the common
    fields. None leaves a field out (a host sends no ``prompt_id`` before the first
    prompt, no ``agent_id`` outside a subagent)."""

    session_id: str = ""
    transcript_path: str = ""
    cwd: str = ""
    prompt_id: str | None = None
    permission_mode: str | None = None
    agent_id: str | None = None
    agent_type: str | None = None
    effort: str | None = None
    model: str | None = None

    def value(self, name: str) -> Any:
        """The payload value of common field `name` (None: left out). Codex's
        ``turn_id`` is the current prompt's id and its ``thread_id`` the session's;
        Gemini CLI's ``timestamp`` is now."""
        if name == "effort":
            return None if self.effort is None else {"level": self.effort}
        if name == "turn_id":
            return self.prompt_id
        if name == "thread_id":  # Codex's thread is its session
            return self.session_id
        if name == "timestamp":
            return _now()
        value: Any = getattr(self, name)
        return value


def _now() -> str:
    """The time as Gemini CLI stamps its payloads (``2026-12-07T08:52:03.029Z``)."""
    now = datetime.now(UTC)
    return now.strftime("%Y-%m-%dT%H:%M:%S.") + f"{now.microsecond // 1000:03d}Z"


@model
class Dialect:
    """A host's payload dialect.

    * `host`: the profile's name (``claude-code``).
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
      with no ceiling (Claude Code: ``timeout * 1000`` ms, read from the binaries);
      satchel's runner stops every hook at its ``max_timeout`` (600 s), a safety rule
      `satchel compat` reports for such a host (``compat.hook.timeout.capped``).
    * `words`: what the host tells its model of its hooks' answers (`Words`: a
      refused call's result, a context's message) [Claude Code's].
    * `sources`: where the table was established."""

    host: str
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
    sources: tuple[str, ...] = ()

    def fields_of(self, event: str) -> tuple[str, ...]:
        """The common fields `event` (the host's name) may carry, in payload order."""
        wanted = {*self.always, *self.when_known, *self.extras.get(event, ())}
        return tuple(f for f in self.order if f in wanted)

    def payload(
        self, event: str, context: PayloadContext, fields: Mapping[str, Any]
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


PLAIN = Dialect(host="satchel")

_MODE_EFFORT = ("permission_mode", "effort")
# Claude Code 2.1.332 / 2.1.337: which events add permission_mode and effort to the base
# input. Observed in print mode for the events it fires; read from the binary's calls
# of its base-input builder (the permission mode it is given, and the tool-use context
# that brings the effort) for the others.
_CLAUDE_EXTRAS: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {
        "PreToolUse": _MODE_EFFORT,
        "PostToolUse": _MODE_EFFORT,
        "PostToolUseFailure": _MODE_EFFORT,
        "PostToolBatch": _MODE_EFFORT,
        "PermissionRequest": _MODE_EFFORT,
        "PermissionDenied": _MODE_EFFORT,
        "PreSkillShellCommand": _MODE_EFFORT,
        "Stop": _MODE_EFFORT,
        "SubagentStop": _MODE_EFFORT,
        "Interrupt": _MODE_EFFORT,  # 2.1.337
        "StopFailure": ("effort",),
        "UserPromptSubmit": ("permission_mode",),
        "UserPromptExpansion": ("permission_mode",),
        "Elicitation": ("permission_mode",),
        "ElicitationResult": ("permission_mode",),
        "TeammateIdle": ("permission_mode",),
        "TaskCreated": ("permission_mode",),
        "TaskCompleted": ("permission_mode",),
    }
)

CLAUDE_CODE = Dialect(
    host="claude-code",
    when_known=("prompt_id", "agent_id", "agent_type"),
    extras=_CLAUDE_EXTRAS,
    defaults=MappingProxyType({"permission_mode": "default", "effort": "medium"}),
    waits_declared_timeout=True,
    sources=(
        "claude -p with a hook on every event (2.1.332, 2.1.337, observed)",
        "the binaries' hook input schemas and base-input builder",
    ),
)

_TURN = ("turn_id", "model", "permission_mode")
_REQUEST = ("kind", "request_id", "attempt_number")  # Codex's model request events
_TOOL = ("tool_name", "tool_input", "tool_use_id")
# Codex 0.171.0 (`codex exec` with a hook on every event writing its stdin, observed:
# tests/hooks/test_codex_hook_loop.py; Interrupt on a SIGINT during a tool call):
# which context fields each event carries (the turn's id is the prompt's), and the
# event's own fields. PermissionRequest (never in
# exec mode, whose approval policy is "never") is read from its input schema.
CODEX = Dialect(
    host="codex",
    order=("session_id", "thread_id", "turn_id", "transcript_path", "cwd", "model",
           "permission_mode"),
    late=("model", "permission_mode"),
    extras=MappingProxyType(
        {
            "SessionStart": ("model", "permission_mode"),
            "UserPromptSubmit": _TURN,
            "PreToolUse": _TURN,
            "PermissionRequest": _TURN,
            "PostToolUse": _TURN,
            "Stop": _TURN,
            "PreCompact": ("turn_id", "model"),
            "PostCompact": ("turn_id", "model"),
            "Interrupt": _TURN,
            "PreModelRequest": ("thread_id", "turn_id", "model"),
            "PostModelRequest": ("thread_id", "turn_id", "model"),
        }
    ),
    only=MappingProxyType(
        {
            "Interrupt": (),
            "PreModelRequest": _REQUEST,
            "PostModelRequest": (*_REQUEST, "status", "error", "token_usage", "response_id"),
            "SessionStart": ("source",),
            "UserPromptSubmit": ("prompt",),
            "PreToolUse": _TOOL,
            "PermissionRequest": ("tool_name", "tool_input"),
            "PostToolUse": (*_TOOL, "tool_response"),
            "Stop": ("stop_hook_active", "last_assistant_message"),
            "PreCompact": ("trigger",),
            "PostCompact": ("trigger",),
            "SessionEnd": ("reason",),
        }
    ),
    defaults=MappingProxyType({"permission_mode": "default", "model": "gpt-6.2-sol"}),
    waits_declared_timeout=True,  # timeout_sec, 600 when unset, no ceiling (discovery.rs)
    # a refused call: what Codex sent its model next (a developer message for a context)
    words=Words(blocked="Command blocked by PreToolUse hook: {reason}. Command: {command}",
                blocked_by_exit=None, blocked_after="{reason}", asked=None,
                context="{text}", tool_context="{text}"),
    sources=("codex exec with a hook on every event (0.171.0, observed)",
             "openai/codex codex-rs/hooks/schema/generated/*.command.input.schema.json"),
)  # fmt: skip

# Gemini CLI 0.61.0 (`gemini -p` with a hook on every event writing its stdin, observed:
# tests/hooks/test_gemini_hook_loop.py; its bundle's hookEventHandler for the fields of
# the events print mode fires without a model of its own): every payload has the three
# common fields, ``hook_event_name`` and a ``timestamp``, then the event's fields.
_GEMINI_ONLY: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {
        "SessionStart": ("source",),
        "SessionEnd": ("reason",),
        "BeforeAgent": ("prompt",),
        "AfterAgent": ("prompt", "prompt_response", "stop_hook_active"),
        "BeforeTool": ("tool_name", "tool_input", "mcp_context", "original_request_name"),
        "AfterTool": ("tool_name", "tool_input", "tool_response", "mcp_context",
                      "original_request_name"),
        "PreCompress": ("trigger",),
        "Notification": ("notification_type", "message", "details"),
        "BeforeModel": ("llm_request",),
        "AfterModel": ("llm_request", "llm_response"),
        "BeforeToolSelection": ("llm_request",),
    }
)  # fmt: skip
GEMINI = Dialect(
    host="gemini",
    always=(*COMMON, "timestamp"),
    order=(*COMMON, "timestamp"),
    late=("timestamp",),
    only=_GEMINI_ONLY,
    renames=MappingProxyType({"AfterAgent": {"last_assistant_message": "prompt_response"}}),
    objects=MappingProxyType({"AfterTool": {"tool_response": ("llmContent", "returnDisplay")}}),
    waits_declared_timeout=True,  # the hook's timeout in ms, 60 s when unset, no ceiling
    words=Words(blocked="Tool execution blocked: {reason}", blocked_by_exit=None,
                blocked_after="{reason}", asked=None,
                context="<hook_context>{text}</hook_context>",
                tool_context="<hook_context>{text}</hook_context>"),
    sources=("gemini -p with a hook on every event (0.61.0, observed)",
             "the bundle's hookEventHandler (packages/core/src/hooks)"),
)  # fmt: skip

DIALECTS: Mapping[str, Dialect] = MappingProxyType(
    {"claude-code": CLAUDE_CODE, "codex": CODEX, "gemini": GEMINI}
)


def dialect_for(host: str | None) -> Dialect:
    """The dialect of the host profile named `host` (`PLAIN` for one with none)."""
    return DIALECTS.get(host or "", PLAIN)


def new_id() -> str:
    """A fresh id as the hosts make theirs: a random uuid (``session_id``,
    ``prompt_id``)."""
    return str(uuid.uuid4())


_DIR_LIMIT = 200


def _java_hash(text: str) -> int:
    """The 32-bit string hash Claude Code uses (``h = h*31 + unit`` over UTF-16 units)."""
    h = 0
    data = text.encode("utf-16-le")
    for i in range(0, len(data), 2):
        h = (h * 31 + int.from_bytes(data[i : i + 2], "little")) & 0xFFFFFFFF
    return h - (1 << 32) if h & 0x80000000 else h


def _base36(number: int) -> str:
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    out = ""
    while True:
        number, rest = divmod(number, 36)
        out = digits[rest] + out
        if not number:
            return out


def claude_project_dir(cwd: str) -> str:
    """The folder name Claude Code gives `cwd` under ``~/.claude/projects``: every
    character (UTF-16 unit) that is not an ASCII letter or digit becomes ``-``; a name
    over 200 characters is cut to 200 and followed by ``-`` and its hash in base 36."""
    units = cwd.encode("utf-16-le")
    chars = [
        chr(c) if c < 128 and chr(c).isalnum() else "-"
        for c in (int.from_bytes(units[i : i + 2], "little") for i in range(0, len(units), 2))
    ]
    name = "".join(chars)
    if len(name) <= _DIR_LIMIT:
        return name
    return f"{name[:_DIR_LIMIT]}-{_base36(abs(_java_hash(cwd)))}"


def claude_transcript_path(home: Path, cwd: str, session_id: str) -> str:
    """Where Claude Code keeps session `session_id`'s transcript for `cwd`."""
    folder = home / ".claude" / "projects" / claude_project_dir(cwd)
    return str(folder / f"{session_id}.jsonl")


def codex_transcript_path(home: Path, cwd: str, session_id: str) -> str:
    """Where Codex keeps a session's rollout: ``~/.codex/sessions/YYYY/MM/DD/
    rollout-YYYY-MM-DDTHH-MM-SS-<session_id>.jsonl``, dated when the session starts."""
    now = datetime.now()
    name = f"rollout-{now:%Y-%m-%dT%H-%M-%S}-{session_id}.jsonl"
    return str(home / ".codex" / "sessions" / f"{now:%Y}" / f"{now:%m}" / f"{now:%d}" / name)


def gemini_transcript_path(home: Path, cwd: str, session_id: str) -> str:
    """Where Gemini CLI keeps a session's chat: ``~/.gemini/tmp/<project folder's
    name>/chats/session-YYYY-MM-DDTHH-MM-<first 8 of the id>.jsonl``."""
    name = f"session-{datetime.now():%Y-%m-%dT%H-%M}-{session_id[:8]}.jsonl"
    return str(home / ".gemini" / "tmp" / Path(cwd).name / "chats" / name)


_TRANSCRIPTS: Mapping[str, Callable[[Path, str, str], str]] = MappingProxyType(
    {
        "claude-code": claude_transcript_path,
        "codex": codex_transcript_path,
        "gemini": gemini_transcript_path,
    }
)


def hook_variables(host: str | None, context: PayloadContext, home: Path) -> dict[str, str]:
    """The variables host `host` sets for every hook from its session (`_VARIABLES`);
    none for a host whose rule satchel does not know."""
    rule = _VARIABLES.get(host or "")
    return {} if rule is None else rule(context, home)


def gemini_hook_variables(context: PayloadContext, home: Path) -> dict[str, str]:
    """The variables Gemini CLI 0.61.0 sets for every hook (observed):
    ``GEMINI_PROJECT_DIR``, ``GEMINI_CWD`` and ``CLAUDE_PROJECT_DIR``, the working
    directory; ``GEMINI_SESSION_ID``; ``GEMINI_PLANS_DIR``."""
    cwd = context.cwd
    plans = home / ".gemini" / "tmp" / Path(cwd).name / context.session_id / "plans"
    return {
        "GEMINI_PROJECT_DIR": cwd,
        "GEMINI_CWD": cwd,
        "CLAUDE_PROJECT_DIR": cwd,
        "GEMINI_SESSION_ID": context.session_id,
        "GEMINI_PLANS_DIR": str(plans),
    }


_VARIABLES: Mapping[str, Callable[[PayloadContext, Path], dict[str, str]]] = MappingProxyType(
    {"gemini": gemini_hook_variables}
)


def transcript_path(host: str | None, home: Path, cwd: str, session_id: str) -> str:
    """Where host `host` keeps session `session_id`'s transcript ("" for a host whose
    rule satchel does not know)."""
    rule = _TRANSCRIPTS.get(host or "")
    return "" if rule is None else rule(home, cwd, session_id)
