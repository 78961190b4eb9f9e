"""Hooks as loaded (`Hook`, `HookSet`) and what running them gave (`HookResult`,
`Outcome`)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

from satchel.core._model import model
from satchel.core.diagnostics import Diagnostic
from satchel.foundations.origin import Origin
from satchel.foundations.permissions import Rule
from satchel.hooks._matchers import Matcher
from satchel.hooks._spec import HookSpec

__all__ = ["Behavior", "Exports", "Hook", "HookResult", "HookSet", "Outcome"]

Behavior = Literal["allow", "deny", "ask"]
LOCAL_SETTINGS = "settings.local.json"  # Claude Code's project settings kept out of git


@model
class Hook:
    """One hook with where it came from and whether it will run.

    `event` is satchel's canonical name (or the host's own name for an event no table
    knows). `origin` is where it was declared: a plugin (its `plugin` and root), or
    the `scope` (``project``, ``user``) and `path` of a hooks file. `source` names the
    file's owner from it. `data_dir` is a plugin's ``PLUGIN_DATA``. `status` is
    ``loaded`` or ``skipped``, with `why` saying why. `owner` names the skill or agent
    type whose frontmatter declares it (``skill:<name>``, ``agent:<name>``; None for a
    hooks file's or a plugin's hooks file's)."""

    spec: HookSpec
    event: str
    origin: Origin
    matcher: Matcher
    condition: Rule | None = None
    data_dir: Path | None = None
    status: Literal["loaded", "skipped"] = "loaded"
    why: str | None = None
    owner: str | None = None

    @property
    def source(self) -> str:
        """The file's owner: ``plugin:<name>``, ``project``, ``user`` (satchel's
        ``hooks.toml``) or ``claude-project``, ``claude-local``, ``claude-user``
        (Claude Code's ``settings.json`` and ``settings.local.json``), ``codex-project``,
        ``codex-user`` (Codex's ``hooks.json`` and ``config.toml`` hooks), ``code`` (a
        callback registered with `HookMatcher`), or the `owner` whose frontmatter
        declares it (``skill:<name>``, ``agent:<name>``)."""
        if self.owner is not None:
            return self.owner
        origin = self.origin
        if origin.scope == "":
            return "code"  # a callback registered in code (`HookMatcher`)
        if origin.plugin is not None:
            return f"plugin:{origin.plugin}"
        path = origin.path
        if path is None or path.name == "hooks.toml" or path.suffix not in (".json", ".toml"):
            return origin.scope  # satchel's own file, or hooks handed in by the host
        owner = origin.family.lstrip(".") or "claude"  # whose folder holds the file
        local = path.name == LOCAL_SETTINGS
        return f"{owner}-local" if local else f"{owner}-{origin.scope}"

    @property
    def root(self) -> Path | None:
        """The plugin root (plugin hooks run there); None for a hooks file's."""
        return self.origin.path if self.origin.plugin is not None else None

    @property
    def name(self) -> str:
        """How listings and results name the hook: its own name, else its command."""
        return self.spec.name or self.spec.command

    @property
    def loaded(self) -> bool:
        return self.status == "loaded"

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "event": self.event,
            "host_event": self.spec.event,
            "source": self.source,
            "format": self.spec.format,
            "type": self.spec.type,
            "matcher": self.spec.matcher,
            "if": self.spec.condition,
            "command": self.spec.command,
            "args": None if self.spec.args is None else list(self.spec.args),
            "timeout": self.spec.timeout,
            "strict": self.spec.strict,
            "fail_mode": self.spec.fail_mode,
            "path": None if self.spec.path is None else str(self.spec.path),
            "status": self.status,
            "why": self.why,
        }


@model
class HookSet:
    """Every hook found, in declared order (skipped ones included, marked), and what
    went wrong while reading them. `http_urls`: the URL patterns the Claude Code
    settings read list in ``allowedHttpHookUrls`` (http hooks may post only there);
    `http_env_vars` the variables their ``httpHookAllowedEnvVars`` let any http hook put
    in a header (None: no file sets it, each hook's ``allowedEnvVars`` stands)."""

    hooks: tuple[Hook, ...] = ()
    diagnostics: tuple[Diagnostic, ...] = ()
    http_urls: tuple[str, ...] = ()  # Claude Code settings' allowedHttpHookUrls, in order
    http_env_vars: tuple[str, ...] | None = None  # their httpHookAllowedEnvVars (None: unset)

    def loaded(self) -> tuple[Hook, ...]:
        """The hooks that can run."""
        return tuple(h for h in self.hooks if h.loaded)

    def named(self) -> tuple[tuple[str, Hook], ...]:
        """Every hook with a name that stays put while the files do:
        ``<source>/<event>/<matcher>#<n>``, `n` counting from 1 in declared order."""
        counts: dict[str, int] = {}
        named: list[tuple[str, Hook]] = []
        for hook in self.hooks:
            base = f"{hook.source}/{hook.event}/{hook.spec.matcher or '*'}"
            counts[base] = counts.get(base, 0) + 1
            named.append((f"{base}#{counts[base]}", hook))
        return tuple(named)

    def for_event(self, event: str) -> tuple[Hook, ...]:
        """The loaded hooks of `event`, in declared order."""
        return tuple(h for h in self.hooks if h.loaded and h.event == event)

    def to_json(self) -> dict[str, Any]:
        return {
            "hooks": [h.to_json() for h in self.hooks],
            "diagnostics": [d.to_json() for d in self.diagnostics],
        }


@model
class Exports:
    """What hooks wrote to ``CLAUDE_ENV_FILE`` (`satchel.runtime.hooks._envfile`): the
    variables to set for the host's later shell commands, in the order set (a later
    value of a name wins), and the files' text as written, in declared order."""

    pairs: tuple[tuple[str, str], ...] = ()
    script: str = ""

    @property
    def variables(self) -> Mapping[str, str]:
        return dict(self.pairs)

    def __bool__(self) -> bool:
        return bool(self.pairs or self.script)

    def to_json(self) -> dict[str, Any]:
        return {"variables": dict(self.pairs), "script": self.script}


@model
class HookResult:
    """What one hook answered.

    `decision` is the hook's own: ``allow``, ``deny``, ``ask``, ``defer`` or None (no
    opinion); a failure the hook's `strict`/`fail_mode` turns into a deny is a
    ``deny`` too. `failed` says the hook did not give a usable answer (crash, timeout,
    unparseable output...). `output` is the parsed JSON object, when there was one."""

    hook: Hook
    exit_code: int | None
    stdout: str
    stderr: str
    timed_out: bool = False
    truncated: bool = False
    decision: str | None = None
    reason: str | None = None
    updated_input: Mapping[str, Any] | None = None
    additional_context: str | None = None
    system_message: str | None = None
    stop: bool = False
    stop_reason: str | None = None
    suppress_output: bool = False
    failed: bool = False
    output: Mapping[str, Any] | None = None
    duration: float = 0.0
    diagnostics: tuple[Diagnostic, ...] = ()
    exports: Exports = Exports()

    def to_json(self) -> dict[str, Any]:
        return {
            "hook": self.hook.name,
            "source": self.hook.source,
            "exitCode": self.exit_code,
            "stdout": self.stdout,
            "stderr": self.stderr,
            "timedOut": self.timed_out,
            "truncated": self.truncated,
            "decision": self.decision,
            "reason": self.reason,
            "updatedInput": None if self.updated_input is None else dict(self.updated_input),
            "additionalContext": self.additional_context,
            "systemMessage": self.system_message,
            "continue": not self.stop,
            "stopReason": self.stop_reason,
            "failed": self.failed,
            "exports": self.exports.to_json(),
            "diagnostics": [d.to_json() for d in self.diagnostics],
        }


@model
class Outcome:
    """Every matching hook's answer to one event, aggregated in declared order.

    `behavior`: ``deny`` when any hook denied (the first deny in declared order gives
    `reason`), else ``ask`` when any asked, else ``allow``. On an observe-only event it
    is always ``allow``. On ``stop``/``subagent_stop`` a deny means "do not stop yet"
    (the reason is fed back to the model); on ``user_prompt_submit`` the prompt is
    dropped. `updated_input` is the last rewrite in declared order (None: the input
    stands); `additional_context` joins every hook's context in order. `stop` True:
    a hook asked the agent to stop entirely (``continue: false``). `exports`: what the
    hooks of a session-start event wrote to ``CLAUDE_ENV_FILE``, for the host to set
    in its later shell commands."""

    event: str
    behavior: Behavior = "allow"
    reason: str | None = None
    updated_input: Mapping[str, Any] | None = None
    additional_context: str | None = None
    system_messages: tuple[str, ...] = ()
    stop: bool = False
    stop_reason: str | None = None
    results: tuple[HookResult, ...] = ()
    diagnostics: tuple[Diagnostic, ...] = ()
    exports: Exports = Exports()

    def to_json(self) -> dict[str, Any]:
        return {
            "event": self.event,
            "behavior": self.behavior,
            "reason": self.reason,
            "updatedInput": None if self.updated_input is None else dict(self.updated_input),
            "additionalContext": self.additional_context,
            "systemMessages": list(self.system_messages),
            "continue": not self.stop,
            "stopReason": self.stop_reason,
            "exports": self.exports.to_json(),
            "results": [r.to_json() for r in self.results],
            "diagnostics": [d.to_json() for d in self.diagnostics],
        }
