"""The text a host wraps its instruction files in, as it sends it to its model.

`instruction_blocks(files, host, cwd)` takes the files `load_instructions` read under
that host's mode (only the always-on ones are sent at the start) and returns the
blocks of text the host puts in its request, byte for byte; None for a host whose
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

from collections.abc import Sequence
from pathlib import Path

from satchel._instructions import InstructionFile

__all__ = ["CLAUDE_MEMORY_HEAD", "instruction_blocks"]

CLAUDE_MEMORY_HEAD = (
    "Codebase and user instructions are shown below. Be sure to adhere to these "
    "instructions. IMPORTANT: These instructions OVERRIDE any default behavior and you "
    "MUST follow them exactly as written."
)
_CLAUDE_LABELS = {
    "user": "user's private global instructions for all projects",
    "local": "user's private project instructions, not checked in",
    "project": "project instructions, checked into the codebase",
}
CODEX_SEPARATOR = "\n\n--- project-doc ---\n\n"


def _always(files: Sequence[InstructionFile]) -> list[InstructionFile]:
    return [f for f in files if f.condition.applies == "always"]


def _claude(files: Sequence[InstructionFile]) -> tuple[str, ...]:
    parts = []
    for f in files:
        kind = "user" if f.scope == "user" else "local" if f.kind == "local" else "project"
        parts.append(f"Contents of {f.path} ({_CLAUDE_LABELS[kind]}):\n\n{f.text.strip()}")
    if not parts:
        return ()
    return ("\n\n".join([CLAUDE_MEMORY_HEAD, *parts]),)


def _codex(files: Sequence[InstructionFile], cwd: Path) -> tuple[str, ...]:
    user = "".join(f.text.strip() for f in files if f.scope == "user")
    project = "\n\n".join(f.text for f in files if f.scope != "user")
    text = CODEX_SEPARATOR.join(t for t in (user, project) if t)
    if not text:
        return ()
    return (f"# AGENTS.md instructions for {cwd}\n\n<INSTRUCTIONS>\n{text}\n</INSTRUCTIONS>",)


def _gemini_file(f: InstructionFile) -> str:
    return (
        f"--- Context from: {f.path} ---\n{f.text.strip()}\n--- End of Context from: {f.path} ---"
    )


def _gemini(files: Sequence[InstructionFile]) -> tuple[str, ...]:
    user = "\n\n".join(_gemini_file(f) for f in files if f.scope == "user")
    project = "\n\n".join(_gemini_file(f) for f in files if f.scope != "user")
    blocks = []
    if user:
        blocks.append(f"<loaded_context>\n{user}\n</loaded_context>")
    if project:
        blocks.append(
            f"<loaded_context>\n<project_context>\n{project}\n</project_context>\n</loaded_context>"
        )
    return tuple(blocks)


def instruction_blocks(
    files: Sequence[InstructionFile], host: str | None, cwd: Path
) -> tuple[str, ...] | None:
    """The blocks of text `host` sends its model for `files` (see the module's text),
    `cwd` the folder the host runs in; None for a host not reproduced here."""
    sent = _always(files)
    if host == "claude-code":
        return _claude(sent)
    if host == "codex":
        return _codex(sent, cwd)
    if host == "gemini":
        return _gemini(sent)
    return None
