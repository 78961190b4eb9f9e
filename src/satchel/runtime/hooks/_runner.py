"""`HookRunner`: fire an event at every matching hook, in parallel, and aggregate.

Each hook runs through `satchel.foundations.process.run_process` (its own process group, capped
output, a timeout that kills the group, stdin written alongside the reads so a hook
that never reads it cannot deadlock, a grandchild holding the pipes drained for a
moment and then killed). The event goes to the hook as JSON on stdin with Claude
Code's field names, its common fields (``session_id``, ``prompt_id``...) as the host
profile's payload dialect has them (`Host.hooks`, `satchel.runtime.hooks._payload`);
the hook's answer is read by the rule that dialect names (`HookDialect.answers`). The
environment is the scrubbed base plus:

- ``<CLIENT>_HOOK_EVENT``: satchel's event name (``SATCHEL_HOOK_EVENT``, or mermaid's
  ``MERMAID_HOOK_EVENT`` for client ``mermaid``);
- ``PLUGIN_ROOT`` and ``PLUGIN_DATA`` for a plugin's hooks (the data directory is
  created first), and the variables the hook format's host definition names
  (`HookVariables`: Kimi's ``KIMI_PLUGIN_ROOT``; Claude Code's
  ``CLAUDE_PLUGIN_ROOT``, ``CLAUDE_PLUGIN_DATA`` and ``CLAUDE_PROJECT_DIR``), and
  those the profile's host sets from its session;
- ``CLAUDE_PLUGIN_OPTION_<KEY>`` for each userConfig option of the hook's plugin with a
  value; ``${user_config.KEY}`` is filled in an exec-form command and a hook naming an
  option with no value does not run (`satchel.runtime.hooks._options`).

A shell-form command runs as ``/bin/sh -c COMMAND`` (as Claude Code, Vibe and Kimi do);
exec form (``args``) runs the argv with ``${CLAUDE_PLUGIN_ROOT}``-style placeholders
substituted in each element. Plugin hooks run in the plugin root (Vibe), other
hooks in the layout's working directory. Identical handlers (same command and args)
of one source run once: a plugin is one source, every settings-like file together
(satchel's ``hooks.toml``, Claude Code's ``settings.json``) another; of two identical
handlers the stricter is the one kept (``strict`` or Kimi's ``fail_mode = "closed"``),
so a policy that must fail closed still does.

A hook's declared timeout is cut to the runner's `max_timeout` (600 s, Claude Code's
default for a command hook), with ``hook.timeout.capped``: no file can block a tool
call for ever. Hooks of a session-start event get ``CLAUDE_ENV_FILE``
(`satchel.runtime.hooks._envfile`); what they export comes back as `Outcome.exports`.

Nothing runs for an environment loaded from an untrusted project's files (those
hooks are `skipped`), nor in declarative-only mode. The organisation's policy
(`Environment.policy`, docs/policy.md) is asked of every hook as it would run, whatever
added it (`extra`, `register`): a refused one does not run and its result holds only
the ``policy.denied`` diagnostic, no opinion.

Handlers that are not commands run in-process, each on its worker thread and with the
same timeout and cap: ``http`` (`satchel.runtime.hooks._http`), ``mcp_tool``
(`satchel.runtime.hooks._mcp_tool`, through the `mcp` supervisor), ``prompt`` and
``agent`` (handed to `model_hook`, `satchel.runtime.hooks._delegate`), and the
callbacks registered in code with `HookMatcher` (`register`,
`satchel.runtime.hooks._python`), which come after the environment's hooks in declared
order and run in declarative-only mode too (they are the host's own code).
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from satchel.assembly._policed import hook_refusal
from satchel.core.diagnostics import Diagnostic, diagnostic
from satchel.foundations.process import (
    MAX_OUTPUT,
    ProcessResult,
    base_env,
    overlay_env,
    run_process,
)
from satchel.hooks._callbacks import HookMatcher, callback_hooks
from satchel.hooks._events import BLOCKING as CLAUDE_BLOCKING
from satchel.hooks._events import CONDITION_EVENTS, MATCH_FIELD, event_named, host_name
from satchel.hooks._model import Hook, HookResult, Outcome
from satchel.hooks._variables import host_variables
from satchel.hosts._dialects import hook_dialect
from satchel.plugins._data import ensure_data_dir
from satchel.plugins._model import Plugin
from satchel.runtime.hooks._aggregate import aggregate
from satchel.runtime.hooks._answers import READERS
from satchel.runtime.hooks._delegate import ModelHook, run_delegated
from satchel.runtime.hooks._envfile import ENV_FILE_EVENTS, env_file, read_env_file
from satchel.runtime.hooks._http import run_http
from satchel.runtime.hooks._mcp_tool import McpCaller, run_mcp_tool
from satchel.runtime.hooks._options import (
    fill_argv,
    hook_options,
    option_problem,
    option_variables,
)
from satchel.runtime.hooks._output import read_result
from satchel.runtime.hooks._payload import (
    Dialect,
    PayloadContext,
    dialect_for,
    session_variables,
)
from satchel.runtime.hooks._python import run_python

if TYPE_CHECKING:
    from satchel.assembly._environment import Environment

__all__ = [
    "DEFAULT_TIMEOUT",
    "DEFAULT_TIMEOUTS",
    "MAX_TIMEOUT",
    "SHELL",
    "HookRunner",
]

DEFAULT_TIMEOUT = 60.0  # a handler type Claude Code gives no default (Python callbacks)
MAX_TIMEOUT = 600.0  # Claude Code's default for a command hook
# Claude Code's default seconds for a hook that sets none, by handler type (hooks
# reference, "timeout": 600 for command, 30 for prompt, 60 for agent; an http hook waits
# 10 minutes; an mcp_tool hook, like a command, 600).
DEFAULT_TIMEOUTS: Mapping[str, float] = MappingProxyType(
    {"command": 600.0, "http": 600.0, "mcp_tool": 600.0, "prompt": 30.0, "agent": 60.0}
)
SHELL = "/bin/sh"


class HookRunner:
    """Runs an environment's hooks. Cheap to build; holds no process between calls.

    * `timeout`: seconds for a hook that sets none [None: Claude Code's default for its
      handler type, `DEFAULT_TIMEOUTS`: 600 for command, http and mcp_tool, 30 for
      prompt, 60 for agent and Python callbacks].
    * `max_timeout`: the most seconds any hook may run, whatever it declares [600, or
      `timeout` when that is more]; a declared timeout above it is cut, with
      ``hook.timeout.capped`` (and a default is never more).
    * `max_output`: bytes kept of each of a hook's streams [1 MiB]; cut output counts
      as unparseable.
    * `environ`: the environment the scrubbed base is taken from [os.environ].
    * `session_id`, `transcript_path`: the common payload fields, when no `context`.
    * `dialect`: which common fields each event's payload carries
      and how its answers are read (`satchel.hosts.HookDialect`) [the environment's
      host profile's, `Host.hooks`].
    * `context`: asked at each hook's run for the common fields' values (a session's
      id, transcript, current prompt id, permission mode, effort) [session_id,
      transcript_path, the layout's cwd and the dialect's defaults].
    * `plugin_cwd`: ``root`` (Vibe: plugin hooks run in the plugin root) or
      ``project`` (in the layout's working directory, as Claude Code runs them).
    * `extra`: more hooks of an event, asked at each run and declared after the
      environment's (a session's active skills' own hooks).
    * `mcp`: the running MCP supervisor ``mcp_tool`` hooks call through (a
      `BlockingSupervisor`) [None: they are skipped, ``hook.mcp_tool.unavailable``].
    * `model_hook`: the host's callback for ``prompt`` and ``agent`` hooks [None: they
      are skipped, ``hook.model.unavailable``].
    * `hooks`: callbacks in code, event -> `HookMatcher` list (as `register` adds)."""

    def __init__(
        self,
        environment: Environment,
        *,
        timeout: float | None = None,
        max_timeout: float | None = None,
        max_output: int = MAX_OUTPUT,
        environ: Mapping[str, str] | None = None,
        session_id: str = "",
        transcript_path: str = "",
        plugin_cwd: str = "root",
        dialect: Dialect | None = None,
        context: Callable[[], PayloadContext] | None = None,
        extra: Callable[[str], Sequence[Hook]] | None = None,
        mcp: McpCaller | None = None,
        model_hook: ModelHook | None = None,
        hooks: Mapping[str, Sequence[HookMatcher]] | None = None,
    ) -> None:
        if plugin_cwd not in ("root", "project"):
            raise ValueError("plugin_cwd must be 'root' or 'project'")
        self.environment = environment
        ceiling = MAX_TIMEOUT if timeout is None else max(MAX_TIMEOUT, timeout)
        self.max_timeout = ceiling if max_timeout is None else max_timeout
        if (timeout is not None and timeout <= 0) or self.max_timeout <= 0:
            raise ValueError("timeout and max_timeout must be positive")
        self.timeout = None if timeout is None else min(timeout, self.max_timeout)
        self.max_output = max_output
        self.environ = os.environ if environ is None else environ
        self.session_id = session_id
        self.transcript_path = transcript_path
        self.plugin_cwd = plugin_cwd
        host = environment.host
        own = dialect_for(None) if host is None else host.hooks
        self.dialect = own if dialect is None else dialect
        self.context = context
        self.extra = extra
        self.mcp = mcp
        self.model_hook = model_hook
        self.callbacks: tuple[Hook, ...] = ()
        self.callback_diagnostics: tuple[Diagnostic, ...] = ()
        for event, matchers in (hooks or {}).items():
            self.register(event, *matchers)

    def register(self, event: str, *matchers: HookMatcher) -> None:
        """Add callbacks in code for `event` (satchel's name or Claude Code's): they run
        after every hook registered before them, in order. A matcher that does not
        compile, or that the organisation's policy refuses (``policy.denied``; a
        callback is a managed hook), is reported in `callback_diagnostics` and left out."""
        hooks, diags = callback_hooks({event: matchers})
        refused = [hook_refusal(h, self.environment.policy) for h in hooks]
        kept = (h for h, why in zip(hooks, refused, strict=True) if why is None)
        self.callbacks = (*self.callbacks, *kept)
        self.callback_diagnostics = (
            *self.callback_diagnostics,
            *diags,
            *(why for why in refused if why is not None),
        )

    @property
    def allowed_urls(self) -> tuple[str, ...]:
        """The URL patterns http hooks may post to: the ``allowed_http_hook_urls`` load
        option's, then Claude Code settings' ``allowedHttpHookUrls``."""
        env = self.environment
        return (*env.options.allowed_http_hook_urls, *env.hooks.http_urls)

    async def dispatch(self, event: str, payload: Mapping[str, Any] | None = None) -> Outcome:
        """Fire `event` (satchel's name, or Claude Code's or Vibe's) with `payload`
        (the event's own fields: ``tool_name``, ``tool_input``, ``prompt``...)."""
        import asyncio  # only hosts that await hooks pay for importing it

        return await asyncio.to_thread(self.run, event, payload)

    def run(self, event: str, payload: Mapping[str, Any] | None = None) -> Outcome:
        """`dispatch`, waiting: every matching hook in parallel, then the aggregate."""
        name = event_named(event)
        fields = dict(payload or {})
        hooks = self._selected(name, fields)
        blocking = self.dialect.blocking or CLAUDE_BLOCKING
        if not hooks:
            return aggregate(name, (), blocking=blocking)
        if name not in ENV_FILE_EVENTS:
            return aggregate(name, self._run_all(hooks, name, fields, ()), blocking=blocking)
        directory = Path(tempfile.mkdtemp(prefix="satchel-env-"))
        try:
            files = [env_file(directory, name, i) for i in range(len(hooks))]
            results = self._run_all(hooks, name, fields, files)
            project = self.environment.layout.project
            exported = [_exported(r, f, project) for r, f in zip(results, files, strict=True)]
            return aggregate(name, exported, blocking=blocking)
        finally:
            shutil.rmtree(directory, ignore_errors=True)

    def _run_all(
        self, hooks: Sequence[Hook], event: str, fields: Mapping[str, Any], files: Sequence[Path]
    ) -> list[HookResult]:
        """Every hook at once, each with its ``CLAUDE_ENV_FILE`` when `files` are given."""
        paths: list[Path | None] = list(files) if files else [None] * len(hooks)
        with ThreadPoolExecutor(max_workers=len(hooks)) as pool:
            runs = pool.map(lambda h, p: self._run_one(h, p, event, fields), hooks, paths)
            return list(runs)

    def before_tool_use(
        self, tool_name: str, tool_input: Mapping[str, Any], **fields: Any
    ) -> Outcome:
        """Fire ``before_tool_use`` for one call: the gate a host asks before a tool runs.
        `fields` adds payload fields (``tool_use_id``, ``permission_mode``...)."""
        payload = {"tool_name": tool_name, "tool_input": dict(tool_input), **fields}
        return self.run("before_tool_use", payload)

    def matching(self, event: str, payload: Mapping[str, Any] | None = None) -> tuple[Hook, ...]:
        """The hooks `event` with `payload` would run, in declared order, deduplicated."""
        return self._selected(event_named(event), dict(payload or {}))

    def _selected(self, event: str, payload: Mapping[str, Any]) -> tuple[Hook, ...]:
        env = self.environment
        own: Iterable[Hook] = env.hooks.for_event(event) if env.options.executable else ()
        code = [h for h in self.callbacks if h.event == event]
        field = MATCH_FIELD.get(event)
        value = payload.get(field) if field is not None else None
        chosen: dict[tuple[Any, ...], Hook] = {}
        more = () if self.extra is None else tuple(self.extra(event))
        for hook in (*own, *more, *code):
            if field is not None and not hook.matcher.matches(_text(value)):
                continue
            if not self._condition_holds(hook, event, payload):
                continue
            key = _identity(hook)
            kept = chosen.get(key)
            if kept is None or _strictness(hook) > _strictness(kept):
                chosen[key] = hook  # a stricter duplicate takes the first one's place
        return tuple(chosen.values())

    def _condition_holds(self, hook: Hook, event: str, payload: Mapping[str, Any]) -> bool:
        if hook.condition is None or event not in CONDITION_EVENTS:
            return True
        tool_input = payload.get("tool_input")
        lay = self.environment.layout
        return hook.condition.fires(
            _text(payload.get("tool_name")) or "",
            tool_input if isinstance(tool_input, dict) else None,
            cwd=lay.cwd,
            home=lay.home,
        )

    def _run_one(
        self, hook: Hook, env_path: Path | None, event: str, fields: Mapping[str, Any]
    ) -> HookResult:
        denied = hook_refusal(hook, self.environment.policy)
        if denied is not None:  # the policy, asked again as the hook would run
            return HookResult(hook, None, "", "", diagnostics=(denied,))
        lay = self.environment.layout
        payload = self.dialect.payload(_event_name(hook, event), self._context(), fields)
        if hook.spec.type != "command":
            return self._run_other(hook, event, payload)
        plugin = self._plugin(hook)
        options = hook_options(lay, plugin)
        stopped = option_problem(hook, options)
        if stopped is not None:
            run = ProcessResult(_argv(hook, {}), None, "", "")
            return replace(read_result(hook, event, run), diagnostics=(stopped,))
        try:
            env, refused = self._env(hook, event, env_path, option_variables(plugin, options))
        except OSError as e:
            reason = f"its plugin data directory cannot be made ({e})"
            problem = diagnostic("exec.start", f"cannot start {hook.name!r}: {reason}")
            run = ProcessResult(_argv(hook, {}), None, "", "", diagnostics=(problem,))
            return read_result(hook, event, run)
        timeout, capped = self._timeout(hook)
        run = run_process(
            fill_argv(_argv(hook, env), options),
            cwd=self._cwd(hook),
            env=env,
            stdin=json.dumps(payload, ensure_ascii=False, default=str),
            timeout=timeout,
            max_output=self.max_output,
        )
        reader = READERS.get(self.dialect.answers)  # Codex's and Gemini CLI's own rules
        if reader is None:
            result = read_result(hook, event, run)
        else:
            result = reader(hook, event, run, fields)
        notes = (*refused, *capped)
        if notes:
            return replace(result, diagnostics=(*notes, *result.diagnostics))
        return result

    def _context(self) -> PayloadContext:
        """The common fields' values now: the `context` callback's, else the runner's
        (the model the environment was loaded for, else the host's default)."""
        cwd = str(self.environment.layout.cwd)
        if self.context is None:
            known = self.dialect.defaults
            return PayloadContext(
                self.session_id,
                self.transcript_path,
                cwd,
                permission_mode=known.get("permission_mode"),
                effort=known.get("effort"),
                model=self.environment.options.model or known.get("model"),
            )
        given = self.context()
        return given if given.cwd else replace(given, cwd=cwd)

    def _run_other(self, hook: Hook, event: str, payload: Mapping[str, Any]) -> HookResult:
        """An http, mcp_tool, prompt, agent or python handler, in this thread."""
        timeout, capped = self._timeout(hook)
        kind = hook.spec.type
        if kind == "http":
            result = run_http(
                hook,
                event,
                payload,
                timeout=timeout,
                allowed=self.allowed_urls,
                environ=self.environ,
                env_policy=self.environment.hooks.http_env_vars,
            )
        elif kind == "mcp_tool":
            result = run_mcp_tool(hook, event, payload, self.mcp, timeout)
        elif kind == "python":
            result = run_python(hook, event, payload, timeout)
        else:
            result = run_delegated(hook, event, payload, self.model_hook, timeout)
        if capped:
            return replace(result, diagnostics=(*capped, *result.diagnostics))
        return result

    def _timeout(self, hook: Hook) -> tuple[float, tuple[Diagnostic, ...]]:
        """The seconds `hook` may run, and the note that its declared timeout was cut."""
        declared = hook.spec.timeout
        if declared is None or declared <= self.max_timeout:
            return declared or self.default_timeout(hook.spec.type), ()
        message = (
            f"hook {hook.name!r} declares a timeout of {declared:g} s; it is cut to "
            f"{self.max_timeout:g} s, the runner's max_timeout"
        )
        hint = "HookRunner(max_timeout=...) or `satchel hooks run --max-timeout` raises the cap"
        return self.max_timeout, (
            diagnostic("hook.timeout.capped", message, hook.spec.path, hint=hint),
        )

    def default_timeout(self, kind: str) -> float:
        """The seconds a hook of handler type `kind` that sets no timeout may run."""
        if self.timeout is not None:
            return self.timeout
        return min(DEFAULT_TIMEOUTS.get(kind, DEFAULT_TIMEOUT), self.max_timeout)

    def _env(
        self, hook: Hook, event: str, env_path: Path | None, options: Mapping[str, str]
    ) -> tuple[dict[str, str], tuple[Diagnostic, ...]]:
        if hook.data_dir is not None and hook.root is not None:
            ensure_data_dir(hook.data_dir)
        lay = self.environment.layout
        session = session_variables(self.dialect, self._context(), lay.home)
        fixed = {**options, **host_variables(hook, lay, event, env_path), **session}
        return overlay_env(base_env(self.environ), {}, fixed=fixed)

    def _plugin(self, hook: Hook) -> Plugin | None:
        """The plugin `hook` comes from, when it is one of the environment's."""
        name = hook.origin.plugin
        return None if name is None else self.environment.plugins.plugins.get(name)

    def _cwd(self, hook: Hook) -> Path:
        if hook.root is not None and self.plugin_cwd == "root":
            return hook.root
        return self.environment.layout.cwd


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _strictness(hook: Hook) -> int:
    """1 for a handler whose failure denies, else 0."""
    return int(hook.spec.strict or hook.spec.fail_mode == "closed")


def _exported(result: HookResult, path: Path, project: Path) -> HookResult:
    exports, problems = read_env_file(path, result.hook, project)
    if not exports and not problems:
        return result
    return replace(result, exports=exports, diagnostics=(*result.diagnostics, *problems))


def _identity(hook: Hook) -> tuple[Any, ...]:
    """What makes two handlers the same: a command's text and args (a URL, a server
    tool, a prompt) within its source; a callback is only ever itself."""
    if hook.spec.type == "python":
        return ("code", id(hook.spec.params["callback"]))
    return (_scope(hook), hook.spec.type, hook.spec.command, hook.spec.args)


def _scope(hook: Hook) -> str:
    """Where duplicates are looked for: a plugin alone, every settings-like file together."""
    return hook.source if hook.source.startswith("plugin:") else "settings"


_PLACEHOLDERS = (
    "CLAUDE_PLUGIN_ROOT",
    "CLAUDE_PLUGIN_DATA",
    "CLAUDE_PROJECT_DIR",
    "PLUGIN_ROOT",
    "PLUGIN_DATA",
)


def _argv(hook: Hook, env: Mapping[str, str]) -> tuple[str, ...]:
    """Shell form: ``/bin/sh -c COMMAND``. Exec form: the command and `args` with
    ``${CLAUDE_PLUGIN_ROOT}``, ``${PLUGIN_ROOT}``... substituted in each element."""
    spec = hook.spec
    if spec.args is None:
        return (SHELL, "-c", spec.command)
    return tuple(_substitute(part, env) for part in (spec.command, *spec.args))


def _substitute(text: str, env: Mapping[str, str]) -> str:
    for name in _PLACEHOLDERS:
        if name in env:
            text = text.replace("${" + name + "}", env[name])
    return text


def _event_name(hook: Hook, event: str) -> str:
    """The name `hook` is told it fires for: its own event in a format whose hooks are
    told the event they were declared for (`HookDialect.tells_declared`: Cursor's,
    several of whose events stand for one of satchel's), else the name its dialect
    uses."""
    if hook_dialect(hook.spec.format).tells_declared:
        return hook.spec.event
    return host_name(event, hook.spec.format)
