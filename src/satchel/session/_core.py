"""`Session`: one conversation's skills runtime, whatever agent loop the host runs."""

from __future__ import annotations

import difflib
import os
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, TypeVar, Unpack

import satchel.session._content as content
import satchel.session._discovery as discovery
import satchel.session._expand as expand
import satchel.session._fire as fire
import satchel.session._gate as gate
import satchel.session._replay as replay
import satchel.session._shell_path as bin_path
import satchel.session._substitute as substitute
from satchel._changes import Changes
from satchel._environment import Environment
from satchel._instructions import InstructionFile, applies_to
from satchel._render import model_visible, offered
from satchel._text import flag
from satchel.agents._model import AgentType
from satchel.commands._arguments import Filler
from satchel.diagnostics import Diagnostic, diagnostic
from satchel.errors import (
    Collision,
    MaxActiveReached,
    Refused,
    SkillsOff,
    ToolNotAllowed,
    UnknownSkill,
)
from satchel.hooks import Outcome
from satchel.hooks._callbacks import HookMatcher
from satchel.hooks._events import event_named
from satchel.layout import PROJECT
from satchel.permissions import RuleSet, parse_rules
from satchel.plugins.components._styles import select_output_style
from satchel.precedence import fold_name
from satchel.resources import quote
from satchel.runtime.hooks._delegate import ModelHook
from satchel.runtime.hooks._mcp_tool import McpCaller
from satchel.runtime.hooks._payload import (
    PLAIN,
    PayloadContext,
    new_id,
    transcript_file,
)
from satchel.runtime.hooks._runner import HookRunner
from satchel.runtime.monitors._runner import MonitorRunner, OnMonitorEvent
from satchel.session._before import Decision, decide
from satchel.session._conditional import Conditional
from satchel.session._fork import (
    Fork,
    Forked,
    ForkRequest,
    agent_of,
    is_fork,
    result_block,
    run_fork,
    unavailable,
)
from satchel.session._model import (
    ActiveSkill,
    ContextSegment,
    Shape,
    SkillEvent,
    Tool,
    ToolReceipt,
    ToolResult,
    Via,
)
from satchel.session._options import ALL_TOOLS, SessionOptions, SessionOverrides
from satchel.session._run import Approve, Runner
from satchel.session._shell_hook import EVENT as SHELL_EVENT
from satchel.session._shell_hook import claude_disables_shell, shell_payload, shell_refusal
from satchel.session._skill_hooks import SkillHooks, read_skill_hooks
from satchel.session._tools import build_tools, parse_arguments
from satchel.skills._model import Skill
from satchel.tokens import Counter, approx_tokens

if TYPE_CHECKING:
    from satchel.hosts._model import Host

__all__ = ["Session"]

OnEvent = Callable[[SkillEvent], None]
_T = TypeVar("_T")
_NO_INPUT: Mapping[str, Any] = MappingProxyType({})


class Session:
    """The per-conversation half of progressive disclosure.

    It holds the active skills, gives the model its tools (`tools()`, `call()`), gates
    the host's other tools by the active skills' `allowed-tools` (`check_tool()`),
    rebuilds itself from a transcript (`resume()`), expands ``/skill`` prompts
    (`expand()`) and says what goes in the system prompt (`context()`). Settings are
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
        self.environment = environment
        self.host = _host(environment, host)
        unknown: tuple[Diagnostic, ...] = ()
        if self.host is not None:
            options.setdefault("argument_numbering", self.host.argument_numbering)
            model = options.get("model") or environment.options.model
            options.setdefault("model", model)  # the listing's model is the budget's
            budget, unknown = self.host.budget(model, environment.listing)
            if model == environment.options.model and environment.host == self.host:
                unknown = ()  # load reported it (`Environment.diagnostics`)
            options.setdefault("index_budget", budget)
            options.setdefault("index_style", self.host.index.style)
        if environment.options.claude_settings_hooks and claude_disables_shell(environment.layout):
            options.setdefault("disable_skill_shell_execution", True)
        _host_ids(self.host, environment, options)
        self.options = SessionOptions.build(**options)
        self._dialect = PLAIN if self.host is None else self.host.hooks
        self._prompt_id: str | None = None
        select_output_style(environment.output_styles, self.options.output_style)  # or raises
        self.counter = counter
        self._on_event = on_event
        layout = environment.layout
        self.runner = Runner(
            self.options,
            dict(os.environ if environ is None else environ),
            layout.project,
            layout.cwd,
            _trusted(environment, self.options),
            approve,
            self._shell_gate,
            self._held_line,
        )
        self._fork = fork
        self._forks: list[Forked] = []
        self._skill_hooks = SkillHooks()
        self._active: dict[str, ActiveSkill] = {}
        self._rules: dict[str, RuleSet] = {}
        self._diagnostics: dict[Diagnostic, None] = dict.fromkeys(unknown)
        self._conditional = Conditional(environment)
        self._tools = build_tools(self)
        self._own = frozenset(t.name for t in self._tools)
        self._receipts = {t.name: [0, 0] for t in self._tools}
        self._hooks: HookRunner | None = None
        self._instructions_fired: set[str] = set()
        self._attached: dict[str, InstructionFile] = {}
        self._callbacks: list[tuple[str, tuple[HookMatcher, ...]]] = []
        self._services: tuple[McpCaller | None, ModelHook | None] = (None, None)
        self._monitors: MonitorRunner | None = None
        self._main_agent: tuple[AgentType | None] | None = None  # chosen on first use

    # -- skills -------------------------------------------------------------------

    @property
    def skills(self) -> Mapping[str, Skill]:
        """The skills the session offers, in precedence order: every skill the
        environment loaded, without the conditional ones (``paths:``) no touched file
        has matched yet, then the nested ones touched files brought in (`touch`). A
        skill whose listing override is ``off`` is not offered; a ``user-invocable-only``
        one is hidden from the model (`satchel._render.offered`)."""
        return offered(self._conditional.skills(), self.environment.skill_overrides)

    @property
    def touched(self) -> tuple[Path, ...]:
        """The files `touch` was told of, in order, each once (absolute)."""
        return self._conditional.touched

    def touch(self, path: str | os.PathLike[str]) -> tuple[Skill, ...]:
        """Tell the session the agent read or edited `path` (relative to the working
        directory). Conditional skills whose ``paths`` match it and skills roots in
        the subdirectories above it join the session (`satchel.session._conditional`);
        returns the skills that did, and the tools are rebuilt to name them."""
        added, problems = self._conditional.touch(path)
        self._note(problems)
        self._attach_rules(path)
        if added:
            self._tools = build_tools(self)
            self._own = frozenset(t.name for t in self._tools)
            for t in self._tools:
                self._receipts.setdefault(t.name, [0, 0])
        return added

    @property
    def enabled(self) -> bool:
        """False when the environment was loaded with skills turned off."""
        allowed = self.environment.options.enabled
        return allowed is not False and allowed != ()

    @property
    def active(self) -> tuple[ActiveSkill, ...]:
        """The active skills, in the order they were activated."""
        return tuple(self._active.values())

    @property
    def diagnostics(self) -> tuple[Diagnostic, ...]:
        """What went wrong at runtime, each once: a model the host does not know
        (``host.model-unknown``, when the session names it: `load` reports its own),
        refused commands, unreadable history, unparseable
        allowed-tools rules, skills the index left out (once `context()` has been
        built)."""
        return tuple(self._diagnostics)

    def note(self, *problems: Diagnostic) -> None:
        """Add what a host built on the session found wrong to `diagnostics` (each once),
        so that one list says everything (a framework integration's own findings)."""
        self._note(problems)

    def is_active(self, name: str) -> bool:
        return self.active_skill(name) is not None

    def active_skill(self, name: str) -> ActiveSkill | None:
        """The active skill called `name` (exactly, else ignoring case), if any."""
        return self._active.get(name) or _folded(self._active, name)

    def find(self, name: str, *, for_model: bool = False) -> Skill:
        """The skill called `name` (exactly, else ignoring case). The model does not see
        skills marked `disable-model-invocation`. Raises `UnknownSkill` or `SkillsOff`."""
        if not self.enabled:
            message = "skills are turned off for this session"
            raise SkillsOff(diagnostic("session.skills.off", message))
        found = self.skills.get(name) or _folded(self.skills, name)
        if found is None or (for_model and not model_visible(found)):
            raise UnknownSkill(self._unknown(name, for_model=for_model))
        return found

    def activate(self, name: str, arguments: str = "") -> ActiveSkill | Forked:
        """Activate a skill for this run (zidane's `activateSkill`). It writes no
        history, so `context()` carries its content until it is deactivated. A
        ``context: fork`` skill runs as a subagent instead (`fork`) and what it gave
        back is returned. Raises `UnknownSkill`, `SkillsOff` or `MaxActiveReached`
        (and `ForkUnavailable` or `ForkFailed` for a fork)."""
        skill = self.find(name)
        if is_fork(skill):
            return self.fork(skill.name, arguments)
        held = self._active.get(skill.name)
        if held is None:
            self.enter(skill, "explicit", in_context=True, filler=self.filler(skill, arguments))
            held = self._active[skill.name]
        return held

    def deactivate(self, name: str, *, via: Via = "explicit") -> bool:
        """Release an active skill and its tool limits; False when none of that name is
        active."""
        held = self.active_skill(name)
        if held is None:
            return False
        del self._active[held.name]
        self._skill_hooks.remove(held.name)
        self._emit(SkillEvent("skills:deactivate", held.name, via, held.skill))
        return True

    def enter(
        self,
        skill: Skill,
        via: Via,
        *,
        in_context: bool = False,
        shape: Shape = "block",
        filler: Filler | None = None,
    ) -> str:
        """The activation seam the tools and `expand` share: make room (or raise
        `MaxActiveReached`) before anything runs, build the text (placeholders filled
        by `filler`, commands interpolated, body cut at the budget; the whole
        ``<skill_content>`` block, or the body alone), then mark the skill active. An
        already active skill is not added twice. A ``context: fork`` skill is run by
        the fork callback instead and its result block returned."""
        fill = filler or self.filler(skill)
        if is_fork(skill):
            return result_block(self._run_fork(skill, via, fill))
        fresh = skill.name not in self._active
        if fresh:
            self._check_room(skill)
            self._register_hooks(skill)  # its own hooks see its commands
        try:
            body, problems = content.activation_body(
                skill, self.runner, self.options, self.counter, fill, via
            )
        except BaseException:
            if fresh:
                self._skill_hooks.remove(skill.name)
            raise
        self._note(problems)
        hint = content.read_hint(self.options)
        keep = content.reachable(self.options, self.runner, skill)
        text = content.skill_block(skill, body, hint, keep)
        if fresh:
            self._add(skill, via, in_context, text if in_context else "")
        return text if shape == "block" else body

    def filler(self, skill: Skill, arguments: str = "") -> Filler:
        """What fills `skill`'s placeholders when it is activated with `arguments`
        (`satchel.session._substitute`)."""
        return substitute.filler(
            self.environment,
            skill,
            arguments,
            numbering=self.options.argument_numbering,
            session_id=self.options.session_id,
            effort=self.options.effort,
        )

    # -- context: fork ---------------------------------------------------------------

    def on_fork(self, fork: Fork | None) -> None:
        """Register the callback that runs ``context: fork`` skills (None: none). It gets
        a `ForkRequest` and returns the subagent's result as text, or an awaitable of
        it; the result is the activation's result."""
        self._fork = fork

    @property
    def forks(self) -> tuple[Forked, ...]:
        """Every fork this session ran, in order, with what it gave back."""
        return tuple(self._forks)

    def fork(self, name: str, arguments: str = "") -> Forked:
        """Run the ``context: fork`` skill `name` with `arguments` through the fork
        callback. Raises `ForkUnavailable` with no callback, `ForkFailed` when it
        raises, and `UnknownSkill` or `SkillsOff`."""
        skill = self.find(name)
        self._run_fork(skill, "explicit", self.filler(skill, arguments))
        return self._forks[-1]

    def _run_fork(self, skill: Skill, via: Via, fill: Filler) -> Forked:
        fork = self._fork
        if fork is None:
            raise unavailable(skill)  # before any command runs
        body, problems = content.activation_body(
            skill, self.runner, self.options, self.counter, fill, via
        )
        self._note(problems)
        if fill.arguments and not fill.filled:
            body = f"{body}\n\n{fill.arguments}" if body else fill.arguments
        agent = agent_of(skill)
        request = ForkRequest(
            skill,
            agent,
            body,
            tuple(substitute.rule_texts(self.environment, skill, skill.allowed_tools)),
            self.environment.agents.get(agent),
            fill.arguments,
            via,
            flag(skill.extras.get("background"), True) is True,
        )
        forked = Forked(request, run_fork(fork, request))
        self._forks.append(forked)
        return forked

    def resume(self, history: Iterable[Any] | Mapping[str, Any]) -> tuple[Diagnostic, ...]:
        """Rebuild the active set from a transcript's skill tool calls (zidane): the last
        mode per skill wins, activations fire with ``via="resume"``, deactivations do
        not fire, nothing runs. Skills the host activated are dropped too (the
        transcript is the whole state). Past `max_active`, the most recent win.
        Returns what could not be replayed."""
        names = {kind: self.options.name_of(kind) for kind in ALL_TOOLS}
        changes, problems = replay.changes(history, names)
        wanted, unknown = self._fold_changes(changes)
        self._active.clear()
        self._skill_hooks.clear()
        wanted = [s for s in wanted if not is_fork(s)]  # a fork's result is in the transcript
        limit = self.options.max_active
        dropped = wanted[: len(wanted) - limit] if limit is not None else []
        for skill in wanted[len(dropped) :]:
            self._add(skill, "resume")
        found = problems + unknown + tuple(_not_resumed(s, limit) for s in dropped)
        self._note(found)
        return found

    def _fold_changes(
        self, changes: Iterable[tuple[str, bool]]
    ) -> tuple[list[Skill], tuple[Diagnostic, ...]]:
        state: dict[str, tuple[Skill, bool]] = {}
        problems: dict[Diagnostic, None] = {}
        for name, on in changes:
            try:
                skill = self.find(name, for_model=True)
            except Refused as e:
                why = e.diagnostic
                problems[
                    diagnostic(why.code, f"not resumed: {why.message}", severity="warning")
                ] = None
                continue
            state.pop(skill.name, None)  # a later change moves it to the end
            state[skill.name] = (skill, on)
        return [s for s, on in state.values() if on], tuple(problems)

    def _check_room(self, skill: Skill) -> None:
        limit = self.options.max_active
        if limit is not None and len(self._active) >= limit:
            message = (
                f"cannot activate {skill.name!r}: {limit} skill(s) already active "
                f"({', '.join(self._active)}), the most max_active allows"
            )
            raise MaxActiveReached(diagnostic("session.max-active", message))

    def _add(self, skill: Skill, via: Via, in_context: bool = False, text: str = "") -> None:
        held = ActiveSkill(
            skill, via, self._rules_of(skill), in_context, text, self._denied_of(skill)
        )
        self._active[skill.name] = held
        if skill.name not in self._skill_hooks:
            self._register_hooks(skill)
        if self._monitors is not None:
            self._monitors.arm_skill(skill.name)  # its ``on-skill-invoke`` monitors
        self._emit(SkillEvent("skills:activate", skill.name, via, skill))

    # -- the main thread's agent type -----------------------------------------------

    @property
    def main_agent(self) -> AgentType | None:
        """The agent type the main thread runs as (`Environment.main_agent`: the
        settings' ``agent``, else an enabled plugin's default), chosen once per session
        (again after `reload`); None when nothing chooses one or the chosen type did not
        load. The host gives the main conversation its prompt, tools and model, as it
        does a forked skill's (`AgentType.spawn_spec`). A plugin's choice adds Claude
        Code's deprecation note to `diagnostics`."""
        if self._main_agent is None:
            chosen = self.environment.main_agent()
            note = None if chosen is None else chosen.note()
            if note is not None:
                self._note((note,))
            found = None if chosen is None else self.environment.agents.get(chosen.name)
            self._main_agent = (found,)
        return self._main_agent[0]

    # -- monitors and bin/ ------------------------------------------------------------

    async def start_monitors(self, on_event: OnMonitorEvent | None = None) -> MonitorRunner:
        """Start the enabled plugins' monitors that arm at session start (and those bound
        to a skill already active); the runner, whose `events()` (or `on_event`) gives
        each line they print. A monitor bound to a skill starts when that skill is
        activated; `aclose()` stops them all. Their problems go to `diagnostics`. A
        second call gives the running runner (docs/plugins.md, "Monitors")."""
        if self._monitors is None:
            self._monitors = MonitorRunner(
                self.environment,
                on_event=on_event,
                environ=self.runner.environ,
                on_problem=lambda problem: self._note((problem,)),
            )
            await self._monitors.start()
            for name in tuple(self._active):
                await self._monitors.start_for_skill(name)
        return self._monitors

    async def aclose(self) -> None:
        """End what the session keeps running: every monitor is stopped."""
        running, self._monitors = self._monitors, None
        if running is not None:
            await running.stop()

    def shell_path(self, base: str | None = None) -> str:
        """The PATH for the host's shell tool: the trusted, enabled plugins' ``bin/``
        directories before `base` [the session's environment's PATH]."""
        return bin_path.shell_path(
            self.environment, self.runner.environ.get("PATH", "") if base is None else base
        )

    def shell_env(self, base: Mapping[str, str] | None = None) -> dict[str, str]:
        """A copy of `base` [the session's environment] with `shell_path` as its PATH;
        ``os.environ`` is never changed."""
        return bin_path.shell_env(self.environment, self.runner.environ if base is None else base)

    def _register_hooks(self, skill: Skill) -> None:
        hooks, problems = read_skill_hooks(self.environment, skill)
        self._note(problems)
        self._skill_hooks.add(skill.name, hooks)

    def _rules_of(self, skill: Skill) -> RuleSet:
        rules = self._rules.get(skill.name)
        if rules is None:
            texts = substitute.rule_texts(self.environment, skill, skill.allowed_tools)
            parsed, problems = parse_rules(texts, path=skill.path)
            self._note(problems)
            rules = self._rules[skill.name] = RuleSet(parsed)
        return rules

    def _denied_of(self, skill: Skill) -> RuleSet:
        key = f"\0deny\0{skill.name}"
        rules = self._rules.get(key)
        if rules is None:
            parsed, problems = parse_rules(skill.disallowed_tools, path=skill.path)
            self._note(problems)
            rules = self._rules[key] = RuleSet(parsed)
        return rules

    def _emit(self, event: SkillEvent) -> None:
        if self._on_event is not None:
            self._on_event(event)

    def _note(self, problems: Iterable[Diagnostic]) -> None:
        self._diagnostics.update(dict.fromkeys(problems))

    def _unknown(self, name: str, *, for_model: bool) -> Diagnostic:
        visible = [n for n, s in self.skills.items() if not for_model or model_visible(s)]
        close = difflib.get_close_matches(name, visible, n=3)
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        return diagnostic("session.skill.unknown", f"no skill named {quote(name)}{hint}")

    # -- the allowed-tools gate ---------------------------------------------------

    @property
    def enforcing(self) -> bool:
        """Whether the gate enforces allowed-tools (see `enforce_allowed_tools`)."""
        mode = self.options.enforce_allowed_tools
        return mode == "on" or (mode == "auto" and "skills_use" in self.options.tools)

    def refusal(
        self, name: str, tool_input: Mapping[str, Any] | str | None = None
    ) -> Diagnostic | None:
        """Why active skills' allowed-tools refuse the call (`session.tool.not-allowed`),
        or None when it may go ahead. The session's own tools are always allowed.
        `tool_input` may be the JSON string OpenAI sends; an input that is not a JSON
        object passes only a bare rule (``Bash``, not ``Bash(git:*)``)."""
        if not self.enforcing or name in self._own:
            return None
        arguments = parse_arguments(tool_input)
        given = None if isinstance(arguments, ToolResult) else arguments
        return gate.refusal(self.active, name, given, self._gate_context())

    def check_tool(self, name: str, tool_input: Mapping[str, Any] | str | None = None) -> None:
        """Raise `ToolNotAllowed` when active skills' allowed-tools do not cover the call."""
        problem = self.refusal(name, tool_input)
        if problem is not None:
            raise ToolNotAllowed(problem)

    def before_tool_use(
        self,
        name: str,
        tool_input: Mapping[str, Any] | str | None = None,
        *,
        tool_use_id: str | None = None,
    ) -> Decision:
        """May the host run tool `name` with `tool_input` now? The ``before_tool_use``
        hooks answer first, then the allowed-tools gate judges the input that would
        run (a hook's rewrite or the original). Use `Decision.tool_input` to run it.
        Hooks run when the session's `hooks` option is on and the environment has any;
        an input that is not a JSON object reaches them as ``{}``."""
        arguments = parse_arguments(tool_input)
        given = _NO_INPUT if isinstance(arguments, ToolResult) else arguments
        outcome = None
        if self._hooks_on():
            fields = {} if tool_use_id is None else {"tool_use_id": tool_use_id}
            outcome = self._hook_runner().before_tool_use(name, given, **fields)
            self._skill_hooks.ran(outcome)
            self._note(outcome.diagnostics)
        return decide(self.refusal, name, given, outcome)

    async def abefore_tool_use(
        self,
        name: str,
        tool_input: Mapping[str, Any] | str | None = None,
        *,
        tool_use_id: str | None = None,
    ) -> Decision:
        """`before_tool_use` for an event loop: the hooks run off the loop's thread."""
        import asyncio

        return await asyncio.to_thread(
            self.before_tool_use, name, tool_input, tool_use_id=tool_use_id
        )

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
        if not self._hooks_on():
            return None
        arguments = parse_arguments(tool_input)
        given = _NO_INPUT if isinstance(arguments, ToolResult) else arguments
        payload = {"tool_name": name, "tool_input": dict(given), "tool_response": response}
        if tool_use_id is not None:
            payload["tool_use_id"] = tool_use_id
        outcome = self._hook_runner().run("after_tool_use", payload)
        self._skill_hooks.ran(outcome)
        self._note(outcome.diagnostics)
        return outcome

    def register_hooks(self, event: str, *matchers: HookMatcher) -> None:
        """Add Python hooks (`satchel.hooks.HookMatcher`) for `event`: they answer with
        the environment's hooks, after them in declared order (docs/hooks.md)."""
        self._callbacks.append((event, matchers))
        if self._hooks is not None:
            self._hooks.register(event, *matchers)

    def hook_services(
        self, *, mcp: McpCaller | None = None, model_hook: ModelHook | None = None
    ) -> None:
        """What the session's hooks may use beyond processes: the running MCP supervisor
        ``mcp_tool`` hooks call through (a `BlockingSupervisor`) and the host's callback
        for ``prompt`` and ``agent`` hooks (docs/hooks.md, "Handler types")."""
        self._services = (mcp, model_hook)
        if self._hooks is not None:
            self._hooks.mcp, self._hooks.model_hook = mcp, model_hook

    @property
    def session_id(self) -> str:
        """The id hooks get as ``session_id`` (the option, or one made up under a host
        profile with a payload dialect)."""
        return self.options.session_id

    @property
    def transcript_path(self) -> str:
        """The path hooks get as ``transcript_path``."""
        return self.options.transcript_path

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
        return PayloadContext(
            session_id=self.options.session_id,
            transcript_path=self.options.transcript_path,
            cwd=str(self.environment.layout.cwd),
            prompt_id=self._prompt_id,
            permission_mode=self.options.permission_mode or defaults.get("permission_mode"),
            effort=self.options.effort or defaults.get("effort"),
            model=self.options.model or self.environment.options.model or defaults.get("model"),
        )

    def _hook_runner(self) -> HookRunner:
        if self._hooks is None:
            self._hooks = HookRunner(
                self.environment,
                timeout=self.options.hook_timeout,
                environ=self.runner.environ,
                session_id=self.options.session_id,
                transcript_path=self.options.transcript_path,
                dialect=self._dialect,
                context=self.payload_context,
                extra=self._skill_hooks.for_event,
                mcp=self._services[0],
                model_hook=self._services[1],
            )
            for event, matchers in self._callbacks:
                self._hooks.register(event, *matchers)
        return self._hooks

    def _hooks_on(self) -> bool:
        """Hooks run: the `hooks` option is on and the environment or an active skill
        has some."""
        return self.options.hooks and bool(
            self.environment.hooks.hooks or self._skill_hooks or self._callbacks
        )

    def _held_line(self, skill: Skill, number: int, command: str) -> str | None:
        """Why a project skill's `` !`cmd` `` line is held back since `satchel trust`,
        by the environment in force (`Environment.held_line`)."""
        return self.environment.held_line(skill, number, command)

    def _shell_gate(self, skill: Skill, command: str, via: Via) -> str | None:
        """Fire ``PreSkillShellCommand`` for one command: why it may not run, or None;
        the organisation's policy may refuse it first (docs/policy.md)."""
        refused = self.environment.policy.check_shell()
        if refused is not None:
            return refused.message
        if not self._hooks_on():
            return None
        payload = shell_payload(skill, command, via)
        outcome = self._hook_runner().run(SHELL_EVENT, payload)
        self._skill_hooks.ran(outcome)
        self._note(outcome.diagnostics)
        return shell_refusal(outcome)

    def fire(self, event: str, payload: Mapping[str, Any]) -> Outcome | None:
        """Fire `event` (satchel's name or a host's) to the environment's hooks with
        `payload` (the event's own fields; the common ones come from
        `payload_context`) when the session's `hooks` option is on; None when no hook
        could run. ``user_prompt_submit`` starts a new prompt (`new_prompt`) first.
        What went wrong goes to `diagnostics`."""
        if event_named(event) == "user_prompt_submit":
            self.new_prompt()
        if not self._hooks_on():
            return None
        outcome = self._hook_runner().run(event, payload)
        self._note(outcome.diagnostics)
        return outcome

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
        outcomes = [o for p in fire.config_changes(changes) if (o := self.fire("config_change", p))]
        blocked = fire.blocked_reload(outcomes)
        if blocked is not None:
            self._note((blocked,))
            return Changes()
        self.adopt(fresh)
        return changes

    def adopt(self, environment: Environment) -> None:
        """Take `environment` as the session's from now on, as `reload` takes the one it
        read (no ``config_change`` fires): the hooks, the main agent, the monitors and
        the conditional skills touched so far follow it; active skills stay active."""
        self.environment = environment
        self._hooks = None
        self._main_agent = None  # chosen again from the new settings
        if self._monitors is not None:  # re-armed on the loop they run on
            self._monitors.reload(environment)
        touched, self._conditional = self._conditional.touched, Conditional(environment)
        for path in touched:  # the new environment's conditional skills, as touched
            self._conditional.touch(path)

    def allows_tool(self, name: str, tool_input: Mapping[str, Any] | str | None = None) -> bool:
        return self.refusal(name, tool_input) is None

    def _gate_context(self) -> gate.GateContext:
        layout = self.environment.layout
        tools = self.options.tools
        release = self.options.name_of("skills_use") if "skills_use" in tools else None
        return gate.GateContext(layout.cwd, layout.home, release)

    # -- tools ----------------------------------------------------------------------

    def tools(self, existing: Iterable[str | Mapping[str, Any] | Tool] = ()) -> tuple[Tool, ...]:
        """The tools for the model; () without skills or with `tools=False`. Names in
        `existing` (the host's own tools) that clash raise `Collision`."""
        taken = {_tool_name(t) for t in existing}
        clash = [t.name for t in self._tools if t.name in taken]
        if clash:
            message = (
                f"the host already has a tool named {', '.join(map(repr, clash))}; rename "
                "satchel's with tool_names instead of merging the two"
            )
            raise Collision(diagnostic("session.tool.collision", message))
        return self._tools

    def call(self, name: str, arguments: str | Mapping[str, Any] | None = None) -> ToolResult:
        """Run one of the session's tools for the model. Never raises for what the model
        sent: a bad call is a result with `is_error` and a diagnostic code."""
        tool = next((t for t in self._tools if t.name == name), None)
        if tool is None:
            message = f"this session has no tool {quote(name)}"
            return ToolResult.error(diagnostic("session.tool.unknown", message))
        parsed = parse_arguments(arguments)
        result = parsed if isinstance(parsed, ToolResult) else _run(tool, parsed)
        counts = self._receipts[tool.name]
        counts[0] += 1
        counts[1] += int(result.is_error)
        return result

    def receipt(self) -> tuple[ToolReceipt, ...]:
        """Calls and errors per tool (caveman's `receipt.tools`)."""
        return tuple(ToolReceipt(n, c, e) for n, (c, e) in self._receipts.items())

    # -- context --------------------------------------------------------------------

    def context(
        self, existing: Iterable[str | ContextSegment] = (), *, query: str | None = None
    ) -> tuple[ContextSegment, ...]:
        """The segments for the system prompt: ``agent.output-style`` (the selected output
        style, first), ``agent.skills`` (the index, stable for the
        build) and one ``agent.skill.<name>`` per skill the host activated. Ids in
        `existing` that clash raise `Collision`. With `query` (the user's message) the
        index lists the skills most relevant to it first (`satchel.rank_skills`), so
        the ones its caps keep are those; without, in precedence order."""
        self._fire_instructions()
        skills = discovery.ranked(self.skills, query)
        segments, index = content.segments(
            self.environment, self.options, self.active, skills=skills
        )
        self._note(index.diagnostics)  # the skills the index left out
        taken = {e if isinstance(e, str) else e.id for e in existing}
        clash = [s.id for s in segments if s.id in taken]
        if clash:
            message = f"the host already has a context segment {', '.join(map(repr, clash))}"
            raise Collision(diagnostic("session.context.collision", message))
        return segments

    @property
    def attached(self) -> tuple[InstructionFile, ...]:
        """The conditional instruction files (a rule's ``paths:``) a touched file
        matched, in the order they attached: the host puts them in the prompt."""
        return tuple(self._attached.values())

    def _attach_rules(self, path: str | os.PathLike[str]) -> None:
        """Attach the conditional instruction files touching `path` matches, firing
        ``instructions_loaded`` (``path_glob_match``) once for each."""
        if not self.options.include_instructions:
            return
        latest = Path(os.path.normpath(self.environment.layout.cwd / path))
        for file in applies_to(self.environment.instructions, latest):
            key = str(file.path)
            if key not in self._attached:
                self._attached[key] = file
                self.fire("instructions_loaded", fire.instructions_loaded(file, str(latest)))

    def _fire_instructions(self) -> None:
        """``instructions_loaded`` once for each always-on file that goes in the prompt."""
        if not self.options.include_instructions:
            return
        for file in self.environment.instructions:
            key = str(file.path)
            if file.condition.applies == "always" and key not in self._instructions_fired:
                self._instructions_fired.add(key)
                self.fire("instructions_loaded", fire.instructions_loaded(file))

    def context_bill(self) -> dict[str, int]:
        """Tokens the session adds to every request, by kind (caveman's contextBill):
        ``skill`` for the context segments, ``tool_schema`` for the tool definitions."""
        return content.bill(self.context(), self._tools, self.counter)

    # -- explicit invocation ----------------------------------------------------------

    def expand(self, prompt: str) -> str:
        """Expand an explicit invocation: ``/skill <name> <request>``, or ``/<name>
        <request>`` for a command or a skill (`slash_order` decides which first). A
        skill's body goes inline in an ``<agent-skill>`` wrapper and the skill becomes
        active; a command's body is expanded with the arguments. A built-in command
        or anything unmatched comes back unchanged, as does a prompt whose file
        cannot be read (`diagnostics` says why). Raises `MaxActiveReached` when the
        skill cannot be activated."""
        text, problems = expand.expand(self, prompt)
        self._note(problems)
        return text


def _run(tool: Tool, arguments: Mapping[str, Any]) -> ToolResult:
    try:
        return tool.call(arguments)
    except Refused as e:
        return ToolResult.error(e.diagnostic)
    except Exception as e:  # noqa: BLE001 - a bug in satchel must not end the host's loop
        message = f"the tool failed inside satchel ({type(e).__name__}); this is a bug"
        return ToolResult.error(diagnostic("session.tool.failed", message))


def _not_resumed(skill: Skill, limit: int | None) -> Diagnostic:
    message = (
        f"not resumed: {skill.name!r} was activated earlier than the {limit} kept by max_active"
    )
    return diagnostic("session.max-active", message, severity="warning")


def _tool_name(tool: str | Mapping[str, Any] | Tool) -> str:
    if isinstance(tool, str):
        return tool
    if isinstance(tool, Tool):
        return tool.name
    inner = tool.get("function")
    if isinstance(inner, Mapping):
        return str(inner.get("name", ""))
    return str(tool.get("name", ""))


def _folded(items: Mapping[str, _T], name: str) -> _T | None:
    folded = fold_name(name)
    return next((v for n, v in items.items() if fold_name(n) == folded), None)


def _host(environment: Environment, host: str | Host | None) -> Host | None:
    """The profile a session follows: `host` (by name, as `load()` finds it), else the
    environment's (None: satchel's own rules)."""
    if host is None:
        return environment.host
    from satchel.hosts._config import resolve  # only when a profile is named

    found, _ = resolve(host, config_home=environment.layout.config_home)
    return found


def _host_ids(host: Host | None, environment: Environment, options: SessionOverrides) -> None:
    """Under a host profile whose transcript satchel knows (`HookDialect.transcript`),
    a session id (a new uuid) and that host's transcript path for it, where the caller
    gave none."""
    if host is None or host.hooks.transcript is None:
        return
    if not options.get("session_id"):
        options["session_id"] = new_id()
    if not options.get("transcript_path"):
        lay = environment.layout
        path = transcript_file(host.hooks, lay.home, str(lay.cwd), str(options["session_id"]))
        options["transcript_path"] = path


def _trusted(environment: Environment, options: SessionOptions) -> frozenset[str] | None:
    if options.shell_scopes is not None:
        return frozenset(options.shell_scopes)
    if not environment.trust.run_project:
        return frozenset(s.scope for s in environment.skills.values()) - {PROJECT}
    return None
