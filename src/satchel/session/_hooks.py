"""`SessionHooks`: the hooks one session runs, and the ids their payloads carry.

The environment's hooks, the active skills' own (`satchel.session._skill_hooks`) and
the host's Python callbacks answer through one `HookRunner`, built on first use and
again after the session takes a new environment (`adopt`). The part fires events
(`fire`, ``after_tool_use``, ``PreSkillShellCommand``) and keeps the ``session_id``,
``transcript_path`` and ``prompt_id`` every payload carries.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from satchel.assembly._environment import Environment
from satchel.core.diagnostics import Diagnostic
from satchel.hooks import Outcome
from satchel.hooks._callbacks import HookMatcher
from satchel.hooks._events import event_named
from satchel.runtime.hooks._delegate import ModelHook
from satchel.runtime.hooks._mcp_tool import McpCaller
from satchel.runtime.hooks._payload import PayloadContext, new_id
from satchel.runtime.hooks._runner import HookRunner
from satchel.session._arguments import parse_arguments
from satchel.session._model import ToolResult, Via
from satchel.session._options import SessionOptions
from satchel.session._shell_hook import EVENT as SHELL_EVENT
from satchel.session._shell_hook import shell_payload, shell_refusal
from satchel.session._skill_hooks import SkillHooks
from satchel.skills._model import Skill

if TYPE_CHECKING:
    from satchel.hosts._hooks import HookDialect

__all__ = ["Note", "SessionHooks"]

Note = Callable[[Iterable[Diagnostic]], None]
"""Where a part reports what went wrong (the session's `diagnostics`)."""

_NO_INPUT: Mapping[str, Any] = MappingProxyType({})


class SessionHooks:
    """The session's hooks: `fire` an event, `register_hooks` Python callbacks, give
    the hooks their services, and the payload ids (`session_id`, `transcript_path`,
    `prompt_id`)."""

    def __init__(
        self,
        environment: Environment,
        options: SessionOptions,
        dialect: HookDialect,
        environ: Mapping[str, str],
        note: Note,
    ) -> None:
        self._environment = environment
        self._options = options
        self._dialect = dialect
        self._environ = environ
        self._note = note
        self.skill_hooks = SkillHooks()
        self._runner: HookRunner | None = None
        self._prompt_id: str | None = None
        self._callbacks: list[tuple[str, tuple[HookMatcher, ...]]] = []
        self._services: tuple[McpCaller | None, ModelHook | None] = (None, None)

    def adopt(self, environment: Environment) -> None:
        """Answer with `environment`'s hooks from now on (the runner is built again)."""
        self._environment = environment
        self._runner = None

    # -- ids --------------------------------------------------------------------------

    @property
    def session_id(self) -> str:
        """The id hooks get as ``session_id`` (the option, or one made up under a host
        profile with a payload dialect)."""
        return self._options.session_id

    @property
    def transcript_path(self) -> str:
        """The path hooks get as ``transcript_path``."""
        return self._options.transcript_path

    @property
    def prompt_id(self) -> str | None:
        """The current user prompt's id (hooks' ``prompt_id``); None before the first
        prompt. Firing ``user_prompt_submit`` or calling `new_prompt` makes a new one."""
        return self._prompt_id

    def new_prompt(self, prompt_id: str | None = None) -> str:
        """Start a new user prompt: its id (`prompt_id`, a new uuid when not given)
        goes in every later hook payload that carries ``prompt_id``."""
        self._prompt_id = prompt_id or new_id()
        return self._prompt_id

    def payload_context(self) -> PayloadContext:
        """The values of the hooks' common payload fields now: the model is the
        session's, else the environment's, else the host's default."""
        defaults = self._dialect.defaults
        options = self._options
        return PayloadContext(
            session_id=options.session_id,
            transcript_path=options.transcript_path,
            cwd=str(self._environment.layout.cwd),
            prompt_id=self._prompt_id,
            permission_mode=options.permission_mode or defaults.get("permission_mode"),
            effort=options.effort or defaults.get("effort"),
            model=options.model or self._environment.options.model or defaults.get("model"),
        )

    # -- what the host adds -----------------------------------------------------------

    def register_hooks(self, event: str, *matchers: HookMatcher) -> None:
        """Add Python hooks (`satchel.hooks.HookMatcher`) for `event`: they answer with
        the environment's hooks, after them in declared order (docs/hooks.md)."""
        self._callbacks.append((event, matchers))
        if self._runner is not None:
            self._runner.register(event, *matchers)

    def hook_services(
        self, *, mcp: McpCaller | None = None, model_hook: ModelHook | None = None
    ) -> None:
        """What the session's hooks may use beyond processes: the running MCP supervisor
        ``mcp_tool`` hooks call through (a `BlockingSupervisor`) and the host's callback
        for ``prompt`` and ``agent`` hooks (docs/hooks.md, "Handler types")."""
        self._services = (mcp, model_hook)
        if self._runner is not None:
            self._runner.mcp, self._runner.model_hook = mcp, model_hook

    # -- firing -----------------------------------------------------------------------

    @property
    def on(self) -> bool:
        """Hooks run: the `hooks` option is on and the environment, an active skill or
        the host has some."""
        return self._options.hooks and bool(
            self._environment.hooks.hooks or self.skill_hooks or self._callbacks
        )

    def fire(self, event: str, payload: Mapping[str, Any]) -> Outcome | None:
        """Fire `event` (satchel's name or a host's) to the environment's hooks with
        `payload` (the event's own fields; the common ones come from
        `payload_context`) when the session's `hooks` option is on; None when no hook
        could run. ``user_prompt_submit`` starts a new prompt (`new_prompt`) first.
        What went wrong goes to `diagnostics`."""
        if event_named(event) == "user_prompt_submit":
            self.new_prompt()
        if not self.on:
            return None
        outcome = self._hook_runner().run(event, payload)
        self._note(outcome.diagnostics)
        return outcome

    def before_tool_use(
        self, name: str, given: Mapping[str, Any], tool_use_id: str | None
    ) -> Outcome | None:
        """The ``before_tool_use`` hooks' answer for tool `name` with `given`; None when
        no hook could run."""
        if not self.on:
            return None
        fields = {} if tool_use_id is None else {"tool_use_id": tool_use_id}
        return self._ran(self._hook_runner().before_tool_use(name, given, **fields))

    def after_tool_use(
        self,
        name: str,
        tool_input: Mapping[str, Any] | str | None,
        response: Any,
        *,
        tool_use_id: str | None = None,
    ) -> Outcome | None:
        """Fire ``after_tool_use`` (Claude Code's ``PostToolUse``) for a call that ran
        with `tool_input` and gave `response`; None when no hook could run. A ``deny``
        outcome is a hook's ``decision: block``: its `reason` replaces the result for
        the model; `additional_context` goes with it (docs/hooks.md)."""
        if not self.on:
            return None
        arguments = parse_arguments(tool_input)
        given = _NO_INPUT if isinstance(arguments, ToolResult) else arguments
        payload = {"tool_name": name, "tool_input": dict(given), "tool_response": response}
        if tool_use_id is not None:
            payload["tool_use_id"] = tool_use_id
        return self._ran(self._hook_runner().run("after_tool_use", payload))

    def shell_gate(self, skill: Skill, command: str, via: Via) -> str | None:
        """Fire ``PreSkillShellCommand`` for one command: why it may not run, or None;
        the organisation's policy may refuse it first (docs/policy.md)."""
        refused = self._environment.policy.check_shell()
        if refused is not None:
            return refused.message
        if not self.on:
            return None
        outcome = self._ran(
            self._hook_runner().run(SHELL_EVENT, shell_payload(skill, command, via))
        )
        return shell_refusal(outcome)

    def _ran(self, outcome: Outcome) -> Outcome:
        self.skill_hooks.ran(outcome)  # a skill's ``once`` handlers go
        self._note(outcome.diagnostics)
        return outcome

    def _hook_runner(self) -> HookRunner:
        if self._runner is None:
            self._runner = HookRunner(
                self._environment,
                timeout=self._options.hook_timeout,
                environ=self._environ,
                session_id=self._options.session_id,
                transcript_path=self._options.transcript_path,
                dialect=self._dialect,
                context=self.payload_context,
                extra=self.skill_hooks.for_event,
                mcp=self._services[0],
                model_hook=self._services[1],
            )
            for event, matchers in self._callbacks:
                self._runner.register(event, *matchers)
        return self._runner
