"""`Gate`: whether one of the host's tool calls may run while skills are active.

The active skills' ``allowed-tools`` and ``disallowed-tools`` judge the call
(`satchel.session._gate`); `before_tool_use` asks the ``before_tool_use`` hooks first
and judges the input that would run (`satchel.session._before`). The session's own
tools always pass. The gate keeps no state of its own: it reads the active set of the
session's `Activation`.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

import satchel.session._gate as rules
from satchel.core._model import model
from satchel.core.diagnostics import Diagnostic
from satchel.core.errors import ToolNotAllowed
from satchel.session._activation import Activation
from satchel.session._arguments import parse_arguments
from satchel.session._before import Decision, decide
from satchel.session._hooks import SessionHooks
from satchel.session._model import ToolResult
from satchel.session._toolbox import Toolbox

__all__ = ["Gate"]

_NO_INPUT: Mapping[str, Any] = MappingProxyType({})
ToolInput = Mapping[str, Any] | str | None


@model(eq=False)
class Gate:
    """The allowed-tools gate of one session, and the hooks that answer before it."""

    activation: Activation
    hooks: SessionHooks
    toolbox: Toolbox

    @property
    def enforcing(self) -> bool:
        """Whether the gate enforces allowed-tools (see `enforce_allowed_tools`)."""
        options = self.activation.options
        mode = options.enforce_allowed_tools
        return mode == "on" or (mode == "auto" and "skills_use" in options.tools)

    def refusal(self, name: str, tool_input: ToolInput = None) -> Diagnostic | None:
        """Why active skills' allowed-tools refuse the call (`session.tool.not-allowed`),
        or None when it may go ahead. The session's own tools are always allowed.
        `tool_input` may be the JSON string OpenAI sends; an input that is not a JSON
        object passes only a bare rule (``Bash``, not ``Bash(git:*)``)."""
        if not self.enforcing or name in self.toolbox.own:
            return None
        arguments = parse_arguments(tool_input)
        given = None if isinstance(arguments, ToolResult) else arguments
        return rules.refusal(self.activation.active, name, given, self._context())

    def allows_tool(self, name: str, tool_input: ToolInput = None) -> bool:
        return self.refusal(name, tool_input) is None

    def check_tool(self, name: str, tool_input: ToolInput = None) -> None:
        """Raise `ToolNotAllowed` when active skills' allowed-tools do not cover the call."""
        problem = self.refusal(name, tool_input)
        if problem is not None:
            raise ToolNotAllowed(problem)

    def before_tool_use(
        self, name: str, tool_input: ToolInput = None, *, tool_use_id: str | None = None
    ) -> Decision:
        """May the host run tool `name` with `tool_input` now? The ``before_tool_use``
        hooks answer first, then the allowed-tools gate judges the input that would
        run (a hook's rewrite or the original). Use `Decision.tool_input` to run it.
        Hooks run when the session's `hooks` option is on and the environment has any;
        an input that is not a JSON object reaches them as ``{}``."""
        arguments = parse_arguments(tool_input)
        given = _NO_INPUT if isinstance(arguments, ToolResult) else arguments
        outcome = self.hooks.before_tool_use(name, given, tool_use_id)
        return decide(self.refusal, name, given, outcome)

    async def abefore_tool_use(
        self, name: str, tool_input: ToolInput = None, *, tool_use_id: str | None = None
    ) -> Decision:
        """`before_tool_use` for an event loop: the hooks run off the loop's thread."""
        import asyncio

        return await asyncio.to_thread(
            self.before_tool_use, name, tool_input, tool_use_id=tool_use_id
        )

    def _context(self) -> rules.GateContext:
        layout = self.activation.environment.layout
        options = self.activation.options
        release = options.name_of("skills_use") if "skills_use" in options.tools else None
        return rules.GateContext(layout.cwd, layout.home, release)
