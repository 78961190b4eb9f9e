"""Instruction files: each host's AGENTS.md, CLAUDE.md, GEMINI.md, rules and kin, in prompt order.

`load_instructions(layout)` returns the files a host puts in the system prompt, in
order: a later file wins on conflict. Six modes, one per host: each is the
`satchel.hosts.InstructionRule` its host's definition holds (`MODES` gives them by
word), which names the files, folders, walk, cap and import syntax, and the reader
that reads them (``agents-else-claude``, ``first-file`` or ``every-file``):
``satchel`` and ``codex`` below, and ``claude-code``, ``cursor``, ``gemini`` and
``copilot`` (see `satchel.kinds._instructions._hosts` for their rules and sources).

``satchel`` (default: AGENTS.md, else a Claude file, with a user level). The levels,
in order, are the user level, then the project root (and, when ``layout.ancestors`` is true, every
directory from the root down to cwd). At each level:

============  =====================================  =====================================
level         read first                             only when that one did not load
============  =====================================  =====================================
user          ``<config_home>/<client>/AGENTS.md``   ``<config_home>/<client>/CLAUDE.md``,
                                                     else ``~/.claude/CLAUDE.md``
project dir   ``<dir>/AGENTS.md``                    ``<dir>/CLAUDE.md``,
                                                     else ``<dir>/.claude/CLAUDE.md``
============  =====================================  =====================================

When AGENTS.md loads and a Claude file is there too, the Claude file is not read and
``instructions.replaced`` (info) names it, unless it is the same file (a symlink to
that AGENTS.md). After every level, the client's own file (``SATCHEL.md``; for
another client its name upper-cased, e.g. ``MERMAID.md``) is read in
``<config_home>/<client>/`` and in each project directory, last of all.

``codex`` (Codex's rules). Global: ``~/.codex/AGENTS.override.md``, else
``~/.codex/AGENTS.md``, the first that is not empty. Project: from the root down to
cwd (always), in each directory the first of ``AGENTS.override.md`` and ``AGENTS.md``
that reads; an empty one is skipped (it still hides ``AGENTS.md``, as in Codex). The
project files share `max_total` bytes: the file that passes it is cut at a UTF-8
character boundary, later ones are not read, and ``instructions.truncated`` says
what was left out. The global file is bounded by `max_file` only, as in Codex.

Every mode: a file is read only if it is a regular file (a symlink is followed, but
a project file's real path must stay inside the project: a repository cannot link
the user's files into the prompt; user files may link anywhere; a FIFO, socket,
device or directory is refused, never waited on) of at most
`max_file` bytes, in UTF-8 without NUL bytes; anything else is an
``instructions.read.error`` and the next candidate is tried. A leading BOM is dropped
and CRLF becomes LF (the byte cap counts the text so normalised). A file is read at
most once (by identity, so CLAUDE.md → AGENTS.md is one file); an empty or
whitespace-only file yields nothing. A project directory that is a user directory (a
project at the home directory) does not read the user's files again.
`trust_project=False` loads the user files only.

Some files are conditional (`InstructionFile.condition`): Claude Code rules with
``paths:``, Cursor rules (Auto Attached, Agent Requested, Manual), Copilot's
``applyTo`` files. They are loaded and returned, but only the always-on files make
segments; `applies_to(files, path)` names the conditional files that attach when the
agent works on `path`, so a runtime can add them then.

`instruction_segments(files)` turns the always-on files into context segments: id
``agent.instructions.<scope>:<label>``, kind ``instruction``, stability ``build``, and
the text ``Instructions from <label>:`` on its own line, then the file's text without
leading blank lines and trailing whitespace. The label is the path relative to the
project root (``sub/AGENTS.md``) or, for user files, to the home (``~/.claude/CLAUDE.md``).
"""

import typing as _typing

if _typing.TYPE_CHECKING:
    from satchel.hosts._vocabulary import InstructionMode
    from satchel.kinds._instructions._hosts import gemini_context_names
    from satchel.kinds._instructions._load import instruction_segments, load_instructions
    from satchel.kinds._instructions._model import (
        ALWAYS,
        Applies,
        Condition,
        InstructionFile,
        Kind,
        Scope,
        applies_to,
    )
    from satchel.kinds._instructions._modes import MODES, ModeInfo
    from satchel.kinds._instructions._read import client_file
else:
    from satchel.core import _lazy

    __getattr__, __dir__ = _lazy.attach(
        __name__,
        {
            "satchel.kinds._instructions._hosts": ("gemini_context_names",),
            "satchel.kinds._instructions._load": ("instruction_segments", "load_instructions"),
            "satchel.kinds._instructions._model": (
                "ALWAYS",
                "Applies",
                "Condition",
                "InstructionFile",
                "Kind",
                "Scope",
                "applies_to",
            ),
            "satchel.kinds._instructions._modes": ("MODES", "ModeInfo"),
            "satchel.kinds._instructions._read": ("client_file",),
            "satchel.hosts._vocabulary": ("InstructionMode",),
        },
    )

__all__ = [
    "ALWAYS",
    "MODES",
    "Applies",
    "Condition",
    "InstructionFile",
    "InstructionMode",
    "Kind",
    "ModeInfo",
    "Scope",
    "applies_to",
    "client_file",
    "gemini_context_names",
    "instruction_segments",
    "load_instructions",
]
