"""`Activation`: which skills one session offers and which are active.

It finds skills (`find`), activates and releases them (`activate`, `enter`,
`deactivate`), runs ``context: fork`` skills through the host's callback (`fork`),
rebuilds the active set from a transcript (`resume`) and follows the files the agent
touched to the conditional and nested skills they bring in (`touch`). The model's tools
(`satchel.session._tools`) and explicit invocation (`satchel.session._expand`) act
through it.
"""

from __future__ import annotations

import difflib
import os
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import satchel.session._content as content
import satchel.session._replay as replay
import satchel.session._substitute as substitute
from satchel.agents._model import AgentType
from satchel.assembly._environment import Environment
from satchel.core._text import flag
from satchel.core.diagnostics import Diagnostic, diagnostic
from satchel.core.errors import MaxActiveReached, SkillsOff, UnknownSkill
from satchel.foundations.precedence import fold_name
from satchel.foundations.tokens import Counter
from satchel.index._render import model_visible, offered
from satchel.kinds.commands._arguments import Filler
from satchel.kinds.resources import quote
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
from satchel.session._hooks import Note, SessionHooks
from satchel.session._model import ActiveSkill, Shape, SkillEvent, Via
from satchel.session._options import ALL_TOOLS, SessionOptions
from satchel.session._run import Runner
from satchel.session._skill_hooks import read_skill_hooks
from satchel.session._skill_rules import SkillRules
from satchel.skills._model import Skill

if TYPE_CHECKING:
    from satchel.hosts._model import Host

__all__ = ["Activation", "OnEvent"]

OnEvent = Callable[[SkillEvent], None]
_T = TypeVar("_T")


class Activation:
    """The skills of one session: those it offers (`skills`), the active ones
    (`active`), and the calls that change them. `environment`, `options`, `runner`
    and `counter` are what activating a skill reads, runs and counts with; `host` is
    the profile the session follows (None: satchel's own rules)."""

    def __init__(
        self,
        environment: Environment,
        options: SessionOptions,
        runner: Runner,
        counter: Counter,
        hooks: SessionHooks,
        note: Note,
        on_event: OnEvent,
        fork: Fork | None,
        *,
        host: Host | None = None,
    ) -> None:
        self.environment = environment
        self.options = options
        self.runner = runner
        self.counter = counter
        self.host = host
        self._hooks = hooks
        self._note = note
        self._on_event = on_event
        self._fork = fork
        self._forks: list[Forked] = []
        self._active: dict[str, ActiveSkill] = {}
        self._rules = SkillRules(note)
        self._conditional = Conditional(environment)
        self._main_agent: tuple[AgentType | None] | None = None  # chosen on first use

    def adopt(self, environment: Environment) -> None:
        """Take `environment` from now on: the main agent is chosen again and the
        conditional skills touched so far follow it; active skills stay active."""
        self.environment = environment
        self._main_agent = None  # chosen again from the new settings
        touched, self._conditional = self._conditional.touched, Conditional(environment)
        for path in touched:  # the new environment's conditional skills, as touched
            self._conditional.touch(path)

    # -- what the session offers ------------------------------------------------------

    @property
    def skills(self) -> Mapping[str, Skill]:
        """The skills the session offers, in precedence order: every skill the
        environment loaded, without the conditional ones (``paths:``) no touched file
        has matched yet, then the nested ones touched files brought in (`touch`). A
        skill whose listing override is ``off`` is not offered; a ``user-invocable-only``
        one is hidden from the model (`satchel.index._render.offered`)."""
        return offered(self._conditional.skills(), self.environment.skill_overrides)

    @property
    def touched(self) -> tuple[Path, ...]:
        """The files `touch` was told of, in order, each once (absolute)."""
        return self._conditional.touched

    def touch(self, path: str | os.PathLike[str]) -> tuple[Skill, ...]:
        """The conditional and nested skills touching `path` brings in
        (`satchel.session._conditional`)."""
        added, problems = self._conditional.touch(path)
        self._note(problems)
        return added

    @property
    def enabled(self) -> bool:
        """False when the environment was loaded with skills turned off."""
        allowed = self.environment.options.enabled
        return allowed is not False and allowed != ()

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

    def _unknown(self, name: str, *, for_model: bool) -> Diagnostic:
        visible = [n for n, s in self.skills.items() if not for_model or model_visible(s)]
        close = difflib.get_close_matches(name, visible, n=3)
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        return diagnostic("session.skill.unknown", f"no skill named {quote(name)}{hint}")

    # -- the active set ---------------------------------------------------------------

    @property
    def active(self) -> tuple[ActiveSkill, ...]:
        """The active skills, in the order they were activated."""
        return tuple(self._active.values())

    def is_active(self, name: str) -> bool:
        return self.active_skill(name) is not None

    def active_skill(self, name: str) -> ActiveSkill | None:
        """The active skill called `name` (exactly, else ignoring case), if any."""
        return self._active.get(name) or _folded(self._active, name)

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
        self._hooks.skill_hooks.remove(held.name)
        self._on_event(SkillEvent("skills:deactivate", held.name, via, held.skill))
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
            body = self._body(skill, fill, via)
        except BaseException:
            if fresh:
                self._hooks.skill_hooks.remove(skill.name)
            raise
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

    def _body(self, skill: Skill, fill: Filler, via: Via) -> str:
        body, problems = content.activation_body(
            skill, self.runner, self.options, self.counter, fill, via
        )
        self._note(problems)
        return body

    def _check_room(self, skill: Skill) -> None:
        limit = self.options.max_active
        if limit is not None and len(self._active) >= limit:
            message = (
                f"cannot activate {skill.name!r}: {limit} skill(s) already active "
                f"({', '.join(self._active)}), the most max_active allows"
            )
            raise MaxActiveReached(diagnostic("session.max-active", message))

    def _add(self, skill: Skill, via: Via, in_context: bool = False, text: str = "") -> None:
        allowed = self._rules.allowed(self.environment, skill)
        held = ActiveSkill(skill, via, allowed, in_context, text, self._rules.denied(skill))
        self._active[skill.name] = held
        if skill.name not in self._hooks.skill_hooks:
            self._register_hooks(skill)
        self._on_event(SkillEvent("skills:activate", skill.name, via, skill))

    def _register_hooks(self, skill: Skill) -> None:
        hooks, problems = read_skill_hooks(self.environment, skill)
        self._note(problems)
        self._hooks.skill_hooks.add(skill.name, hooks)

    # -- context: fork ----------------------------------------------------------------

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
        body = self._body(skill, fill, via)
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

    # -- resume and the main agent ----------------------------------------------------

    def resume(self, history: Iterable[Any] | Mapping[str, Any]) -> tuple[Diagnostic, ...]:
        """Rebuild the active set from a transcript's skill tool calls (zidane): the last
        mode per skill wins, activations fire with ``via="resume"``, deactivations do
        not fire, nothing runs. Skills the host activated are dropped too (the
        transcript is the whole state). Past `max_active`, the most recent win.
        Returns what could not be replayed."""
        names = {kind: self.options.name_of(kind) for kind in ALL_TOOLS}
        changes, problems = replay.changes(history, names)
        wanted, unknown = replay.fold(changes, lambda name: self.find(name, for_model=True))
        self._active.clear()
        self._hooks.skill_hooks.clear()
        wanted = [s for s in wanted if not is_fork(s)]  # a fork's result is in the transcript
        limit = self.options.max_active
        dropped = wanted[: len(wanted) - limit] if limit is not None else []
        for skill in wanted[len(dropped) :]:
            self._add(skill, "resume")
        found = problems + unknown + tuple(replay.not_resumed(s, limit) for s in dropped)
        self._note(found)
        return found

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


def _folded(items: Mapping[str, _T], name: str) -> _T | None:
    folded = fold_name(name)
    return next((v for n, v in items.items() if fold_name(n) == folded), None)
