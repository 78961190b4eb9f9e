"""Gemini CLI: everything satchel knows of this host, as data (docs/hosts.md has
every host side by side)."""

from __future__ import annotations

from satchel.hosts._common import rows
from satchel.hosts._instructions import InstructionRule, InstructionSource, InstructionText
from satchel.hosts._model import Host, Index
from satchel.hosts._models import GEMINI_MODELS
from satchel.layout import PROJECT, USER

__all__ = ["GEMINI", "GEMINI_EVENTS", "GEMINI_INSTRUCTIONS"]

GEMINI_EVENTS = (
    "BeforeTool", "AfterTool", "BeforeAgent", "AfterAgent", "BeforeModel", "AfterModel",
    "BeforeToolSelection", "SessionStart", "SessionEnd", "PreCompress", "Notification",
)  # fmt: skip

_CONTEXT = InstructionSource("{context}", "gemini", imports="at-inline")
# GEMINI.md (or the names context.fileName gives) in ~/.gemini and in every folder from
# the root down to cwd, @file.md inlined. Gemini CLI 0.61.0 sends the user's files at the
# end of the system instruction and the project's in the first user message
GEMINI_INSTRUCTIONS = InstructionRule(
    mode="gemini",
    host="Gemini CLI",
    source="geminicli.com/docs/cli/gemini-md; Gemini CLI 0.61.0 as run",
    user_folder="~/.gemini",
    user=(_CONTEXT,),
    project=(_CONTEXT,),
    text=InstructionText(
        file="--- Context from: {path} ---\n{text}\n--- End of Context from: {path} ---",
        user_block="<loaded_context>\n{files}\n</loaded_context>",
        project_block=(
            "<loaded_context>\n<project_context>\n{files}\n</project_context>\n</loaded_context>"
        ),
    ),
)

GEMINI = Host(
    name="gemini",
    title="Gemini CLI",
    sources=(
        "https://geminicli.com/docs/cli/using-agent-skills",
        "https://geminicli.com/docs/extensions/reference",
        "https://geminicli.com/docs/cli/gemini-md",
        "https://geminicli.com/docs/hooks",
        "gemini skills list (0.61.0, observed)",
    ),
    # weakest first in Gemini's words: extension < ~/.gemini < ~/.agents < .gemini < .agents
    skills=(
        *rows(PROJECT, (".agents", "{cwd}/.agents/skills"), (".gemini", "{cwd}/.gemini/skills")),
        *rows(USER, (".agents", "{home}/.agents/skills"), (".gemini", "{home}/.gemini/skills")),
    ),
    commands=(
        *rows(PROJECT, (".gemini", "{cwd}/.gemini/commands")),
        *rows(USER, (".gemini", "{home}/.gemini/commands")),
    ),
    plugins=rows(USER, (".gemini", "{home}/.gemini/extensions")),
    ancestors=True,  # GEMINI.md from cwd up to the git root (the skill rows name {cwd})
    plugin_formats=("gemini",),
    ambiguous_plugins="prefer",
    plugin_skill_rule="claude-code",
    plugin_skill_names="bare",  # an extension's skills dedupe with the others, weakest
    command_naming="path",
    instructions="gemini",
    skill_fields=("name", "description"),
    index=Index(overflow="none", style="gemini"),
    models=GEMINI_MODELS,
    events=GEMINI_EVENTS,
    untrusted="skip-project",
    trust_list="gemini",
    hook_files=False,
    include_workspace_plugin=False,
    instruction_rule=GEMINI_INSTRUCTIONS,
)
