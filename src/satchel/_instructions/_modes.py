"""`MODES`: what each instruction mode reads, as data (for the docs and host profiles)."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from satchel._model import model
from satchel.hosts._vocabulary import InstructionMode as InstructionMode


@model
class ModeInfo:
    """One mode. `user` and `project` are the files it reads, in prompt order (``~``
    is the home; a project path is read in each directory `walk` names: ``root`` or
    ``root to cwd``); `conditional` names the files whose frontmatter makes them
    conditional; `max_total` is the host's cap on the project files together (None:
    no cap); `source` is where the rules come from."""

    name: InstructionMode
    host: str
    user: tuple[str, ...]
    project: tuple[str, ...]
    walk: str
    conditional: tuple[str, ...]
    max_total: int | None
    source: str


_TABLE = (
    ModeInfo(
        "satchel",
        "satchel",
        ("~/.config/<client>/AGENTS.md", "~/.config/<client>/CLAUDE.md", "~/.claude/CLAUDE.md"),
        ("AGENTS.md", "CLAUDE.md", ".claude/CLAUDE.md", "<CLIENT>.md"),
        "root (root to cwd with ancestors)",
        (),
        None,
        "satchel's own rule: AGENTS.md, else a Claude file; the client's file last",
    ),
    ModeInfo(
        "codex",
        "Codex",
        ("~/.codex/AGENTS.override.md", "~/.codex/AGENTS.md"),
        ("AGENTS.override.md", "AGENTS.md"),
        "root to cwd",
        (),
        32 * 1024,
        "Codex 0.171.0 as run; developers.openai.com/codex",
    ),
    ModeInfo(
        "claude-code",
        "Claude Code",
        ("~/.claude/CLAUDE.md", "~/.claude/rules/**/*.md"),
        ("CLAUDE.md", ".claude/CLAUDE.md", ".claude/rules/**/*.md", "CLAUDE.local.md"),
        "root to cwd",
        (".claude/rules/**/*.md (paths:)",),
        None,
        "Claude Code 2.1.332 (its memory loader); code.claude.com/docs/en/memory",
    ),
    ModeInfo(
        "cursor",
        "Cursor",
        (),
        (".cursorrules", ".cursor/rules/**/*.mdc", "AGENTS.md"),
        "root to cwd (.cursorrules: root)",
        (".cursor/rules/**/*.mdc (alwaysApply, globs, description)",),
        None,
        "cursor.com/docs/context/rules",
    ),
    ModeInfo(
        "gemini",
        "Gemini CLI",
        ("~/.gemini/GEMINI.md",),
        ("GEMINI.md",),
        "root to cwd",
        (),
        None,
        "geminicli.com/docs/cli/gemini-md; Gemini CLI 0.61.0 as run",
    ),
    ModeInfo(
        "copilot",
        "GitHub Copilot",
        ("~/.copilot/copilot-instructions.md", "~/.copilot/instructions/**/*.instructions.md"),
        (
            ".github/copilot-instructions.md",
            "AGENTS.md",
            "CLAUDE.md (root)",
            "GEMINI.md (root)",
            ".github/instructions/**/*.instructions.md",
        ),
        "root to cwd",
        (".github/instructions/**/*.instructions.md (applyTo)",),
        None,
        "docs.github.com/copilot/how-tos/copilot-cli/customize-copilot/add-custom-instructions",
    ),
)

MODES: Mapping[InstructionMode, ModeInfo] = MappingProxyType({m.name: m for m in _TABLE})
