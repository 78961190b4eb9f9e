"""``context: fork``: a skill that runs as a subagent instead of in the conversation.

Claude Code's skill frontmatter (2.1.332 schema; code.claude.com/docs/en/skills,
"Run skills in a subagent"): ``context: fork`` runs the skill in a forked subagent
whose prompt is the skill's body, ``agent`` names the subagent type
(``general-purpose`` when it names none), and only the subagent's result comes back
to the conversation. satchel runs no agent: activating such a skill builds a
`ForkRequest` (the agent type, the body with its placeholders filled and commands
run, the skill's allowed tools) and hands it to the callback the host registered
(`Session(fork=...)` or `session.on_fork(...)`), sync or async. What the callback
returns is the activation's result; the skill never becomes active, so its
`allowed-tools` never gate the conversation, and a transcript replays nothing for it.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from satchel.agents._model import AgentType
from satchel.core._model import model
from satchel.core._xml import quoteattr
from satchel.core.diagnostics import diagnostic
from satchel.core.errors import ForkFailed, ForkUnavailable
from satchel.session._model import Via
from satchel.skills._model import Skill

__all__ = [
    "DEFAULT_AGENT",
    "Fork",
    "ForkRequest",
    "Forked",
    "agent_of",
    "is_fork",
    "result_block",
    "run_fork",
    "unavailable",
]

DEFAULT_AGENT = "general-purpose"  # Claude Code's, when `agent` names none


@model
class ForkRequest:
    """What the host's subagent runs for a ``context: fork`` skill.

    `agent` is the subagent type's name (the skill's ``agent`` field, else
    ``general-purpose``) and `agent_type` the loaded type of that name (None for a
    host's built-in one); `prompt` is the skill's body as activation renders it
    (placeholders filled, commands run, cut at the budget); `tools` the skill's
    ``allowed-tools`` (empty: the agent type's own); `arguments` what was typed after
    the skill's name; `via` who activated it; `background` the skill's
    ``background`` field, True when it has none (Claude Code runs a fork in the
    background unless it says ``background: false``, since 2.1.218)."""

    skill: Skill
    agent: str
    prompt: str
    tools: tuple[str, ...] = ()
    agent_type: AgentType | None = None
    arguments: str = ""
    via: Via = "explicit"
    background: bool = False

    @property
    def name(self) -> str:
        return self.skill.name


@model
class Forked:
    """One fork the session ran: the request and the text the host's subagent gave."""

    request: ForkRequest
    result: str


Fork = Callable[[ForkRequest], "str | Awaitable[str]"]


def is_fork(skill: Skill) -> bool:
    """Whether the skill says ``context: fork``."""
    return skill.extras.get("context") == "fork"


def agent_of(skill: Skill) -> str:
    """The subagent type the skill names, else ``general-purpose``."""
    agent = skill.extras.get("agent")
    return agent.strip() if isinstance(agent, str) and agent.strip() else DEFAULT_AGENT


def unavailable(skill: Skill) -> ForkUnavailable:
    """The refusal when no fork callback is registered."""
    message = (
        f"skill {skill.name!r} runs in a subagent (context: fork) and this session has no "
        "fork callback; register one with Session(fork=...) or session.on_fork(...)"
    )
    return ForkUnavailable(diagnostic("session.fork.unavailable", message, skill.path))


def run_fork(fork: Fork, request: ForkRequest) -> str:
    """The callback's answer to `request`, as text. An async callback is awaited: on
    this thread when no event loop runs here, else on a thread of its own. Raises
    `ForkFailed` when the callback raises."""
    try:
        answer: Any = fork(request)
        if inspect.isawaitable(answer):
            answer = _wait(answer)
    except Exception as e:
        message = f"the fork callback for skill {request.name!r} failed: {type(e).__name__}: {e}"
        raise ForkFailed(diagnostic("session.fork.failed", message, request.skill.path)) from e
    return answer if isinstance(answer, str) else str(answer)


def _wait(awaitable: Awaitable[Any]) -> Any:
    async def main() -> Any:
        return await awaitable

    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(main())
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, main()).result()


def result_block(forked: Forked) -> str:
    """The activation's text: the subagent's result, named by skill and agent."""
    request = forked.request
    head = f"<skill_result name={quoteattr(request.name)} agent={quoteattr(request.agent)}>"
    return f"{head}\n{forked.result.strip(chr(10))}\n</skill_result>"
