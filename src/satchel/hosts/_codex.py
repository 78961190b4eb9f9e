"""Codex: everything satchel knows of this host, as data (docs/hosts.md has
every host side by side)."""

from __future__ import annotations

from satchel.hosts._common import rows
from satchel.hosts._instructions import InstructionRule, InstructionSource, InstructionText
from satchel.hosts._model import Host, Index, Limits
from satchel.hosts._models import CODEX_MODELS
from satchel.layout import PROJECT, USER, WalkBounds

__all__ = ["CODEX", "CODEX_EVENTS", "CODEX_INSTRUCTIONS", "CODEX_SEPARATOR"]

CODEX_EVENTS = (
    "PreToolUse", "PermissionRequest", "PostToolUse", "PreCompact", "PostCompact",
    "UserPromptSubmit", "SubagentStart", "SubagentStop", "Stop", "SessionStart",
    "SessionEnd", "Interrupt",
)  # fmt: skip

_AGENTS_FILES = (
    InstructionSource("AGENTS.override.md", "override"),
    InstructionSource("AGENTS.md", "agents"),
)
CODEX_SEPARATOR = "\n\n--- project-doc ---\n\n"
# the first of AGENTS.override.md and AGENTS.md in ~/.codex and in every folder from the
# root down to cwd; the project's share 32 KiB (project_doc_max_bytes). Codex 0.171.0
# sends them as one user message: the global file's text stripped, then the project's
CODEX_INSTRUCTIONS = InstructionRule(
    mode="codex",
    host="Codex",
    source="Codex 0.171.0 as run; developers.openai.com/codex",
    user_folder="~/.codex",
    user=_AGENTS_FILES,
    project=_AGENTS_FILES,
    reader="first-file",
    max_total=32 * 1024,
    skip_empty_user=True,
    text=InstructionText(
        strip=("user",),
        user_join="",
        block="# AGENTS.md instructions for {cwd}\n\n<INSTRUCTIONS>\n{files}\n</INSTRUCTIONS>",
        between=CODEX_SEPARATOR,
    ),
)

CODEX = Host(
    name="codex",
    title="Codex",
    sources=(
        "https://developers.openai.com/codex/skills",
        "https://developers.openai.com/codex/guides/agents-md",
        "https://developers.openai.com/codex/plugins/build",
        "https://developers.openai.com/codex/hooks",
        "openai/codex codex-rs/core-skills/src/loader.rs",
        "codex debug prompt-input (0.171.0, observed)",
    ),
    # .agents/skills and .codex/skills in every folder from the git root down to cwd
    # (observed: the docs say .codex/skills at the root only), then the user's; every
    # copy of a name is listed (no winner)
    skills=(
        *rows(
            PROJECT, (".agents", "{project}/.agents/skills"), (".codex", "{project}/.codex/skills")
        ),
        *rows(USER, (".agents", "{home}/.agents/skills"), (".codex", "{home}/.codex/skills")),
    ),
    commands=rows(USER, (".codex", "{home}/.codex/prompts")),
    ancestors=True,
    walk=WalkBounds(nested=True, max_depth=6, max_dirs=2000),
    plugin_formats=("agent-plugins", "codex", "claude"),
    ambiguous_plugins="prefer",
    plugin_skill_rule="claude-code",
    argument_numbering=1,
    instructions="codex",
    skill_fields=("name", "description", "metadata"),
    # 2% of the model's window in tokens (8,000 characters only when the window is not
    # known); src/satchel/listings/_listing_codex.py renders the listing as Codex sends it
    index=Index(fraction=0.02, description=1024, overflow="shorten", style="codex"),
    models=CODEX_MODELS,
    limits=Limits(name=64, description=1024),
    events=CODEX_EVENTS,
    clash="every",
    hook_files=False,
    include_workspace_plugin=False,
    instruction_rule=CODEX_INSTRUCTIONS,
)
