"""The words a host definition is written in: the values each of its decisions can
take. The loaders that act on a decision import its word from here, so the host
definitions sit below every loader and each loader reads the one definition."""

from __future__ import annotations

from typing import Literal, get_args

__all__ = [
    "AMBIGUITY",
    "FORMATS",
    "HOOK_FORMATS",
    "SKILL_RULES",
    "Ambiguity",
    "AnswerFields",
    "AnswerRule",
    "Format",
    "InstructionKind",
    "HookFormat",
    "InstructionMode",
    "MatcherStyle",
    "Naming",
    "PluginSkillNames",
    "SkillRule",
    "TrustListName",
    "Untrusted",
]

Format = Literal[
    "agent-plugins",
    "bundle",
    "claude",
    "codex",
    "cursor",
    "gemini",
    "kimi",
    "opencode",
    "workspace",
]
"""A plugin format satchel reads (one adapter module each in `satchel.plugins.formats`)."""
FORMATS: tuple[Format, ...] = get_args(Format)

Ambiguity = Literal["prefer", "refuse"]
"""What a host does with a directory holding several plugin manifests."""
AMBIGUITY: tuple[Ambiguity, ...] = get_args(Ambiguity)

SkillRule = Literal["claude-code", "vibe"]
"""How a plugin's skill folders are found and checked."""
SKILL_RULES: tuple[SkillRule, ...] = get_args(SkillRule)

InstructionMode = Literal["satchel", "codex", "claude-code", "cursor", "gemini", "copilot"]
"""Which instruction files a host reads, and how: the `InstructionRule` of that
word (`satchel.hosts.instruction_rules`)."""

InstructionKind = Literal[
    "agents", "claude", "client", "override", "local", "rule", "gemini", "copilot", "legacy"
]
"""What an instruction file is (`satchel.kinds._instructions.InstructionFile.kind`)."""

Naming = Literal["stem", "path"]
"""How a command in a subfolder is named: its stem, or ``dir:name``."""

PluginSkillNames = Literal["namespaced", "bare"]
"""Whether a plugin's skills are named ``plugin:skill`` or as written."""

Untrusted = Literal["user-first", "skip-project"]
"""What a host does in a folder that is not trusted."""

TrustListName = Literal["satchel", "gemini"]
"""Whose list of trusted folders decides."""

HookFormat = Literal["claude", "vibe", "kimi", "gemini", "cursor", "satchel"]
"""Whose hook files a hook was read from (`satchel.hooks.HookSpec.format`); each is one
host definition's `HookDialect.format`."""
HOOK_FORMATS: tuple[HookFormat, ...] = get_args(HookFormat)

MatcherStyle = Literal["names-or-regex", "glob-or-regex"]
"""How a hook's matcher is read: exact names split on ``|`` and ``,``, else a regex
searched unanchored (``names-or-regex``); or a case-insensitive shell glob, ``re:``
a full-match regex (``glob-or-regex``)."""

AnswerFields = Literal["hook-specific-output", "snake-case", "top-level-decision", "permission"]
"""Which fields of a hook's JSON answer carry its decision: ``hookSpecificOutput`` (and
the legacy top-level ``decision``), ``hook_specific_output`` with a top-level
``decision``, a top-level ``decision`` of allow/deny/block/ask, or ``permission`` with
``agent_message`` and ``followup_message``."""

AnswerRule = Literal["exit-code", "strict-json", "stdout-or-stderr"]
"""How a host reads a hook's run: exit 2 refuses and JSON on stdout is read on exit 0
(``exit-code``); output it does not understand fails the hook and JSON is read only on
exit 0 (``strict-json``); the answer is stdout, else stderr, JSON read whatever the exit
code and plain text by the exit code (``stdout-or-stderr``)."""
