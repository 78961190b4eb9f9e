"""The text a host wraps its instruction files in, as it sends it to its model.

`instruction_blocks(files, host, cwd)` takes the files `load_instructions` read under
that host's mode (only the always-on ones are sent at the start) and returns the
blocks of text the host puts in its request, byte for byte, as the host's definition
says (`InstructionRule.text`, a `satchel.hosts.InstructionText`); None for a host whose
wrapping satchel does not reproduce. Each was read off the pinned host's requests
(tests/hostloop/test_context.py compares them):

* ``claude-code`` (Claude Code 2.1.332 and 2.1.337): one block, in a user message
  inside ``<system-reminder>`` tags: ``Codebase and user instructions are shown
  below. ...`` then, for each file, ``Contents of PATH (LABEL):`` and the file's
  text stripped of surrounding whitespace, parts two newlines apart. LABEL is
  ``user's private global instructions for all projects`` for the user's files,
  ``user's private project instructions, not checked in`` for CLAUDE.local.md and
  ``project instructions, checked into the codebase`` for the others.
* ``codex`` (Codex 0.171.0): one block, a user message: ``# AGENTS.md instructions
  for CWD``, a blank line, then ``<INSTRUCTIONS>``, the text and ``</INSTRUCTIONS>``
  on lines of their own. The text is the global file's stripped, then
  ``--- project-doc ---`` between blank lines, then the project files as read, two
  newlines apart.
* ``gemini`` (Gemini CLI 0.61.0): two blocks. The user's files go at the end of the
  system instruction inside ``<loaded_context>`` tags; the project's in the first
  user message inside ``<loaded_context>`` and ``<project_context>``. Each file is
  ``--- Context from: PATH ---``, its stripped text, ``--- End of Context from: PATH
  ---``, files a blank line apart. A block with no file is left out.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

from satchel.hosts._claude_code import CLAUDE_MEMORY_HEAD
from satchel.hosts._codex import CODEX_SEPARATOR
from satchel.hosts._instructions import InstructionText
from satchel.hosts._profiles import PROFILES
from satchel.kinds._instructions import InstructionFile

__all__ = ["CLAUDE_MEMORY_HEAD", "CODEX_SEPARATOR", "instruction_blocks", "render_blocks"]

_FIELD = re.compile(r"\{(path|label|text|files|cwd)\}")


def _fill(template: str, **values: str) -> str:
    """`template` with each ``{name}`` of `values` filled in one pass (a value's own
    braces are left as they are)."""
    return _FIELD.sub(lambda m: values.get(m[1], m[0]), template)


def _file(text: InstructionText, f: InstructionFile) -> str:
    labels = dict(text.labels)
    key = "user" if f.scope == "user" else f.kind if f.kind in labels else "project"
    body = f.text.strip() if f.scope in text.strip else f.text
    return _fill(text.file, path=str(f.path), label=labels.get(key, ""), text=body)


def render_blocks(
    text: InstructionText, files: Sequence[InstructionFile], cwd: Path
) -> tuple[str, ...]:
    """The blocks `text` makes of the always-on `files` (see `InstructionText`)."""
    sent = [f for f in files if f.condition.applies == "always"]
    joined_by = text.join if text.user_join is None else text.user_join
    user = joined_by.join(_file(text, f) for f in sent if f.scope == "user")
    project = text.join.join(_file(text, f) for f in sent if f.scope != "user")
    if text.block is not None:
        joined = text.between.join(part for part in (user, project) if part)
        return (_fill(text.block, cwd=str(cwd), files=joined),) if joined else ()
    pairs = ((text.user_block, user), (text.project_block, project))
    return tuple(_fill(block, cwd=str(cwd), files=part) for block, part in pairs if part)


def instruction_blocks(
    files: Sequence[InstructionFile], host: str | None, cwd: Path
) -> tuple[str, ...] | None:
    """The blocks of text `host` sends its model for `files` (see the module's text),
    `cwd` the folder the host runs in; None for a host not reproduced here."""
    profile = PROFILES.get(host or "")
    rule = None if profile is None else profile.instruction_rule
    if rule is None or rule.text is None:
        return None
    return render_blocks(rule.text, files, cwd)
