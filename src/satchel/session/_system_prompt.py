"""`SystemPrompt`: what one session puts in the host's system prompt.

The context segments (the output style, the skills index, each skill the host
activated: `satchel.session._content`), the conditional instruction files touched
files attach, the ``instructions_loaded`` events for both, and the context bill.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

import satchel.session._content as content
import satchel.session._discovery as discovery
import satchel.session._fire as fire
from satchel.core.diagnostics import diagnostic
from satchel.core.errors import Collision
from satchel.kinds._instructions import InstructionFile, applies_to
from satchel.session._activation import Activation
from satchel.session._hooks import Note, SessionHooks
from satchel.session._model import ContextSegment
from satchel.session._toolbox import Toolbox

__all__ = ["SystemPrompt"]


class SystemPrompt:
    """The system prompt's part of one session: `context`, `attached`, `context_bill`."""

    def __init__(
        self, activation: Activation, hooks: SessionHooks, toolbox: Toolbox, note: Note
    ) -> None:
        self._activation = activation
        self._hooks = hooks
        self._toolbox = toolbox
        self._note = note
        self._fired: set[str] = set()
        self._attached: dict[str, InstructionFile] = {}

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
        activation = self._activation
        skills = discovery.ranked(activation.skills, query)
        segments, index = content.segments(
            activation.environment, activation.options, activation.active, skills=skills
        )
        self._note(index.diagnostics)  # the skills the index left out
        taken = {e if isinstance(e, str) else e.id for e in existing}
        clash = [s.id for s in segments if s.id in taken]
        if clash:
            message = f"the host already has a context segment {', '.join(map(repr, clash))}"
            raise Collision(diagnostic("session.context.collision", message))
        return segments

    def context_bill(self) -> dict[str, int]:
        """Tokens the session adds to every request, by kind (caveman's contextBill):
        ``skill`` for the context segments, ``tool_schema`` for the tool definitions."""
        return content.bill(self.context(), self._toolbox.tools(), self._activation.counter)

    @property
    def attached(self) -> tuple[InstructionFile, ...]:
        """The conditional instruction files (a rule's ``paths:``) a touched file
        matched, in the order they attached: the host puts them in the prompt."""
        return tuple(self._attached.values())

    def attach(self, path: str | os.PathLike[str]) -> None:
        """Attach the conditional instruction files touching `path` matches, firing
        ``instructions_loaded`` (``path_glob_match``) once for each."""
        environment = self._activation.environment
        if not self._activation.options.include_instructions:
            return
        latest = Path(os.path.normpath(environment.layout.cwd / path))
        for file in applies_to(environment.instructions, latest):
            key = str(file.path)
            if key not in self._attached:
                self._attached[key] = file
                self._hooks.fire("instructions_loaded", fire.instructions_loaded(file, str(latest)))

    def _fire_instructions(self) -> None:
        """``instructions_loaded`` once for each always-on file that goes in the prompt."""
        if not self._activation.options.include_instructions:
            return
        for file in self._activation.environment.instructions:
            key = str(file.path)
            if file.condition.applies == "always" and key not in self._fired:
                self._fired.add(key)
                self._hooks.fire("instructions_loaded", fire.instructions_loaded(file))
