"""`Session`: one conversation's skills runtime, whatever agent loop the host runs.

A session composes its parts, one object each: `Activation` (the skills offered and
active), `Toolbox` (the model's tools), `Gate` (the host's other tool calls),
`SessionHooks` (the hooks it fires), `SystemPrompt` (the context segments) and
`PluginRuntime` (the plugins' monitors and ``bin/``). Its own members are the calls a
host loop makes (docs/runtime.md, "What a host loop calls").
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, Unpack

import satchel.session._expand as expand
import satchel.session._fire as fire
from satchel.assembly._environment import Environment
from satchel.core.diagnostics import Diagnostic
from satchel.foundations.tokens import Counter, approx_tokens
from satchel.hosts._dialects import PLAIN
from satchel.plugins.components._styles import select_output_style
from satchel.session._activation import Activation, OnEvent
from satchel.session._before import Decision
from satchel.session._fork import Fork, Forked
from satchel.session._hooks import SessionHooks
from satchel.session._model import ActiveSkill, ContextSegment, SkillEvent, Tool, ToolResult
from satchel.session._options import SessionOptions, SessionOverrides
from satchel.session._plugin_runtime import PluginRuntime
from satchel.session._profile import find_host, session_options, trusted_scopes
from satchel.session._run import Approve, Runner
from satchel.session._system_prompt import SystemPrompt
from satchel.session._tool_gate import Gate
from satchel.session._toolbox import Toolbox
from satchel.skills._model import Skill
from satchel.trust._changes import Changes

if TYPE_CHECKING:
    from satchel.hosts._model import Host

__all__ = ["Session"]


class Session:
    """The per-conversation half of progressive disclosure.

    It gives the model its tools (`tools()`, `call()`), gates the host's other tools
    (`before_tool_use()`), expands ``/skill`` prompts (`expand()`) and says what goes
    in the system prompt (`context()`); its parts hold the rest (`activation`,
    `toolbox`, `gate`, `hooks`, `system_prompt`, `plugins`). Settings are
    `SessionOptions` keywords; `on_event` gets every activation and deactivation,
    `approve(command, skill)` may refuse each shell interpolation, and `environ` is
    the environment scripts and commands start from (default: this process's).
    `host` is the profile whose choices the session follows where no option is given
    (``$0`` or ``$1`` first: `satchel.hosts`) [the one `environment` was loaded with].
    `fork` runs a ``context: fork`` skill as the host's subagent (`on_fork`).
    """

    def __init__(
        self,
        environment: Environment,
        *,
        on_event: OnEvent | None = None,
        approve: Approve | None = None,
        environ: Mapping[str, str] | None = None,
        counter: Counter = approx_tokens,
        host: str | Host | None = None,
        fork: Fork | None = None,
        **options: Unpack[SessionOverrides],
    ) -> None:
        profile, said = find_host(environment, host)
        settings, unknown = session_options(environment, profile, options)
        select_output_style(environment.output_styles, settings.output_style)  # or raises
        self._diagnostics: dict[Diagnostic, None] = dict.fromkeys((*said, *unknown))
        self._on_event = on_event
        inherited = dict(os.environ if environ is None else environ)
        dialect = PLAIN if profile is None else profile.hooks
        self.hooks = SessionHooks(environment, settings, dialect, inherited, self._note)
        runner = self._runner(environment, settings, inherited, approve)
        self.activation = Activation(
            environment,
            settings,
            runner,
            counter,
            self.hooks,
            self._note,
            self._event,
            fork,
            host=profile,
        )
        self.toolbox = Toolbox(self.activation)
        self.gate = Gate(self.activation, self.hooks, self.toolbox)
        self.system_prompt = SystemPrompt(self.activation, self.hooks, self.toolbox, self._note)
        self.plugins = PluginRuntime(self.activation, self._note)

    def _runner(
        self,
        environment: Environment,
        settings: SessionOptions,
        inherited: dict[str, str],
        approve: Approve | None,
    ) -> Runner:
        """What runs the skills' commands and scripts: its shell commands pass the
        hooks (`SessionHooks.shell_gate`) and the trust pins (`_held_line`)."""
        layout = environment.layout
        scopes = trusted_scopes(environment, settings)
        gate, held = self.hooks.shell_gate, self._held_line
        return Runner(settings, inherited, layout.project, layout.cwd, scopes, approve, gate, held)

    # -- what the session holds -------------------------------------------------------

    @property
    def environment(self) -> Environment:
        """The environment in force (`reload` and `adopt` take a new one)."""
        return self.activation.environment

    @property
    def skills(self) -> Mapping[str, Skill]:
        """The skills the session offers (`Activation.skills`)."""
        return self.activation.skills

    @property
    def diagnostics(self) -> tuple[Diagnostic, ...]:
        """What went wrong at runtime, each once: what was wrong in the user's
        config.toml on the way to the profile the session names (when `load` did not
        read with it), a model the host does not know
        (``host.model-unknown``, when the session names it: `load` reports its own),
        refused commands, unreadable history, unparseable
        allowed-tools rules, skills the index left out (once `context()` has been
        built)."""
        return tuple(self._diagnostics)

    def note(self, *problems: Diagnostic) -> None:
        """Add what a host built on the session found wrong to `diagnostics` (each once),
        so that one list says everything (a framework integration's own findings)."""
        self._note(problems)

    # -- the host loop ----------------------------------------------------------------

    def tools(self, existing: Iterable[str | Mapping[str, Any] | Tool] = ()) -> tuple[Tool, ...]:
        """The tools for the model (`Toolbox.tools`)."""
        return self.toolbox.tools(existing)

    def call(self, name: str, arguments: str | Mapping[str, Any] | None = None) -> ToolResult:
        """Run one of the session's tools for the model (`Toolbox.call`); never raises
        for what the model sent."""
        return self.toolbox.call(name, arguments)

    def context(
        self, existing: Iterable[str | ContextSegment] = (), *, query: str | None = None
    ) -> tuple[ContextSegment, ...]:
        """The segments for the system prompt (`SystemPrompt.context`)."""
        return self.system_prompt.context(existing, query=query)

    def expand(self, prompt: str) -> str:
        """Expand an explicit invocation: ``/skill <name> <request>``, or ``/<name>
        <request>`` for a command or a skill (`slash_order` decides which first). A
        skill's body goes inline in an ``<agent-skill>`` wrapper and the skill becomes
        active; a command's body is expanded with the arguments. A built-in command
        or anything unmatched comes back unchanged, as does a prompt whose file
        cannot be read (`diagnostics` says why). Raises `MaxActiveReached` when the
        skill cannot be activated."""
        text, problems = expand.expand(self.activation, self.hooks, prompt)
        self._note(problems)
        return text

    def activate(self, name: str, arguments: str = "") -> ActiveSkill | Forked:
        """Activate a skill for this run (`Activation.activate`)."""
        return self.activation.activate(name, arguments)

    def touch(self, path: str | os.PathLike[str]) -> tuple[Skill, ...]:
        """Tell the session the agent read or edited `path` (relative to the working
        directory). Conditional skills whose ``paths`` match it and skills roots in
        the subdirectories above it join the session (`satchel.session._conditional`);
        returns the skills that did, and the tools are rebuilt to name them."""
        added = self.activation.touch(path)
        self.system_prompt.attach(path)
        if added:
            self.toolbox.rebuild()
        return added

    def before_tool_use(
        self,
        name: str,
        tool_input: Mapping[str, Any] | str | None = None,
        *,
        tool_use_id: str | None = None,
    ) -> Decision:
        """May the host run tool `name` with `tool_input` now (`Gate.before_tool_use`)?"""
        return self.gate.before_tool_use(name, tool_input, tool_use_id=tool_use_id)

    def reload(self) -> Changes:
        """Read the disk again (`Environment.reload`) and take the new environment,
        unless a ``config_change`` hook of the one in force blocks it (then nothing
        changes and `diagnostics` says why). What changed; empty when nothing did or
        the change was blocked. Monitors started with `start_monitors` follow the new
        environment (`MonitorRunner.reload`): those that went away or changed stop,
        unchanged ones keep running, new session-start ones start."""
        fresh, changes = self.environment.reload()
        if not changes:
            return changes
        fired = (self.hooks.fire("config_change", p) for p in fire.config_changes(changes))
        blocked = fire.blocked_reload([o for o in fired if o])
        if blocked is not None:
            self._note((blocked,))
            return Changes()
        self.adopt(fresh)
        return changes

    def adopt(self, environment: Environment) -> None:
        """Take `environment` as the session's from now on, as `reload` takes the one it
        read (no ``config_change`` fires): the hooks, the main agent, the monitors and
        the conditional skills touched so far follow it; active skills stay active."""
        self.hooks.adopt(environment)
        self.activation.adopt(environment)
        self.plugins.adopt(environment)

    def on_fork(self, fork: Fork | None) -> None:
        """Register the callback that runs ``context: fork`` skills
        (`Activation.on_fork`)."""
        self.activation.on_fork(fork)

    # -- what the parts report --------------------------------------------------------

    def _event(self, event: SkillEvent) -> None:
        if event.type == "skills:activate":
            self.plugins.arm(event.name)  # its ``on-skill-invoke`` monitors
        if self._on_event is not None:
            self._on_event(event)

    def _note(self, problems: Iterable[Diagnostic]) -> None:
        self._diagnostics.update(dict.fromkeys(problems))

    def _held_line(self, skill: Skill, number: int, command: str) -> str | None:
        """Why a project skill's `` !`cmd` `` line is held back since `satchel trust`,
        by the environment in force (`Environment.held_line`)."""
        return self.environment.held_line(skill, number, command)
